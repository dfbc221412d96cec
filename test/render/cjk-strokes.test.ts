import { describe, expect, it } from 'vitest';
import { drawText, font } from '../../src/render/text/fonts.js';
import { TextLayer } from '../../src/render/text/text-layer.js';
import { rasterizeGlyph } from '../../src/render/text/glyph-raster.js';
import { picture } from '../helpers/polygon-glyph.js';
import type { PathCommand } from '../../src/render/text/ttf.js';

/**
 * Chinese and Japanese glyphs from the system font (system-fonts.ts) are drawn as designed, not grid-fitted; at the
 * small panels' sizes their horizontal strokes are a pixel thick or less, and one that straddles two pixel rows covers
 * neither by half. Dropout control (glyph-dropout.ts) keeps them: "上" at 12 px read "ト" without it.
 */

/** Rows of a bitmap with a run of at least `n` ink pixels side by side. */
function rowsWithRun(bits: Uint8Array, width: number, n: number): number {
  let rows = 0;
  for (let r = 0; r * width < bits.length; r++) {
    let run = 0;
    let best = 0;
    for (let c = 0; c < width; c++) best = Math.max(best, (run = bits[r * width + c] ? run + 1 : 0));
    if (best >= n) rows++;
  }
  return rows;
}

describe('thin strokes of an outline drawn as designed', () => {
  it('gives a bar straddling two rows a row of ink with dropout control, none without', () => {
    // 0.9 px thick from 2.55 to 3.45 px above the baseline: 45 % of each of two rows.
    const commands: PathCommand[] = [
      { type: 'M', x: 1, y: 2.55 },
      { type: 'L', x: 1, y: 3.45 },
      { type: 'L', x: 8, y: 3.45 },
      { type: 'L', x: 8, y: 2.55 },
      { type: 'Z' },
    ];
    const plain = rasterizeGlyph({ commands, scale: 1, dx: 0, embolden: 0, zones: null });
    const kept = rasterizeGlyph({ commands, scale: 1, dx: 0, embolden: 0, zones: null, dropout: true });
    expect(plain.bits.some(Boolean), picture(plain)).toBe(false);
    expect(rowsWithRun(kept.bits, kept.width, 5), picture(kept)).toBe(1);
  });

  it.each([11, 12, 13])('draws both bars of "上" at %i px (not "ト")', (size) => {
    const g = font('condensed').glyph('上');
    expect(g).toMatchObject({ missing: false, system: true });
    const bm = rasterizeGlyph({
      commands: g.commands,
      scale: size / g.unitsPerEm,
      dx: 0,
      embolden: 0,
      zones: null,
      dropout: true,
    });
    // The bottom bar runs the glyph's width (a row of half the size in ink at least, the stem's foot apart); the middle one half of it: two rows
    // with a run of 3 px or more.
    const inRow = (r: number): number => bm.bits.slice(r * bm.width, (r + 1) * bm.width).reduce((n, b) => n + b, 0);
    expect(Math.max(...Array.from({ length: bm.height }, (_, r) => inRow(r))), picture(bm)).toBeGreaterThanOrEqual(
      Math.ceil(size * 0.5),
    );
    expect(rowsWithRun(bm.bits, bm.width, 3), picture(bm)).toBeGreaterThanOrEqual(2);
  });
});

describe('"上" as a frame draws it', () => {
  it.each([11, 12, 13])('keeps both bars at %i px on a 1-bit panel', (size) => {
    const layer = new TextLayer(24, 24, [
      [0, 0, 0],
      [255, 255, 255],
    ]);
    drawText(layer, 'condensed', size, '上', 4, 18, '#000000');
    const black = layer.colourIndex('#000000');
    const bits = Uint8Array.from(layer.index, (i) => (i === black ? 1 : 0));
    const inRow = (r: number): number => bits.slice(r * 24, (r + 1) * 24).reduce((n, b) => n + b, 0);
    const rows = Array.from({ length: 24 }, (_, r) => inRow(r));
    expect(Math.max(...rows)).toBeGreaterThanOrEqual(Math.ceil(size * 0.5));
    expect(rowsWithRun(bits, 24, 3)).toBeGreaterThanOrEqual(2);
  });
});
