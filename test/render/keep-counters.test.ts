import { describe, expect, it } from 'vitest';
import type { GlyphBitmap } from '../../src/render/text/glyph-bitmap.js';
import { keepCounters } from '../../src/render/text/keep-counters.js';
import { picture, polygonGlyph, rect, thresholded } from '../helpers/polygon-glyph.js';

/** Background regions not reachable from the bitmap's border (4-connected): the counters as drawn. */
function enclosed(bm: GlyphBitmap): number {
  const { width: w, height: h, bits } = bm;
  const seen = new Uint8Array(w * h);
  let count = 0;
  for (let start = 0; start < w * h; start++) {
    if (bits[start] || seen[start]) continue;
    let edge = false;
    const stack = [start];
    seen[start] = 1;
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % w;
      const y = (i - x) / w;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) edge = true;
      for (const [nx, ny] of [
        [x - 1, y],
        [x + 1, y],
        [x, y - 1],
        [x, y + 1],
      ] as const) {
        const j = ny * w + nx;
        if (nx >= 0 && ny >= 0 && nx < w && ny < h && !bits[j] && !seen[j]) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    if (!edge) count++;
  }
  return count;
}

/** Marks pixels ink at a coverage just over the threshold, as emboldening or dropout control leaves them. */
function inkOver(bm: GlyphBitmap, pixels: readonly (readonly [number, number])[], cover = 140): void {
  for (const [x, y] of pixels) {
    bm.bits[y * bm.width + x] = 1;
    bm.cover[y * bm.width + x] = cover;
  }
}

describe('keepCounters', () => {
  // An o at a small size: a ring 2 px thick around a 1 px counter (the counter drawn the other way round).
  const o = () => polygonGlyph([rect(1, 1, 6, 6), rect(3, 3, 4, 4, true)]);

  it('draws the plain ring with its counter (the construction the other cases start from)', () => {
    const bm = thresholded(o(), 7, 7);
    expect(enclosed(bm), picture(bm)).toBe(1);
  });

  it('opens a counter that a half-covered pixel filled in (the o drawn as a blob)', () => {
    const glyph = o();
    const bm = thresholded(glyph, 7, 7);
    inkOver(bm, [[3, 3]]);
    expect(enclosed(bm)).toBe(0);
    keepCounters(glyph.scan, glyph.contours, bm);
    expect(enclosed(bm), picture(bm)).toBe(1);
    expect(bm.bits[3 * 7 + 3]).toBe(0);
    expect(bm.cover[3 * 7 + 3]).toBeLessThan(128);
  });

  it('re-opens the aperture of an e that a pixel of ink closed, without cutting into its strokes', () => {
    // An e-like shape: a ring whose lower right is open (the aperture), the bar above it.
    const glyph = polygonGlyph([
      [
        [1, 1],
        [7, 1],
        [7, 5],
        [3, 5],
        [3, 7],
        [7, 7],
        [7, 8],
        [1, 8],
      ],
      rect(3, 3, 5, 4, true),
    ]);
    const bm = thresholded(glyph, 9, 9);
    expect(enclosed(bm), picture(bm)).toBe(1);
    const strokes = Array.from(bm.bits);
    // Near-threshold pixels across the aperture's mouth seal it into a second, false counter.
    inkOver(bm, [
      [6, 5],
      [6, 6],
    ]);
    expect(enclosed(bm), picture(bm)).toBe(2);
    keepCounters(glyph.scan, glyph.contours, bm);
    expect(enclosed(bm), picture(bm)).toBe(1);
    strokes.forEach((b, i) => (b ? expect(bm.bits[i], `stroke pixel ${i}`).toBe(1) : undefined));
  });

  it('leaves a bitmap whose counters already match the outline as it is', () => {
    const glyph = o();
    const bm = thresholded(glyph, 7, 7);
    const before = picture(bm);
    keepCounters(glyph.scan, glyph.contours, bm);
    expect(picture(bm)).toBe(before);
  });
});
