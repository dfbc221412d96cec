import type { PathCommand } from './ttf.js';

/**
 * Horizontal grid-fitting of a glyph's vertical stems (glyph-raster.ts), the x half of hinting: each stem (a pair
 * of vertical edges of the outline, straight or the vertical tangent of a round, as wide as the face's stems) is
 * moved so that, after emboldening, it covers exactly `weight` whole pixels, and the outline between and beside the
 * stems is stretched or shifted with them (piecewise linear, never folding over). Without it a glyph can only be
 * shifted as a whole, so the second stem of an n, h or m lands where it falls: 1 px or 2, or half-covered and
 * dropped at the baseline ("and" read "ard", "warm" "wam"). Pure arithmetic on the outline: the same on every
 * machine.
 */

export interface StemFit {
  /** The face's vertical stem width, font units: what a pair of edges must be about as wide as to be a stem. */
  stemUnits: number;
  /** The face's horizontal bar thickness (a hyphen's, an H's bar), font units, and whole px it covers once drawn. */
  barUnits: number;
  barWeight: number;
  /** How much further than its own inner edge a bar hung from a zone reaches, a share of its thickness (barMap). */
  flatten: number;
  /** Whole px a stem covers once drawn: one weight for a face across neighbouring sizes (fonts.ts). */
  weight: number;
  /** How far emboldening grows each side of a stem, px (the fitted edges stand this far inside the pixels). */
  grow: number;
}

/**
 * A straight edge of the outline along an axis, font units: where it is across (`x`: its x for a vertical edge,
 * its y for a horizontal one), whether it is the low side of its stroke (`up`: the left of a stem, where the
 * outline runs up; the bottom of a bar, where it runs left), and its extent along.
 */
interface Edge {
  x: number;
  up: boolean;
  y0: number;
  y1: number;
}

/** Pairs of edges this much narrower or wider than the face's stem are not stems (bars' ends, counters). */
const MIN_STEM = 0.5;
const MAX_STEM = 1.7;
/** Edges lean at most this share of their height (or a round's tangent points lie this close), font units per em. */
const TOLERANCE_EM = 0.01;

/** The points of each contour: on-curve or control, in order. */
function contoursOf(commands: readonly PathCommand[]): { x: number; y: number; on: boolean }[][] {
  const out: { x: number; y: number; on: boolean }[][] = [];
  let cur: { x: number; y: number; on: boolean }[] = [];
  for (const c of commands) {
    if (c.type === 'M') {
      if (cur.length) out.push(cur);
      cur = [{ x: c.x, y: c.y, on: true }];
    } else if (c.type === 'L') cur.push({ x: c.x, y: c.y, on: true });
    else if (c.type === 'Q') cur.push({ x: c.x1, y: c.y1, on: false }, { x: c.x, y: c.y, on: true });
    else if (c.type === 'C')
      cur.push({ x: c.x1, y: c.y1, on: false }, { x: c.x2, y: c.y2, on: false }, { x: c.x, y: c.y, on: true });
  }
  if (cur.length) out.push(cur);
  for (const pts of out) {
    const [a, z] = [pts[0]!, pts[pts.length - 1]!];
    if (pts.length > 1 && a.x === z.x && a.y === z.y) pts.pop();
  }
  return out;
}

