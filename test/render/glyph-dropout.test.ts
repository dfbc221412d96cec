import { describe, expect, it } from 'vitest';
import { dropoutControl } from '../../src/render/text/glyph-dropout.js';
import { picture, polygonGlyph, rect, thresholded } from '../helpers/polygon-glyph.js';

const inkCount = (bits: Uint8Array): number => bits.reduce((n, b) => n + b, 0);

describe('dropoutControl', () => {
  it('gives a hyphen thinner than a pixel, between two rows of pixel centres, a row of ink', () => {
    // 0.4 px tall, from 2.05 to 2.45: it holds no pixel centre (2.5), so the threshold leaves it blank.
    const glyph = polygonGlyph([rect(1, 2.05, 6, 2.45)]);
    const bm = thresholded(glyph, 7, 5);
    expect(inkCount(bm.bits)).toBe(0);
    dropoutControl({ ...glyph, grow: 0, bitmap: bm });
    // Its row only, as one unbroken run (its two ends are stubs: no stroke goes on beyond them, so may stay bare).
    const rows = picture(bm).split('\n');
    expect(rows[2], picture(bm)).toMatch(/^\.+#{3,5}\.+$/);
    for (const r of [0, 1, 3, 4]) expect(rows[r]).not.toContain('#');
    // Added ink counts as ink on grey panels too.
    for (let i = 0; i < bm.bits.length; i++) if (bm.bits[i]) expect(bm.cover[i]).toBeGreaterThanOrEqual(128);
  });

  it('keeps a hairline stem unbroken: every row it crosses gets a pixel', () => {
    // 0.35 px wide between pixel centres (x 3.05-3.4): the threshold drops all of it.
    const glyph = polygonGlyph([rect(3.05, 0, 3.4, 8)]);
    const bm = thresholded(glyph, 7, 8);
    expect(inkCount(bm.bits)).toBe(0);
    dropoutControl({ ...glyph, grow: 0, bitmap: bm });
    const rows = picture(bm).split('\n');
    // The stem's ends are stubs (no stroke beyond them) and may stay bare; everything between is drawn, in its column.
    for (const row of rows.slice(1, -1)) expect(row).toBe('...#...');
  });

  it('rescues a dot too small for any rule: the pixel it covers most becomes ink', () => {
    // A 0.6 px square around a pixel corner: four pixels a quarter-share each, none near half.
    const glyph = polygonGlyph([rect(2.7, 1.7, 3.3, 2.3)]);
    const bm = thresholded(glyph, 6, 4);
    expect(inkCount(bm.bits)).toBe(0);
    dropoutControl({ ...glyph, grow: 0, bitmap: bm });
    expect(inkCount(bm.bits), picture(bm)).toBeGreaterThan(0);
  });

  it('adds nothing to a glyph whose strokes already hold whole pixels', () => {
    const glyph = polygonGlyph([rect(1, 1, 3, 7), rect(1, 6, 6, 7)]);
    const bm = thresholded(glyph, 7, 8);
    const before = picture(bm);
    dropoutControl({ ...glyph, grow: 0, bitmap: bm });
    expect(picture(bm)).toBe(before);
  });
});
