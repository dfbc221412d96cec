import type { GlyphBitmap } from './glyph-bitmap.js';
import { dropoutControl } from './glyph-dropout.js';
import { keepCounters } from './keep-counters.js';
import { OutlineScan } from './outline-scan.js';
import { barMap, stemMap, stemsOf, type StemFit } from './stem-fit.js';
import type { PathCommand } from './ttf.js';

/**
 * A small rasterizer for glyph outlines: area coverage per pixel (sub-scanlines, exact horizontally), thresholded
 * at more than half for 1-bit panels and kept as it is for grey panels to anti-alias with.
 *
 * Small text (below the size fonts.ts hints at) is grid-fitted, so that it holds together at 9-16 px:
 * - the baseline, x-height and cap-height land on whole pixels, and so do horizontal bars and the tops and
 *   bottoms of rounds, one row thick (the outline is stretched piecewise in y: stem-fit.ts's barMap), so every
 *   x-height letter has the same height, hyphens and the bars of f, t and e stay whole, and counters stay open;
 * - each vertical stem, straight or round, lands on whole pixels at the face's one weight (the outline is
 *   stretched piecewise in x: stem-fit.ts's stemMap), so the second stem of an n or m is the first one's width;
 *   a glyph without stems (v, w, x) is shifted by up to 3/8 px instead, to where the fewest pixels are part
 *   covered;
 * - dropout control: a stroke that covers no pixel centre, across or along, still gets the pixel at its middle
 *   (unless it is a stub, the tip of a terminal), so thin strokes (the joins of "r" and "m") never break the
 *   letter apart;
 * - emboldening is horizontal only (stems thicken to a whole number of px, fonts.ts);
 * - where that is still not enough, keep-counters.ts flips the pixels nearest the threshold until the bitmap has
 *   the outline's holes, one for one (no closed aperture, filled or leaking counter, or stray one-pixel hole).
 * The same outline, size and pen offset give the same pixels on every machine, whatever colour the text is.
 *
 * Why not let canvas (cairo + FreeType) draw text with a bundled font? Its pixels depend on the FreeType
 * version, its hinting engine and the build's settings (light or full hinting, LCD filter), so frames, their
 * hashes and the golden tests would differ between machines and Node images, and it could not give both a
 * 1-bit threshold and coverage from one outline. This costs about 1,000 lines (with glyph-dropout.ts,
 * keep-counters.ts, stem-fit.ts and glyph-place.ts) and a glyph cache.
 */

export type { GlyphBitmap } from './glyph-bitmap.js';

/** Heights of the font's zones above the baseline, in font units, that grid-fitting puts on whole pixels. */
export interface VerticalZones {
  xHeight: number;
  capHeight: number;
}

export interface RasterOptions {
  /** The outline, in font units, y up. */
  commands: readonly PathCommand[];
  /** px per font unit. */
  scale: number;
  /** Where the pen is inside its pixel, 0 <= dx < 1 (0 when pens are on whole pixels). */
  dx: number;
  /** Stems grow by this many px (half each side), horizontally only. */
  embolden: number;
  /** Grid-fit: zones on whole pixels and stems shifted onto pixel edges. Null draws the outline as designed. */
  zones: VerticalZones | null;
  /** With `zones`: stems fitted to whole pixels (stem-fit.ts); the font's units per em with it. */
  stems?: (StemFit & { unitsPerEm: number }) | null;
  /**
   * Without `zones`: dropout control all the same (glyph-dropout.ts). A small CJK glyph's horizontal strokes are a
   * pixel thick or less, and one that straddles two rows covers neither by half: thresholded alone, "上" lost its
   * middle bar at 12 px and read "ト".
   */
  dropout?: boolean;
}

const EMPTY: GlyphBitmap = { left: 0, top: 0, width: 0, height: 0, bits: new Uint8Array(0), cover: new Uint8Array(0) };

/**
 * Sub-scanlines a pixel row for coverage of text drawn as designed (20 px and up: its edges only shade grey
 * panels' text, and 8 levels are as many as the 16-grey Kindle's ink-to-paper steps need).
 */
const SUB = 8;

/** Horizontal shifts tried when grid-fitting stems, in px, best first when equally sharp. */
const SHIFTS = [0, 0.125, -0.125, 0.25, -0.25, 0.375, -0.375];

