import type { GlyphBitmap } from './glyph-bitmap.js';
import type { OutlineScan } from './outline-scan.js';

/**
 * Counter preservation for grid-fitted glyphs (glyph-raster.ts): after thresholding and dropout control, the
 * bitmap's enclosed background regions must be the outline's holes, one for one. At 9-13 px a pixel of dropout or
 * a half-covered pixel can close an aperture (the condensed bold e reads as a blob), seal a crotch into a
 * one-pixel hole (the bold g), split a counter in two (the condensed bold a) or let a counter leak through a
 * notch (the condensed B). Zones, stem shifts and dropout control cannot see topology; this pass can.
 *
 * The outline's holes come from a fine sample grid of the un-emboldened outline (the design's topology, which
 * emboldening by a fraction of a pixel must not change). Each hole has a core: the pixel holding most of it.
 * Then the pixels nearest the threshold are flipped, cheapest first, one (or two) at a time, as long as each
 * step lowers the number of mismatches and leaves the number of ink pieces as it was, so a letter never splits,
 * loses a dot or gains a join. Deterministic: same bitmap and outline, same result (the glyph cache keeps it).
 */

/** Samples a pixel in x and in y when finding the outline's holes. */
const GRID = 8;
/** Holes of the outline smaller than this (samples, a quarter of a pixel) cannot show at this size: ignored. */
const MIN_HOLE = (GRID * GRID) / 4;
/**
 * Only pixels within this much coverage (of 255) of the threshold are flipped: a solid stem pixel or an empty
 * counter pixel is never touched, so stems keep their width.
 */
const MAX_FLIP = 48;
/** Pieces of the outline's ground smaller than this (samples, an eighth of a pixel) are slivers: not counted. */
const MIN_PART = GRID;
/** Pairs of flips are tried among this many of the cheapest pixels, when no single flip helps. */
const PAIRS_OF = 16;
/** Rounds of repair at most (each fixes at least one mismatch). */
const ROUNDS = 4;

/** Background labels from the outline: EXTERIOR, a hole's number (1...), SMALL (a hole too small to matter), INK. */
const EXTERIOR = 0;
const SMALL = -1;
const INK = -2;

interface Design {
  /** Per pixel: the outline's background region holding most of the pixel's background, or INK. */
  label: Int32Array;
  /** Per hole (index = number - 1): its core pixel. */
  cores: number[];
  /** Per pixel: the share of it (0-1) that the un-emboldened outline inks. */
  inked: Float32Array;
  /** The sample grid: 1 where the outline is ink; its width; and the pixel each sample lies in. */
  grid: Uint8Array;
  gw: number;
  /** Filled on first need (only a glyph that needs repair asks): see pixelsOf. */
  pixelOf: Int32Array | null;
}

interface Score {
  /** Holes and enclosed regions that do not match one for one. */
  topo: number;
  /** Background pixels on the wrong side: enclosed but outside the outline, or open but inside a hole. */
  stray: number;
  /** 8-connected pieces of ink. */
  pieces: number;
  /** Background regions that join what the outline keeps apart (one per extra part of the outline's ground). */
  split: number;
}

/**
 * Repairs the counters of a grid-fitted bitmap in place; `scan` is the flattened outline it was drawn from,
 * `contours` where each of its contours starts.
 */