function edgesOf(commands: readonly PathCommand[], tol: number, axis: 'x' | 'y'): Edge[] {
  const edges: Edge[] = [];
  for (const raw of contoursOf(commands)) {
    // Horizontal edges are vertical ones of the outline turned a quarter (x' = y, y' = -x), which keeps the turn.
    const pts = axis === 'x' ? raw : raw.map((p) => ({ x: p.y, y: -p.x, on: p.on }));
    const n = pts.length;
    for (let i = 0; i < n; i++) {
      const p = pts[i]!;
      const q = pts[(i + 1) % n]!;
      const before = pts[(i + n - 1) % n]!;
      // A straight edge: two on-curve points one above the other.
      if (p.on && q.on && Math.abs(q.x - p.x) <= tol && Math.abs(q.y - p.y) > 4 * tol) {
        edges.push({ x: (p.x + q.x) / 2, up: q.y > p.y, y0: Math.min(p.y, q.y), y1: Math.max(p.y, q.y) });
      }
      // A round's vertical tangent: an on-curve point between two controls straight above and below it.
      if (
        p.on &&
        !before.on &&
        !q.on &&
        Math.abs(before.x - p.x) <= tol &&
        Math.abs(q.x - p.x) <= tol &&
        q.y !== before.y
      ) {
        edges.push({ x: p.x, up: q.y > before.y, y0: Math.min(before.y, q.y), y1: Math.max(before.y, q.y) });
      }
    }
  }
  return edges;
}

/**
 * The stems of an outline, font units, left to right: an upward edge (the left of a stem: TrueType's outer
 * contours run clockwise) with the nearest downward edge to its right about a stem's width away that shares some
 * of its height. Stems that overlap one already found (the dot of an i over its stem) are left to follow it.
 */
export function stemsOf(
  commands: readonly PathCommand[],
  unitsPerEm: number,
  stemUnits: number,
  axis: 'x' | 'y' = 'x',
): [number, number][] {
  const tol = TOLERANCE_EM * unitsPerEm;
  const edges = edgesOf(commands, tol, axis);
  const found: [number, number][] = [];
  for (const u of edges) {
    if (!u.up) continue;
    let best: Edge | null = null;
    for (const d of edges) {
      const w = d.x - u.x;
      if (d.up || w < MIN_STEM * stemUnits || w > MAX_STEM * stemUnits) continue;
      if (d.y1 < u.y0 - stemUnits || d.y0 > u.y1 + stemUnits) continue;
      if (!best || d.x < best.x) best = d;
    }
    if (best) found.push([u.x, best.x]);
  }
  found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const stems: [number, number][] = [];
  for (const s of found) {
    const last = stems[stems.length - 1];
    if (!last || s[0] >= last[1]) stems.push(s);
  }
  return stems;
}

/**
 * The map from font units to px (pen at `dx`) that puts each stem on whole pixels, `weight` wide once grown by
 * `grow` a side: control points at the stems' edges, linear between them, a shift beyond them. A stem keeps at
 * least a pixel of ground from the one before it (the counter of an n or m never closes).
 */
export function stemMap(
  stems: readonly [number, number][],
  scale: number,
  dx: number,
  fit: StemFit,
): (x: number) => number {
  if (stems.length === 0) return (x) => dx + x * scale;
  const from: number[] = [];
  const to: number[] = [];
  let right = -Infinity;
  let before = 0;
  for (const [l, r] of stems) {
    const centre = dx + ((l + r) / 2) * scale;
    // The first stem's centre rounded, each next one the design's distance from the one before rounded: the
    // counters of an m are one width, where rounding each centre made them 3 and 4 px.
    const at = right === -Infinity ? centre - fit.weight / 2 : right - fit.weight + (centre - before);
    const left = Math.max(Math.round(at), right + 1);
    right = left + fit.weight;
    before = centre;
    from.push(dx + l * scale, dx + r * scale);
    to.push(left + fit.grow, right - fit.grow);
  }
  const last = from.length - 1;
  return (x) => {
    const u = dx + x * scale;
    if (u <= from[0]!) return u + to[0]! - from[0]!;
    if (u >= from[last]!) return u + to[last]! - from[last]!;
    let i = 1;
    while (from[i]! < u) i++;
    const span = from[i]! - from[i - 1]!;
    return span > 0 ? to[i - 1]! + ((u - from[i - 1]!) * (to[i]! - to[i - 1]!)) / span : to[i]!;
  };
}

/** Bar edges this close to a zone (font units, a share of the bar's thickness: the overshoot of o and e) sit on it. */
const NEAR_ZONE = 0.35;

