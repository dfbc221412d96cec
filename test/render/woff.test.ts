import { readFileSync } from 'node:fs';
import opentype from 'opentype.js';
import { describe, expect, it } from 'vitest';
import { fallbackFiles, fontFile } from '../../src/render/text/font-stack.js';
import { TrueTypeFont } from '../../src/render/text/ttf.js';
import { sfntFromWoff } from '../../src/render/text/woff.js';

/** The WOFF fallback fonts, unpacked by woff.ts and read by ttf.ts, against opentype.js reading the same files. */

const SAMPLE = '✅⛅☔❄⚡☃⛈🌧☑✗⬆↗เสื้อกันฝน';
type Cmd = { type: string; x?: number; y?: number };
/** opentype.js adds a line to the point it is already at after some moves and curves: no part of the shape. */
function shape(cmds: Cmd[]): Cmd[] {
  let at: Cmd | null = null;
  return cmds.filter((c) => {
    const skip = c.type === 'L' && at !== null && at.x === c.x && at.y === c.y;
    if (c.type !== 'Z') at = c;
    return !skip;
  });
}

const files = [...new Set([...fallbackFiles('regular'), ...fallbackFiles('bold')])];

describe.each(files.map((f) => [f.split('/').pop()!, f]))('%s', (_name, file) => {
  const buf = readFileSync(file);
  const ours = new TrueTypeFont(sfntFromWoff(buf));
  const theirs = opentype.parse(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));

  it('maps characters, advances and outlines the same', () => {
    expect(ours.unitsPerEm).toBe(theirs.unitsPerEm);
    expect(ours.numGlyphs).toBe(theirs.numGlyphs);
    let found = 0;
    for (const ch of SAMPLE) {
      const g = theirs.charToGlyph(ch);
      expect(ours.glyphIndex(ch.codePointAt(0)!)).toBe(g.index);
      if (g.index === 0) continue;
      found++;
      expect(ours.advanceWidth(g.index)).toBe(g.advanceWidth);
      const a = shape(ours.path(g.index));
      const b = shape(g.path.commands);
      expect(a.length).toBe(b.length);
      a.forEach((c, i) => {
        const o = b[i]!;
        expect(c.type).toBe(o.type);
        if (c.type !== 'Z') expect([c.x, c.y]).toEqual([o.x, o.y]);
      });
    }
    expect(found).toBeGreaterThan(0);
  });
});

it('leaves a TrueType file as it is', () => {
  const ttf = readFileSync(fontFile('regular'));
  expect(sfntFromWoff(ttf)).toBe(ttf);
});