export function keepCounters(scan: OutlineScan, contours: readonly number[], bm: GlyphBitmap): void {
  const { width, height, bits, cover } = bm;
  if (width < 3 || height < 3) return;
  // Most glyphs have no hole and show none: nothing to compare (the fine grid is the costly part).
  if (!components(bits, width, height, 0, false).regions.some((r) => !r.edge) && !mayHaveHoles(scan.segs, contours))
    return;
  const design = holesOf(scan, bm);
  let now = score(bits, width, height, design, false);
  if (now.topo === 0) return;
  now.split = splitOf(bits, components(bits, width, height, 0, false).id, design);
  const cost = (i: number): number => Math.abs(cover[i]! - 127.5);
  const candidates: number[] = [];
  // Ink is cleared only where the outline itself is mostly background (ink that emboldening, the threshold or
  // dropout added): a pixel of a stroke, however thin, is never cut through.
  for (let i = 0; i < bits.length; i++)
    if (cost(i) <= MAX_FLIP && (!bits[i] || design.inked[i]! < 0.5)) candidates.push(i);
  candidates.sort((a, b) => cost(a) - cost(b) || a - b);
  const flip = (flips: readonly number[]): void => {
    for (const i of flips) bits[i] = 1 - bits[i]!;
  };
  // The flips (of those offered) that lower the mismatches most without changing the pieces or joining what the
  // outline keeps apart; then the fewest stray pixels; then the cheapest.
  const pick = (offers: Iterable<number[]>): { flips: number[]; s: Score } | null => {
    let best: { flips: number[]; s: Score; cost: number } | null = null;
    for (const flips of offers) {
      flip(flips);
      const s = score(bits, width, height, design, true);
      flip(flips);
      if (s.pieces !== now.pieces || s.split > now.split || s.topo >= now.topo) continue;
      const c = flips.reduce((sum, i) => sum + cost(i), 0);
      if (
        !best ||
        s.topo < best.s.topo ||
        (s.topo === best.s.topo && (s.stray < best.s.stray || (s.stray === best.s.stray && c < best.cost)))
      )
        best = { flips, s, cost: c };
    }
    return best;
  };
  const few = candidates.slice(0, PAIRS_OF);
  const pairs = function* (): Generator<number[]> {
    for (let a = 0; a < few.length; a++) for (let b = a + 1; b < few.length; b++) yield [few[a]!, few[b]!];
  };
  for (let round = 0; round < ROUNDS && now.topo > 0; round++) {
    // A closed aperture or a leak usually takes one pixel; a counter filled in two at a time.
    const best = pick(candidates.map((i) => [i])) ?? pick(pairs());
    if (!best) return;
    flip(best.flips);
    for (const i of best.flips) cover[i] = bits[i] ? Math.max(128, cover[i]!) : Math.min(127, cover[i]!);
    now = best.s;
  }
}

/**
 * Whether the outline can have a hole: under non-zero winding, only if some contour winds the other way from the
 * largest (DejaVu's counters are contours drawn in reverse).
 */
function mayHaveHoles(segs: Float64Array, contours: readonly number[]): boolean {
  const areas = contours.map((from, k) => {
    let a = 0;
    for (let i = from; i < (contours[k + 1] ?? segs.length); i += 4)
      a += segs[i]! * segs[i + 3]! - segs[i + 2]! * segs[i + 1]!;
    return a;
  });
  const largest = areas.reduce((m, a) => (Math.abs(a) > Math.abs(m) ? a : m), 0);
  return areas.some((a) => a * largest < 0);
}

/** The outline's background regions on a GRID x GRID sample grid a pixel, summed up per pixel. */
function holesOf(scan: OutlineScan, bm: GlyphBitmap): Design {
  const { left, top, width, height } = bm;
  const gw = width * GRID;
  const gh = height * GRID;
  const region = new Int32Array(gw * gh).fill(INK);
  const ink = new Uint8Array(gw * gh);
  for (let r = 0; r < gh; r++) {
    const m = scan.spans('y', top + (r + 0.5) / GRID, 0);
    for (let s = 0; s < m; s += 2) {
      const from = Math.max(0, Math.ceil((scan.found[s]! - left) * GRID - 0.5));
      const to = Math.min(gw - 1, Math.floor((scan.found[s + 1]! - left) * GRID - 0.5));
      if (to >= from) ink.fill(1, r * gw + from, r * gw + to + 1);
    }
  }
  const found = components(ink, gw, gh, 0, false);
  let holes = 0;
  const number = found.regions.map((r) => (r.edge ? EXTERIOR : r.size < MIN_HOLE ? SMALL : ++holes));
  for (let i = 0; i < region.length; i++) if (!ink[i]) region[i] = number[found.id[i]!]!;
  // Per pixel: the region holding most of its background samples, and each hole's core.
  const label = new Int32Array(width * height).fill(INK);
  const inked = new Float32Array(width * height);
  const most = new Int32Array(holes);
  const cores = new Array<number>(holes).fill(-1);
  const counts = new Int32Array(holes + 2); // index: label - SMALL
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      counts.fill(0);
      for (let sy = 0; sy < GRID; sy++) {
        const base = (y * GRID + sy) * gw + x * GRID;
        for (let sx = 0; sx < GRID; sx++) {
          const l = region[base + sx]!;
          if (l !== INK) counts[l - SMALL]!++;
          else inked[y * width + x]! += 1 / (GRID * GRID);
        }
      }
      let bestCount = 0;
      for (let k = 0; k < counts.length; k++) {
        const n = counts[k]!;
        const l = k + SMALL;
        if (n > bestCount) {
          bestCount = n;
          label[y * width + x] = l;
        }
        if (l > 0 && n > most[l - 1]!) {
          most[l - 1] = n;
          cores[l - 1] = y * width + x;
        }
      }
    }
  }
  return { label, cores, inked, grid: ink, gw, pixelOf: null };
}

