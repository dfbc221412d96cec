import type { GlyphBitmap } from './glyph-bitmap.js';
import type { OutlineScan } from './outline-scan.js';

/**
 * Dropout control for grid-fitted glyphs (glyph-raster.ts): strokes thinner than a pixel still get a pixel, so
 * letters never break apart and dots and hyphens never vanish.
 */

export interface DropoutInput {
  /** The flattened outline in px (x0, y0, x1, y1 a segment), indexed for scan lines. */
  scan: OutlineScan;
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
/** A span on a glyph's top or bottom row at least this wide (px) is a stroke's flat end, not a terminal's tip. */
const EDGE_SPAN_PX = 0.75;

export function dropoutControl({ scan, grow, contours, bitmap }: DropoutInput): void {
  const segs = scan.segs;
  const { left, top, width, height, bits, cover } = bitmap;
  // The spans of the rows' centre lines (r = -1..height), then the columns' (c = -1..width): line l's spans are
  // at[l]..at[l + 1] of `spans`.
  const lines = height + width + 4;
  const at = new Int32Array(lines + 1);
  let spans = new Float64Array(64);
  let n = 0;
  const add = (m: number): void => {
    if (n + m > spans.length) {
      const more = new Float64Array(Math.max(spans.length * 2, n + m));
      more.set(spans);
      spans = more;
    }
    spans.set(scan.found.subarray(0, m), n);
    n += m;
  };
  let l = 0;
  for (let r = -1; r <= height; r++) {
    add(scan.spans('y', top + r + 0.5, grow));
    at[++l] = n;
  }
  for (let c = -1; c <= width; c++) {
    // A column's centre line meets the grown outline where the plain one is within `grow` of it.
    add(scan.spans('x', left + c + 0.5, 0));
    if (grow > 0) {
      add(scan.spans('x', left + c + 0.5 - grow, 0));
      add(scan.spans('x', left + c + 0.5 + grow, 0));
    }
    at[++l] = n;
  }
  const crosses = (line: number, lo: number, hi: number): boolean => {
    for (let s = at[line]!; s < at[line + 1]!; s += 2) if (spans[s]! < hi && spans[s + 1]! > lo) return true;
    return false;
  };
  const mark = (col: number, rw: number): void => {
    if (col < 0 || col >= width || rw < 0 || rw >= height) return;
    bits[rw * width + col] = 1;
    cover[rw * width + col] = Math.max(128, cover[rw * width + col]!);
  };
  // The middles of the spans on a line that no ink pixel stands for: none of the pixels whose centres the span
  // holds is ink (or it holds no centre at all). Found for the whole line before any is marked.
  const mids: number[] = [];
  const widths: number[] = [];
  const dropouts = (line: number, origin: number, size: number, pixel: (i: number) => number): void => {
    mids.length = 0;
    widths.length = 0;
    for (let s = at[line]!; s < at[line + 1]!; s += 2) {
      let hit = false;
      for (let i = Math.ceil(spans[s]! - 0.5); i <= Math.floor(spans[s + 1]! - 0.5) && !hit; i++)
        hit = i - origin >= 0 && i - origin < size && bits[pixel(i - origin)] === 1;
      if (!hit) {
        mids.push((spans[s]! + spans[s + 1]!) / 2);
        widths.push(spans[s + 1]! - spans[s]!);
      }
    }
  };
  for (let r = 0; r < height; r++) {
    dropouts(r + 1, left, width, (i) => r * width + i);
    for (const [mid, wide] of mids.map((m, k) => [m, widths[k]! >= EDGE_SPAN_PX] as const)) {
      const x = Math.floor(mid);
      // The flat end of a stroke on the glyph's top or bottom row (the arms of w and v at the x-height, the foot
      // of a y) is no terminal's tip: it keeps its pixel, where a sliver of a terminal does not.
      const edge = wide && (r === 0 || r === height - 1);
      if (edge || (crosses(r, x - 1, x + 2) && crosses(r + 2, x - 1, x + 2))) mark(x - left, r);
    }
  }
  const col0 = height + 2;
  for (let c = 0; c < width; c++) {
    dropouts(col0 + c + 1, top, height, (i) => i * width + c);
    for (const mid of mids) {
      const y = Math.floor(mid);
      if (crosses(col0 + c, y - 1, y + 2) && crosses(col0 + c + 2, y - 1, y + 2)) mark(c, y - top);
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
