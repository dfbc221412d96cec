import { describe, expect, it } from 'vitest';
import type { GlyphBitmap } from '../../src/render/text/glyph-bitmap.js';
import { decodeGlyphs, encodeGlyphs } from '../../src/render/text/glyph-store.js';

const bitmap = (left: number, top: number, width: number, height: number, seed: number): GlyphBitmap => ({
  left,
  top,
  width,
  height,
  bits: Uint8Array.from({ length: width * height }, (_, i) => ((i * seed) % 3 === 0 ? 1 : 0)),
  cover: Uint8Array.from({ length: width * height }, (_, i) => (i * seed * 37) % 256),
});

const GLYPHS = new Map<string, GlyphBitmap>([
  ['regular|0:36|17.000|0', bitmap(1, -12, 9, 12, 7)],
  ['bold|0:2|96.000|0.25', bitmap(-3, -70, 61, 72, 11)],
  // A space: no pixels at all.
  ['regular|0:3|20.000|0', bitmap(0, 0, 0, 0, 1)],
  ['condensed|1:812|9.000|0', bitmap(0, -9, 8, 10, 5)],
]);

describe('glyph bitmaps on disk (glyph-store.ts)', () => {
  it('reads back every glyph as written, bit for bit', () => {
    const back = decodeGlyphs(encodeGlyphs('build 1', GLYPHS), 'build 1');
    expect(back).not.toBeNull();
    expect([...back!.keys()]).toEqual([...GLYPHS.keys()]);
    for (const [key, bm] of GLYPHS) {
      const got = back!.get(key)!;
      expect({ ...got, bits: [...got.bits], cover: [...got.cover] }).toEqual({
        ...bm,
        bits: [...bm.bits],
        cover: [...bm.cover],
      });
    }
  });

  it('reads nothing from a file written for another build or other fonts', () => {
    expect(decodeGlyphs(encodeGlyphs('build 1', GLYPHS), 'build 2')).toBeNull();
  });

  it('reads nothing from a torn or damaged file, wherever the damage is', () => {
    const file = encodeGlyphs('build 1', GLYPHS);
    for (const at of [0, 9, 20, Math.floor(file.length / 2), file.length - 5, file.length - 1]) {
      const bad = Buffer.from(file);
      bad[at]! ^= 0x10;
      expect(decodeGlyphs(bad, 'build 1'), `byte ${at} flipped`).toBeNull();
    }
    for (const length of [0, 4, 12, file.length - 1, Math.floor(file.length / 3)]) {
      expect(decodeGlyphs(file.subarray(0, length), 'build 1'), `cut at ${length}`).toBeNull();
    }
  });

  it('an empty cache is a file too', () => {
    expect(decodeGlyphs(encodeGlyphs('b', []), 'b')?.size).toBe(0);
  });
});