/** Maps a height in font units to px (y down), stretching piecewise so that the zones land on whole pixels. */
function yMap(
  scale: number,
  zones: VerticalZones | null,
  bars?: { commands: readonly PathCommand[]; fit: StemFit & { unitsPerEm: number } },
): (y: number) => number {
  if (!zones) return (y) => -y * scale;
  const xh = zones.xHeight;
  const cap = zones.capHeight;
  const fxh = Math.max(1, Math.round(xh * scale));
  const fcap = Math.max(fxh, Math.round(cap * scale));
  if (bars) {
    const { commands, fit } = bars;
    const points: [number, number][] = [
      [0, 0],
      [xh, -fxh],
      [cap, -fcap],
    ];
    return barMap(stemsOf(commands, fit.unitsPerEm, fit.barUnits, 'y'), points, scale, fit);
  }
  return (y) => {
    if (y <= 0) return -y * scale;
    if (y <= xh) return (-y * fxh) / xh;
    if (y <= cap) return -(fxh + ((y - xh) * (fcap - fxh)) / (cap - xh));
    return -(fcap + (y - cap) * scale);
  };
}

/**
 * Flattens the outline to line segments in px (x0, y0, x1, y1 each), x offset by dx, y by `Y`; `contours` gets
 * the index in the result where each contour starts.
 */
function flatten(
  commands: readonly PathCommand[],
  X: (x: number) => number,
  Y: (y: number) => number,
  contours: number[] = [],
): Float64Array {
  const segs: number[] = [];
  let sx = 0;
  let sy = 0;
  let cx = 0;
  let cy = 0;
  const line = (x: number, y: number): void => {
    if (y !== cy || x !== cx) segs.push(cx, cy, x, y);
    cx = x;
    cy = y;
  };
  for (const c of commands) {
    switch (c.type) {
      case 'M':
        if (cx !== sx || cy !== sy) line(sx, sy);
        contours.push(segs.length);
        cx = sx = X(c.x);
        cy = sy = Y(c.y);
        break;
      case 'L':
        line(X(c.x), Y(c.y));
        break;
      case 'Q': {
        const [x0, y0, x1, y1, x2, y2] = [cx, cy, X(c.x1), Y(c.y1), X(c.x), Y(c.y)];
        const n = Math.max(1, Math.ceil(Math.sqrt(Math.hypot(x0 - 2 * x1 + x2, y0 - 2 * y1 + y2) * 2.5)));
        for (let i = 1; i <= n; i++) {
          const t = i / n;
          const u = 1 - t;
          line(u * u * x0 + 2 * u * t * x1 + t * t * x2, u * u * y0 + 2 * u * t * y1 + t * t * y2);
        }
        break;
      }
      case 'C': {
        const [x0, y0, x1, y1, x2, y2, x3, y3] = [cx, cy, X(c.x1), Y(c.y1), X(c.x2), Y(c.y2), X(c.x), Y(c.y)];
        const dd = Math.max(
          Math.hypot(x0 - 2 * x1 + x2, y0 - 2 * y1 + y2),
          Math.hypot(x1 - 2 * x2 + x3, y1 - 2 * y2 + y3),
        );
        const n = Math.max(1, Math.ceil(Math.sqrt(dd * 3)));
        for (let i = 1; i <= n; i++) {
          const t = i / n;
          const u = 1 - t;
          line(
            u * u * u * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x3,
            u * u * u * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y3,
          );
        }
        break;
      }
      case 'Z':
        line(sx, sy);
        break;
    }
  }
  if (cx !== sx || cy !== sy) line(sx, sy);
  return Float64Array.from(segs);
}

/**
 * Coverage a pixel, 0-1, on SUB sub-scanlines a row, exact horizontally (for text drawn as designed). Summed in
 * float32, in the order of the scan lines and spans.
 */
function scanlineCoverage(
  scan: OutlineScan,
  grow: number,
  box: { left: number; top: number; width: number; height: number },
): Float32Array {
  const { left, top, width, height } = box;
  const acc = new Float32Array(width * height);
  const found = scan.found;
  for (let r = 0; r < height; r++) {
    for (let k = 0; k < SUB; k++) {
      const m = scan.spans('y', top + r + (k + 0.5) / SUB, grow);
      for (let s = 0; s < m; s += 2) {
        const xa = found[s]! - left;
        const xb = found[s + 1]! - left;
        const ia = Math.floor(xa);
        const ib = Math.floor(xb);
        const base = r * width;
        if (ia === ib) acc[base + ia]! += (xb - xa) / SUB;
        else {
          acc[base + ia]! += (ia + 1 - xa) / SUB;
          for (let i = ia + 1; i < ib; i++) acc[base + i]! += 1 / SUB;
          if (ib < width) acc[base + ib]! += (xb - ib) / SUB;
        }
      }
    }
  }
  return acc;
}

