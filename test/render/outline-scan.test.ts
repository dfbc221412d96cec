import { describe, expect, it } from 'vitest';
import { OutlineScan, type ScanAxis } from '../../src/render/text/outline-scan.js';

/** The plain scan: every segment of the outline looked at for every line (what the band index must equal). */
function allSegmentSpans(segs: Float64Array, axis: ScanAxis, at: number, grow: number): number[] {
  const a = axis === 'y' ? 1 : 0;
  const b = 1 - a;
  const hits: [number, number][] = [];
  for (let i = 0; i < segs.length; i += 4) {
    const p0 = segs[i + a]!;
    const p1 = segs[i + 2 + a]!;
    if ((p0 <= at && at < p1) || (p1 <= at && at < p0)) {
      const q0 = segs[i + b]!;
      hits.push([q0 + ((at - p0) * (segs[i + 2 + b]! - q0)) / (p1 - p0), p1 > p0 ? 1 : -1]);
    }
  }
  const out: number[] = [];
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

/** Closed polygons with a seeded generator: some contours reversed (holes), points on and off the pixel grid. */
function polygons(seed: number): Float64Array {
  let s = seed;
  const rand = (): number => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  const segs: number[] = [];
  for (let c = 0; c < 3; c++) {
    const n = 3 + Math.floor(rand() * 12);
    const pts: [number, number][] = [];
    for (let k = 0; k < n; k++) {
      // A quarter of the points on whole or half pixels: lines through vertices and along edges.
      const snap = rand() < 0.25;
      const x = -5 + rand() * 30;
      const y = -20 + rand() * 30;
      pts.push(snap ? [Math.round(x * 2) / 2, Math.round(y * 2) / 2] : [x, y]);
    }
    if (rand() < 0.4) pts.reverse();
    for (let k = 0; k < n; k++) segs.push(...pts[k]!, ...pts[(k + 1) % n]!);
  }
  return Float64Array.from(segs);
}

describe('OutlineScan', () => {
  it('finds the same spans, to the bit, as a scan of every segment', () => {
    let lines = 0;
    let withInk = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const segs = polygons(seed);
      const scan = new OutlineScan(segs);
      for (const axis of ['x', 'y'] as const) {
        for (let at = -22; at <= 27; at += 0.125) {
          for (const grow of [0, 0.3]) {
            const n = scan.spans(axis, at, grow);
            const got = Array.from(scan.found.subarray(0, n));
            expect(got).toEqual(allSegmentSpans(segs, axis, at, grow));
            lines++;
            if (n > 0) withInk++;
          }
        }
      }
    }
    // The lines cross ink often enough for the comparison to mean something.
    expect(withInk).toBeGreaterThan(lines / 3);
  });

  it('finds nothing on lines outside the outline, and nothing for an empty one', () => {
    const scan = new OutlineScan(Float64Array.from([0, 0, 10, 0, 10, 0, 10, 10, 10, 10, 0, 10, 0, 10, 0, 0]));
    expect(scan.spans('y', 5, 0)).toBe(2);
    expect(Array.from(scan.found.subarray(0, 2))).toEqual([0, 10]);
    expect(scan.spans('y', -0.5, 0)).toBe(0);
    expect(scan.spans('y', 10, 0)).toBe(0);
    expect(scan.spans('x', 11, 0)).toBe(0);
    expect(new OutlineScan(new Float64Array(0)).spans('y', 0, 0)).toBe(0);
  });
});