/**
 * The map from font units to px (y down) that puts the baseline, x-height and cap-height on whole pixels (`zone`
 * gives each zone's px) and each horizontal bar on `barWeight` whole rows: a bar at a zone (the top of an o or n,
 * the bar of an f or t) is hung from it, one between zones (a hyphen, the bar of e or H) is centred on its nearest
 * rows. Thinning such a bar as drawn (0.9 px at 12 px) left it under half of every pixel, and dropout control gave
 * it only its middle pixel: hyphens became dots, and f and t lost their bars ("f" read "l").
 */
export function barMap(
  bars: readonly [number, number][],
  zones: readonly [number, number][],
  scale: number,
  fit: StemFit,
): (y: number) => number {
  const points: [number, number][] = [...zones];
  const zoned = (y: number): number => {
    let i = 1;
    while (i < zones.length - 1 && zones[i]![0] < y) i++;
    const [a, pa] = zones[i - 1]!;
    const [b, pb] = zones[i]!;
    return y <= a ? pa - (y - a) * scale : y >= b ? pb - (y - b) * scale : pa + ((y - a) * (pb - pa)) / (b - a);
  };
  const near = (y: number): [number, number] | undefined =>
    zones.find(([z]) => Math.abs(y - z) <= NEAR_ZONE * fit.barUnits);
  const w = fit.barWeight;
  // Bottom to top; `below` is the lowest row (px, y down) this bar must stay above (the last bar or zone under
  // it that the design keeps apart from it: the dot of an i from its stem, the bars of = from each other).
  const apart = NEAR_ZONE * fit.barUnits;
  const sorted = [...bars].sort((p, q) => p[0] - q[0]);
  const placed: [number, number][] = [];
  for (const [b, t] of sorted) {
    const top = near(t);
    const bottom = near(b);
    let T: number;
    if (top) T = top[1];
    else if (bottom) T = bottom[1] - w;
    else T = Math.round((zoned(b) + zoned(t)) / 2 - w / 2);
    if (!bottom) {
      const under = [...zones.filter(([z]) => z < b - apart), ...placed.filter(([z]) => z < b - apart)];
      const below = Math.min(Infinity, ...under.map(([, px]) => px));
      if (T + w > below - 1) T = below - 1 - w;
    }
    // A bar hung from a zone takes in a little more of the outline on its inner side (`flatten` of its thickness):
    // the shoulders of an arch or a bowl then fill its row out to the stems, as the flat tops of n and m and
    // bottoms of a and d of hinted 1-bit text do, where a thinner row left a notch ("n" read "ri").
    const inner = fit.flatten * fit.barUnits;
    if (top) points.push([t, T], [b - inner, T + w]);
    else if (bottom) points.push([t + inner, T], [b, T + w]);
    else points.push([t, T], [b, T + w]);
    placed.push([t, T]);
  }
  // Ascending in font units, descending in px (an overshoot below the baseline or above the x-height, hung from
  // the zone, flattens onto it); a point that would fold the outline is left out.
  points.sort((p, q) => p[0] - q[0]);
  const kept: [number, number][] = [];
  for (const p of points) {
    const last = kept[kept.length - 1];
    if (!last || (p[0] > last[0] && p[1] <= last[1])) kept.push(p);
    else if (p[0] === last[0] && zones.some(([z]) => z === p[0])) kept[kept.length - 1] = p;
  }
  const n = kept.length - 1;
  return (y) => {
    if (y <= kept[0]![0]) return kept[0]![1] - (y - kept[0]![0]) * scale;
    if (y >= kept[n]![0]) return kept[n]![1] - (y - kept[n]![0]) * scale;
    let i = 1;
    while (kept[i]![0] < y) i++;
    const [a, pa] = kept[i - 1]!;
    const [b, pb] = kept[i]!;
    return pa + ((y - a) * (pb - pa)) / (b - a);
  };
}
