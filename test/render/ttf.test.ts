import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import opentype from 'opentype.js';
import { describe, expect, it } from 'vitest';
import { fontFile } from '../../src/render/text/font-stack.js';
import type { FontId } from '../../src/render/text/fonts.js';
import { openFontFile } from '../../src/render/text/font-file.js';
import { TrueTypeFont } from '../../src/render/text/ttf.js';

/** Our TrueType reader against opentype.js (a reader that is not ours) on the fonts we ship with. */

const SAMPLE = 'AVTo Wear a coat, 21°C −4°F ↗ 52 km/h… «éñüß» Ωж 0123456789 %?!@&';
const IDS: FontId[] = ['regular', 'bold', 'condensed', 'condensed-bold'];

/** Each face read whole into memory, and as the renderer opens it (font-file.ts: outlines read from the file). */
const FORMS: [FontId, string][] = IDS.flatMap((id) => [
  [id, 'in memory'],
  [id, 'outlines from the file'],
]);

describe.each(FORMS)('TrueType reader on DejaVu %s, %s', (id, form) => {
  const file = fontFile(id);
  const ours = form === 'in memory' ? new TrueTypeFont(readFileSync(file)) : openFontFile(file);
  const theirs = opentype.loadSync(file);

  it('reads the same metrics', () => {
    expect(ours.unitsPerEm).toBe(theirs.unitsPerEm);
    expect(ours.ascender).toBe(theirs.ascender);
    expect(ours.descender).toBe(theirs.descender);
    expect(ours.numGlyphs).toBe(theirs.numGlyphs);
  });

  it('maps characters, advances and kerning pairs the same', () => {
    const chars = [...SAMPLE];
    for (const ch of chars) {
      const g = theirs.charToGlyph(ch);
      expect(ours.glyphIndex(ch.codePointAt(0)!)).toBe(g.index);
      expect(ours.advanceWidth(g.index)).toBe(g.advanceWidth);
    }
    for (let i = 1; i < chars.length; i++) {
      const a = theirs.charToGlyph(chars[i - 1]!).index;
      const b = theirs.charToGlyph(chars[i]!).index;
      expect(ours.kerning(a, b)).toBe(theirs.kerningPairs[`${a},${b}`] ?? 0);
    }
    expect(ours.glyphIndex(0x1f9e5)).toBe(0); // an emoji: not in the font
  });

  it('decodes the same outlines (composites included)', () => {
    type Cmd = { type: string; x?: number; y?: number };
    // opentype.js adds a line to the point it is already at after some moves and curves: no part of the shape.
    const shape = (cmds: Cmd[]): Cmd[] => {
      let at: Cmd | null = null;
      return cmds.filter((c) => {
        const skip = c.type === 'L' && at !== null && at.x === c.x && at.y === c.y;
        if (c.type !== 'Z') at = c;
        return !skip;
      });
    };
    for (const ch of SAMPLE) {
      const g = theirs.charToGlyph(ch);
      const a = shape(ours.path(g.index));
      const b = shape(g.path.commands);
      expect(a.length).toBe(b.length);
      a.forEach((c, i) => {
        const o = b[i]!;
        expect(c.type).toBe(o.type);
        if (c.type !== 'Z') {
          expect(c.x).toBeCloseTo(o.x!, 6);
          expect(c.y).toBeCloseTo(o.y!, 6);
        }
      });
    }
  });
});

describe('a font file that is not whole', () => {
  it('names the file when it ends before a table it lists', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outfit-ttf-'));
    const cut = join(dir, 'cut.ttf');
    writeFileSync(cut, readFileSync(fontFile('regular')).subarray(0, 40_000));
    expect(() => openFontFile(cut)).toThrow(`${cut}: the font file ends before byte`);
  });

  it('names the file when it has no outlines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outfit-ttf-'));
    const file = join(dir, 'no-glyf.ttf');
    const font = Buffer.from(readFileSync(fontFile('regular')));
    const count = font.readUInt16BE(4);
    for (let i = 0; i < count; i++)
      if (font.toString('latin1', 12 + i * 16, 16 + i * 16) === 'glyf') font.write('glyX', 12 + i * 16, 'latin1');
    writeFileSync(file, font);
    expect(() => openFontFile(file)).toThrow(`${file}: not a TrueType font with outlines (no glyf table)`);
  });
});

describe('a TrueType collection (.ttc)', () => {
  /** Two faces as one collection: each font's directory offsets count from the file's start. */
  function collectionOf(first: Buffer, second: Buffer): Buffer {
    const head = 12 + 2 * 4;
    const at = [head, head + first.length];
    const shifted = (font: Buffer, by: number): Buffer => {
      const f = Buffer.from(font);
      for (let i = 0; i < f.readUInt16BE(4); i++)
        f.writeUInt32BE(f.readUInt32BE(12 + i * 16 + 8) + by, 12 + i * 16 + 8);
      return f;
    };
    const header = Buffer.alloc(head);
    header.write('ttcf', 0, 'latin1');
    header.writeUInt32BE(0x00010000, 4);
    header.writeUInt32BE(2, 8);
    header.writeUInt32BE(at[0]!, 12);
    header.writeUInt32BE(at[1]!, 16);
    return Buffer.concat([header, shifted(first, at[0]!), shifted(second, at[1]!)]);
  }

  it('is read as its first font, outlines and all', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outfit-ttc-'));
    const file = join(dir, 'pair.ttc');
    writeFileSync(file, collectionOf(readFileSync(fontFile('regular')), readFileSync(fontFile('bold'))));
    const ours = openFontFile(file);
    const lone = openFontFile(fontFile('regular'));
    expect(ours.unitsPerEm).toBe(lone.unitsPerEm);
    expect(ours.numGlyphs).toBe(lone.numGlyphs);
    for (const ch of 'Wear a coat 21°C') {
      const index = lone.glyphIndex(ch.codePointAt(0)!);
      expect(ours.glyphIndex(ch.codePointAt(0)!)).toBe(index);
      expect(ours.advanceWidth(index)).toBe(lone.advanceWidth(index));
      expect(ours.path(index)).toEqual(lone.path(index));
    }
  });
});