/**
 * The outline thresholded: coverage more than a half is ink (grid-fitted text gets dropout control afterwards:
 * its strokes can be thinner than a pixel).
 */
function rasterize(scan: OutlineScan, embolden: number): GlyphBitmap {
  const segs = scan.segs;
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < segs.length; i += 2) {
    minX = Math.min(minX, segs[i]!);
    maxX = Math.max(maxX, segs[i]!);
    minY = Math.min(minY, segs[i + 1]!);
    maxY = Math.max(maxY, segs[i + 1]!);
  }
  const grow = embolden / 2;
  const left = Math.floor(minX - grow);
  const top = Math.floor(minY);
  const width = Math.ceil(maxX + grow) - left + 1;
  const height = Math.ceil(maxY) - top + 1;
  const box = { left, top, width, height };
  const cover = new Uint8Array(width * height);
  const bits = new Uint8Array(width * height);
  const acc = scanlineCoverage(scan, grow, box);
  for (let i = 0; i < acc.length; i++) {
    cover[i] = Math.min(255, Math.round(acc[i]! * 255));
    // Strictly more than half: a whole-pixel stem half a pixel off the grid is its width, not one more.
    bits[i] = acc[i]! > 0.5 + 1e-6 ? 1 : 0;
  }
  return { left, top, width, height, bits, cover };
}

/** How far the bitmap is from sharp: the sum of c(1 - c) over its pixels (0 when every pixel is in or out). */
function blur(bm: GlyphBitmap): number {
  const cover = bm.cover;
  let sum = 0;
  for (let i = 0; i < cover.length; i++) sum += cover[i]! * (255 - cover[i]!);
  return sum;
}

/** Rasterizes a glyph outline, the pen at x = dx, y = 0 (the baseline). */
export function rasterizeGlyph(opts: RasterOptions): GlyphBitmap {
  const { commands, scale, dx, embolden, zones, stems: fit } = opts;
  const Y = yMap(scale, zones, fit ? { commands, fit } : undefined);
  const stems = zones && fit ? stemsOf(commands, fit.unitsPerEm, fit.stemUnits) : [];
  const X = (at: number): ((x: number) => number) => (fit ? stemMap(stems, scale, at, fit) : (x) => at + x * scale);
  const contours0: number[] = [];
  const segs0 = flatten(commands, X(dx), Y, contours0);
  if (segs0.length === 0) return EMPTY;
  if (!zones) {
    const scan = new OutlineScan(segs0);
    const bm = rasterize(scan, embolden);
    if (opts.dropout === true) dropoutControl({ scan, grow: embolden / 2, contours: contours0, bitmap: bm });
    return bm;
  }
  const grow = embolden / 2;
  let best: { bm: GlyphBitmap; scan: OutlineScan; contours: number[] } | null = null;
  let bestBlur = Infinity;
  // Fitted stems stand on pixel edges already: shifting the glyph would only round them elsewhere.
  for (const shift of stems.length > 0 ? [0] : SHIFTS) {
    const contours: number[] = shift === 0 ? contours0 : [];
    const scan = new OutlineScan(shift === 0 ? segs0 : flatten(commands, X(dx + shift), Y, contours));
    const bm = rasterize(scan, embolden);
    // Dropout control only raises pixels below half coverage to half, which never makes a bitmap sharper: a
    // shift already no sharper than the best without it cannot win, and is not finished.
    if (blur(bm) >= bestBlur - 1e-6) continue;
    dropoutControl({ scan, grow, contours, bitmap: bm });
    const b = blur(bm);
    if (b < bestBlur - 1e-6) {
      best = { bm, scan, contours };
      bestBlur = b;
    }
  }
  // Only the chosen shift's bitmap: the repair flips a few pixels, which would not change which shift is sharpest.
  keepCounters(best!.scan, best!.contours, best!.bm);
  return best!.bm;
}