/**
 * Connected regions of the cells equal to `value` (ink 8-connected, ground 4-connected, as the eye and the
 * small-text test read them): each cell's region id, and each region's size and whether it touches the edge.
 */
function components(
  cells: Uint8Array,
  w: number,
  h: number,
  value: 0 | 1,
  diagonal: boolean,
): { id: Int32Array; regions: { size: number; edge: boolean }[] } {
  const id = new Int32Array(w * h).fill(-1);
  const regions: { size: number; edge: boolean }[] = [];
  const stack = new Int32Array(w * h);
  let top = 0;
  const visit = (k: number, n: number): void => {
    if (id[k] === -1 && cells[k] === value) {
      id[k] = n;
      stack[top++] = k;
    }
  };
  for (let start = 0; start < cells.length; start++) {
    if (id[start] !== -1 || cells[start] !== value) continue;
    const n = regions.length;
    const r = { size: 0, edge: false };
    regions.push(r);
    id[start] = n;
    stack[top++] = start;
    while (top > 0) {
      const j = stack[--top]!;
      r.size++;
      const x = j % w;
      const y = (j - x) / w;
      const left = x > 0;
      const right = x < w - 1;
      const up = y > 0;
      const down = y < h - 1;
      if (!left || !right || !up || !down) r.edge = true;
      if (left) visit(j - 1, n);
      if (right) visit(j + 1, n);
      if (up) visit(j - w, n);
      if (down) visit(j + w, n);
      if (diagonal) {
        if (left && up) visit(j - w - 1, n);
        if (right && up) visit(j - w + 1, n);
        if (left && down) visit(j + w - 1, n);
        if (right && down) visit(j + w + 1, n);
      }
    }
  }
  return { id, regions };
}

/** How far the bitmap's topology is from the outline's (`split` only when `withSplit`: it is the costly part). */
function score(bits: Uint8Array, width: number, height: number, design: Design, withSplit: boolean): Score {
  const ground = components(bits, width, height, 0, false);
  const pieces = components(bits, width, height, 1, true).regions.length;
  let topo = 0;
  const coresIn = new Int32Array(ground.regions.length);
  for (const core of design.cores) {
    const r = bits[core] ? -1 : ground.id[core]!;
    if (r < 0 || ground.regions[r]!.edge) topo++;
    else coresIn[r]!++;
  }
  // An enclosed region that holds only a hole too small to count is not a stray counter.
  const small = new Uint8Array(ground.regions.length);
  let stray = 0;
  for (let i = 0; i < bits.length; i++) {
    const r = ground.id[i]!;
    if (r < 0) continue;
    const l = design.label[i]!;
    if (l === SMALL) small[r] = 1;
    if (ground.regions[r]!.edge ? l > 0 : l === EXTERIOR) stray++;
  }
  ground.regions.forEach((r, k) => {
    if (!r.edge) topo += coresIn[k] === 0 ? (small[k] ? 0 : 1) : coresIn[k]! - 1;
  });
  return { topo, stray, pieces, split: withSplit ? splitOf(bits, ground.id, design) : 0 };
}

/**
 * How many more pieces the outline's ground has than the bitmap's background regions that hold them: the
 * outline's background samples under background pixels, 4-connected, against the regions they fall in. Opening an
 * aperture along the outline's own channel keeps this; cutting through a stroke (the ring of @) raises it.
 */
function splitOf(bits: Uint8Array, regionOf: Int32Array, design: Design): number {
  const { grid, gw } = design;
  const pixelOf = pixelsOf(design);
  const under = new Uint8Array(grid.length);
  for (let i = 0; i < grid.length; i++) under[i] = !grid[i] && !bits[pixelOf[i]!] ? 1 : 0;
  const parts = components(under, gw, grid.length / gw, 1, false);
  const counted = new Set<number>();
  const regions = new Set<number>();
  for (let i = 0; i < under.length; i++) {
    const p = parts.id[i]!;
    if (p < 0 || counted.has(p) || parts.regions[p]!.size < MIN_PART) continue;
    counted.add(p);
    regions.add(regionOf[pixelOf[i]!]!);
  }
  return counted.size - regions.size;
}

/** The pixel (its index in the bitmap) each sample of the design's grid lies in. */
function pixelsOf(design: Design): Int32Array {
  if (design.pixelOf) return design.pixelOf;
  const { grid, gw } = design;
  const width = gw / GRID;
  const pixelOf = new Int32Array(grid.length);
  for (let y = 0, i = 0; i < grid.length; y++)
    for (let x = 0; x < gw; x++, i++) pixelOf[i] = Math.floor(y / GRID) * width + Math.floor(x / GRID);
  design.pixelOf = pixelOf;
  return pixelOf;
}
