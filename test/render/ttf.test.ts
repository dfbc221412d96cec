import { readFileSync } from 'node:fs';
import opentype from 'opentype.js';
import { describe, expect, it } from 'vitest';
import { fontFile, type FontId } from '../../src/render/fonts.js';
import { TrueTypeFont } from '../../src/render/ttf.js';

/** Our TrueType reader against opentype.js (a reader that is not ours) on the fonts we ship with. */

const SAMPLE = 'AVTo Wear a coat, 21°C −4°F ↗ 52 km/h… «éñüß» Ωж 0123456789 %?!@&';
const IDS: FontId[] = ['regular', 'bold', 'condensed', 'condensed-bold'];

describe.each(IDS)('TrueType reader on DejaVu %s', (id) => {
  const file = fontFile(id);
  const ours = new TrueTypeFont(readFileSync(file));
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
