import type { GlyphBitmap } from '../../src/render/text/glyph-bitmap.js';
import { OutlineScan } from '../../src/render/text/outline-scan.js';

/** A point of a test outline, px, y down (the rasteriser's space after its maps). */
export type Point = readonly [number, number];

/** A glyph made of straight-edged contours: what the rasteriser's passes take, built by hand for unit tests. */
export interface PolygonGlyph {
  scan: OutlineScan;
  /** Where each contour starts in scan.segs. */
  contours: number[];
}

/**
 * The flattened outline of closed polygons (non-zero winding: a hole is a polygon drawn the other way round), as
 * glyph-raster.ts hands it to dropout control and counter repair.
 */
export function polygonGlyph(polygons: readonly (readonly Point[])[]): PolygonGlyph {
  const segs: number[] = [];
  const contours: number[] = [];
  for (const poly of polygons) {
    contours.push(segs.length);
    poly.forEach(([x0, y0], i) => {
      const [x1, y1] = poly[(i + 1) % poly.length]!;
      segs.push(x0, y0, x1, y1);
    });
  }
  return { scan: new OutlineScan(Float64Array.from(segs)), contours };
}

/** A rectangle, clockwise on screen (y down); `reversed` draws it the other way (a counter inside another). */
export function rect(x0: number, y0: number, x1: number, y1: number, reversed = false): Point[] {
  const pts: Point[] = [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
  ];
  return reversed ? pts.reverse() : pts;
}

/**
 * The plain 1-bit raster of a glyph on a width x height box at (0, 0): coverage by 16 x 16 samples a pixel, ink
 * above half, as the rasteriser thresholds before its passes run. No dropout control, no repair.
 */
export function thresholded({ scan }: PolygonGlyph, width: number, height: number): GlyphBitmap {
  const N = 16;
  const acc = new Float64Array(width * height);
  for (let r = 0; r < height * N; r++) {
    const m = scan.spans('y', (r + 0.5) / N, 0);
    for (let s = 0; s < m; s += 2) {
      for (let c = 0; c < width * N; c++) {
        const x = (c + 0.5) / N;
        if (x >= scan.found[s]! && x < scan.found[s + 1]!)
          acc[Math.floor(r / N) * width + Math.floor(c / N)]! += 1 / (N * N);
      }
    }
  }
  const cover = Uint8Array.from(acc, (a) => Math.round(a * 255));
  const bits = Uint8Array.from(acc, (a) => (a > 0.5 ? 1 : 0));
  return { left: 0, top: 0, width, height, bits, cover };
}

/** The bitmap as rows of '#' (ink) and '.', for readable failure messages. */
export function picture(bm: GlyphBitmap): string {
  const rows: string[] = [];
  for (let y = 0; y < bm.height; y++)
    rows.push(Array.from(bm.bits.subarray(y * bm.width, (y + 1) * bm.width), (b) => (b ? '#' : '.')).join(''));
  return rows.join('\n');
}
