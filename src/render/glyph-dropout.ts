import type { GlyphBitmap } from './glyph-raster.js';

/**
 * Where scan lines cross a flattened glyph outline, and dropout control for grid-fitted glyphs (glyph-raster.ts):
 * strokes thinner than a pixel, or thinned away, still get a pixel, so letters never break apart and dots and
 * hyphens never vanish.
 */

/**
 * The inked spans (non-zero winding) where the line `axis` = `at` crosses the outline, merged and sorted, each
 * grown by `grow` at both ends. axis 'y': a horizontal line, spans in x; 'x': a vertical line, spans in y.
 */
export function spans(segs: Float64Array, axis: 'x' | 'y', at: number, grow: number, out: number[]): number[] {
  const a = axis === 'y' ? 1 : 0; // the coordinate compared with `at`
  const b = 1 - a; // the coordinate along the line
  const hits: [number, number][] = [];
  for (let i = 0; i < segs.length; i += 4) {
    const p0 = segs[i + a]!;
    const p1 = segs[i + 2 + a]!;
    if ((p0 <= at && at < p1) || (p1 <= at && at < p0)) {
      const q0 = segs[i + b]!;
      hits.push([q0 + ((at - p0) * (segs[i + 2 + b]! - q0)) / (p1 - p0), p1 > p0 ? 1 : -1]);
    }
  }
  out.length = 0;
  if (hits.length < 2) return out;
  hits.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  let winding = 0;
  let start = 0;
  for (const [pos, dir] of hits) {
    const before = winding;
    winding += dir;
    if (before === 0 && winding !== 0) start = pos - grow;
    else if (before !== 0 && winding === 0) {
      const end = pos + grow;
      const n = out.length;
      if (n > 0 && out[n - 1]! >= start) out[n - 1] = Math.max(out[n - 1]!, end);
      else out.push(start, end);
    }
  }
  return out;
}

export interface DropoutInput {
  /** The flattened outline in px: x0, y0, x1, y1 a segment. */
  segs: Float64Array;
  /** How far stems were thickened at each side, px. */
  grow: number;
  /** Where each contour starts in `segs`. */
  contours: readonly number[];
  /** The thresholded glyph: pixels are added to `bits` (and `cover`, at least half) in place. */
  bitmap: GlyphBitmap;
}

/**
 * A span that no ink pixel stands for (it holds no pixel centre, or none of the pixels whose centres it holds is
 * ink) gets the pixel at its middle, unless it is a stub: the stroke does not go on across both neighbouring
 * lines (the tip of a terminal or a round, where an extra pixel would close an aperture, as in e, or join a tail
 * to its bowl, as in g). Rows, then columns; then a contour left with no ink at all is rescued.
 */
export function dropoutControl({ segs, grow, contours, bitmap }: DropoutInput): void {
  const { left, top, width, height, bits, cover } = bitmap;
  const row: number[] = [];
  const rowSpans: number[][] = [];
  for (let r = -1; r <= height; r++) rowSpans.push([...spans(segs, 'y', top + r + 0.5, grow, row)]);
  const colSpans: number[][] = [];
  for (let c = -1; c <= width; c++) {
    // A column's centre line meets the grown outline where the plain one is within `grow` of it.
    const all: number[] = [];
    for (const off of grow > 0 ? [0, -grow, grow] : [0]) all.push(...spans(segs, 'x', left + c + 0.5 + off, 0, row));
    colSpans.push(all);
  }
  const crosses = (list: readonly number[], lo: number, hi: number): boolean => {
    for (let s = 0; s < list.length; s += 2) if (list[s]! < hi && list[s + 1]! > lo) return true;
    return false;
  };
  // The middles of the spans on a line that no ink pixel stands for: none of the pixels whose centres the span
  // holds is ink (or it holds no centre at all).
  const dropout = (list: readonly number[], origin: number, inked: (i: number) => boolean): number[] => {
    const mids: number[] = [];
    for (let s = 0; s < list.length; s += 2) {
      let hit = false;
      for (let i = Math.ceil(list[s]! - 0.5); i <= Math.floor(list[s + 1]! - 0.5) && !hit; i++) hit = inked(i - origin);
      if (!hit) mids.push((list[s]! + list[s + 1]!) / 2);
    }
    return mids;
  };
  const mark = (col: number, rw: number): void => {
    if (col < 0 || col >= width || rw < 0 || rw >= height) return;
    bits[rw * width + col] = 1;
    cover[rw * width + col] = Math.max(128, cover[rw * width + col]!);
  };
  for (let r = 0; r < height; r++) {
    const inked = (i: number): boolean => i >= 0 && i < width && bits[r * width + i] === 1;
    for (const mid of dropout(rowSpans[r + 1]!, left, inked)) {
      const x = Math.floor(mid);
      if (crosses(rowSpans[r]!, x - 1, x + 2) && crosses(rowSpans[r + 2]!, x - 1, x + 2)) mark(x - left, r);
    }
  }
  for (let c = 0; c < width; c++) {
    const inked = (i: number): boolean => i >= 0 && i < height && bits[i * width + c] === 1;
    for (const mid of dropout(colSpans[c + 1]!, top, inked)) {
      const y = Math.floor(mid);
      if (crosses(colSpans[c]!, y - 1, y + 2) && crosses(colSpans[c + 2]!, y - 1, y + 2)) mark(c, y - top);
    }
  }
  for (let k = 0; k < contours.length; k++) rescue(segs.subarray(contours[k], contours[k + 1] ?? segs.length), bitmap);
}

/**
 * A contour with no ink pixel at all (a dot or a hyphen small enough that no rule above kept it) gets the
 * pixels of its most covered row (or column, when it is taller than wide) that are at least half as covered as
 * the best.
 */
function rescue(seg: Float64Array, bm: GlyphBitmap): void {
  if (seg.length === 0) return;
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < seg.length; i += 2) {
    minX = Math.min(minX, seg[i]!);
    maxX = Math.max(maxX, seg[i]!);
    minY = Math.min(minY, seg[i + 1]!);
    maxY = Math.max(maxY, seg[i + 1]!);
  }
  const x0 = Math.max(0, Math.floor(minX) - bm.left);
  const x1 = Math.min(bm.width - 1, Math.ceil(maxX) - 1 - bm.left);
  const y0 = Math.max(0, Math.floor(minY) - bm.top);
  const y1 = Math.min(bm.height - 1, Math.ceil(maxY) - 1 - bm.top);
  let best = 0;
  const rows = new Float64Array(y1 - y0 + 1);
  const cols = new Float64Array(x1 - x0 + 1);
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const i = y * bm.width + x;
      if (bm.bits[i]) return;
      best = Math.max(best, bm.cover[i]!);
      rows[y - y0]! += bm.cover[i]!;
      cols[x - x0]! += bm.cover[i]!;
    }
  }
  if (best === 0) return;
  const wide = maxX - minX >= maxY - minY;
  const line = wide ? rows : cols;
  const at = line.indexOf(Math.max(...line));
  for (let k = wide ? x0 : y0; k <= (wide ? x1 : y1); k++) {
    const i = wide ? (y0 + at) * bm.width + k : k * bm.width + x0 + at;
    if (bm.cover[i]! * 2 >= best) {
      bm.bits[i] = 1;
      bm.cover[i] = Math.max(128, bm.cover[i]!);
    }
  }
}
