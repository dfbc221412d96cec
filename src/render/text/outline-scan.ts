/**
 * Where scan lines cross a flattened glyph outline (x0, y0, x1, y1 a segment, px): the one question the glyph
 * rasterizer (glyph-raster.ts), dropout control (glyph-dropout.ts) and counter repair (keep-counters.ts) ask, a
 * few thousand times a glyph. The segments are indexed by the pixel rows (and columns) they cross, so a line
 * looks at the few segments near it instead of the whole outline; which segments cross it, and where, is computed
 * exactly as a scan of the whole outline would, so the spans are the same to the bit.
 */

export type ScanAxis = 'x' | 'y';

/**
 * Segments by the 1 px band of the compared coordinate they reach into: band b's segments (their indices in
 * `segs`) are items[starts[b]..starts[b + 1]].
 */
interface BandIndex {
  origin: number;
  starts: Int32Array;
  items: Int32Array;
}

/** Scratch for one line's crossings, shared by all scans (grown to the largest outline seen). */
let hitPos = new Float64Array(64);
let hitDir = new Int8Array(64);

export class OutlineScan {
  /** The spans found by the last `spans` call: start, end, start, end... (as many as it returned). */
  readonly found: Float64Array;
  private readonly bands: { x: BandIndex | null; y: BandIndex | null } = { x: null, y: null };

  constructor(readonly segs: Float64Array) {
    // A line crosses each segment at most once and a span takes two crossings.
    this.found = new Float64Array(segs.length / 4 + 2);
    if (hitPos.length < segs.length / 4) {
      hitPos = new Float64Array(segs.length / 4);
      hitDir = new Int8Array(segs.length / 4);
    }
  }

  /**
   * The inked spans (non-zero winding) where the line `axis` = `at` crosses the outline, merged and sorted, each
   * grown by `grow` at both ends, into `found`; returns how many numbers (twice the spans) it holds. axis 'y': a
   * horizontal line, spans in x; 'x': a vertical line, spans in y.
   */
  spans(axis: ScanAxis, at: number, grow: number): number {
    const index = this.bandsOf(axis);
    const band = Math.floor(at - index.origin);
    if (band < 0 || band >= index.starts.length - 1) return 0;
    const segs = this.segs;
    const a = axis === 'y' ? 1 : 0; // the coordinate compared with `at`
    const b = 1 - a; // the coordinate along the line
    let n = 0;
    for (let k = index.starts[band]!, end = index.starts[band + 1]!; k < end; k++) {
      const i = index.items[k]!;
      const p0 = segs[i + a]!;
      const p1 = segs[i + 2 + a]!;
      if ((p0 <= at && at < p1) || (p1 <= at && at < p0)) {
        const q0 = segs[i + b]!;
        const pos = q0 + ((at - p0) * (segs[i + 2 + b]! - q0)) / (p1 - p0);
        const dir = p1 > p0 ? 1 : -1;
        // Insertion sort by position, then direction (a handful of crossings).
        let j = n++;
        while (j > 0 && (hitPos[j - 1]! > pos || (hitPos[j - 1] === pos && hitDir[j - 1]! > dir))) {
          hitPos[j] = hitPos[j - 1]!;
          hitDir[j] = hitDir[j - 1]!;
          j--;
        }
        hitPos[j] = pos;
        hitDir[j] = dir;
      }
    }
    if (n < 2) return 0;
    const out = this.found;
    let m = 0;
    let winding = 0;
    let start = 0;
    for (let h = 0; h < n; h++) {
      const pos = hitPos[h]!;
      const before = winding;
      winding += hitDir[h]!;
      if (before === 0 && winding !== 0) start = pos - grow;
      else if (before !== 0 && winding === 0) {
        const end = pos + grow;
        if (m > 0 && out[m - 1]! >= start) out[m - 1] = Math.max(out[m - 1]!, end);
        else {
          out[m++] = start;
          out[m++] = end;
        }
      }
    }
    return m;
  }

  private bandsOf(axis: ScanAxis): BandIndex {
    const have = this.bands[axis];
    if (have) return have;
    const made = bandIndex(this.segs, axis === 'y' ? 1 : 0);
    this.bands[axis] = made;
    return made;
  }
}

/**
 * Each segment goes into the bands from its low end's to its high end's. A line at `at` crosses a segment only
 * if low <= at < high, and subtracting the same origin keeps that order (rounding is monotonic), so the line's
 * band always lists the segment. Segments along the line (low = high) never cross it and are left out.
 */
function bandIndex(segs: Float64Array, a: number): BandIndex {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < segs.length; i += 2) {
    const v = segs[i + a]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (segs.length === 0) return { origin: 0, starts: new Int32Array(1), items: new Int32Array(0) };
  const origin = Math.floor(min);
  const bands = Math.floor(max - origin) + 1;
  const starts = new Int32Array(bands + 1);
  const range = (i: number): [number, number] => {
    const p0 = segs[i + a]!;
    const p1 = segs[i + 2 + a]!;
    return p0 < p1
      ? [Math.floor(p0 - origin), Math.floor(p1 - origin)]
      : [Math.floor(p1 - origin), Math.floor(p0 - origin)];
  };
  for (let i = 0; i < segs.length; i += 4) {
    if (segs[i + a] === segs[i + 2 + a]) continue;
    const [lo, hi] = range(i);
    for (let band = lo; band <= hi; band++) starts[band + 1]!++;
  }
  for (let band = 0; band < bands; band++) starts[band + 1]! += starts[band]!;
  const fill = starts.slice(0, bands);
  const items = new Int32Array(starts[bands]!);
  for (let i = 0; i < segs.length; i += 4) {
    if (segs[i + a] === segs[i + 2 + a]) continue;
    const [lo, hi] = range(i);
    for (let band = lo; band <= hi; band++) items[fill[band]!++] = i;
  }
  return { origin, starts, items };
}
