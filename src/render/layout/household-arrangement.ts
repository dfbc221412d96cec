import type { PersonContent } from './content.js';
import { oldFrameThickness } from './mark-old.js';
import { cellKey, chooseCell, KEY_WHOLE, type PersonCellOptions } from './person-plan.js';
import type { Surface } from '../draw/surface.js';
import type { WideGeometry } from './wide-geometry.js';

/**
 * Where each person of a household frame goes (layout-household.ts draws them): side by side on a landscape frame;
 * on a portrait one stacked, their name beside their garments, for one or two; for three or four, two columns of two
 * rows, as a landscape frame's columns, the third of three across the foot.
 *
 * Columns, rows and cells need not be alike: where one person needs more room than another (a long
 * outfit beside a short one, a short one across the foot), the rows share the height, and each row its width, by what
 * every person's cell then shows (person-plan.ts's priorities, summed over the people); four stacked rows are tried
 * too. Where everyone's outfit is whole on the even split, or no other split shows more, the even split is kept.
 */

export interface Area {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One way to place the people: each one's box (in the people's order), and the rules between them. */
export interface Arrangement {
  cells: { box: Area; inline: boolean }[];
  dividers: Area[];
}

/** The shares of a portrait frame's split: the first row's of the height, and each row's first column's of the width. */
interface Split {
  row: number;
  top: number;
  bottom: number;
}

/** The shares tried for each part of a split, the even one first (a share is kept only where it shows more). */
const ROW_SHARES = [0.5, 0.45, 0.55, 0.4, 0.6, 0.35, 0.65, 0.3, 0.7];
const COLUMN_SHARES = [0.5, 0.45, 0.55, 0.4, 0.6];

const px = (b: Area): Area => ({ x: Math.round(b.x), y: Math.round(b.y), w: Math.floor(b.w), h: Math.floor(b.h) });

/** n people side by side, each a column as wide as its weight's share (one person alone: their name beside their garments). */
function columns(n: number, a: Area, half: number, weights: readonly number[] = Array(n).fill(1)): Arrangement {
  const room = a.w - (n - 1) * 2 * half;
  const total = weights.reduce((t, w) => t + w, 0);
  const cells: Arrangement['cells'] = [];
  const dividers: Area[] = [];
  let x = a.x;
  for (const weight of weights) {
    const w = (room * weight) / total;
    cells.push({ box: px({ ...a, x, w }), inline: n === 1 });
    x += w + 2 * half;
    if (cells.length < n) dividers.push({ x: x - half, y: a.y, w: 0, h: a.h });
  }
  return { cells, dividers };
}

/** n people one under the other, the first row `share` of the height (even for three or four). */
function stacked(n: number, a: Area, half: number, share: number): Arrangement {
  const room = a.h - (n - 1) * 2 * half;
  const heights = n === 2 ? [room * share, room * (1 - share)] : Array.from({ length: n }, () => room / n);
  const cells: Arrangement['cells'] = [];
  const dividers: Area[] = [];
  let y = a.y;
  for (const h of heights) {
    cells.push({ box: px({ x: a.x, y, w: a.w, h }), inline: true });
    y += h + 2 * half;
    if (cells.length < n) dividers.push({ x: a.x, y: y - half, w: a.w, h: 0 });
  }
  return { cells, dividers };
}

/** Three or four people in two rows as `s` splits them: two columns each, the third of three across the foot. */
function grid(n: 3 | 4, a: Area, half: number, s: Split): Arrangement {
  const room = a.h - 2 * half;
  const rows = [
    { y: a.y, h: room * s.row, share: s.top },
    { y: a.y + room * s.row + 2 * half, h: room * (1 - s.row), share: s.bottom },
  ];
  const width = a.w - 2 * half;
  const cells = Array.from({ length: n }, (_, i) => {
    const r = rows[Math.floor(i / 2)]!;
    if (n === 3 && i === 2) return { box: px({ x: a.x, y: r.y, w: a.w, h: r.h }), inline: true };
    const left = width * r.share;
    const box = i % 2 === 0 ? { x: a.x, w: left } : { x: a.x + left + 2 * half, w: width - left };
    return { box: px({ ...box, y: r.y, h: r.h }), inline: false };
  });
  const upright = (r: (typeof rows)[number]): Area => ({ x: a.x + width * r.share + half, y: r.y, w: 0, h: r.h });
  return {
    cells,
    dividers: [
      { x: a.x, y: a.y + room * s.row + half, w: a.w, h: 0 },
      upright(rows[0]!),
      ...(n === 4 ? [upright(rows[1]!)] : []),
    ],
  };
}

/** The box inside a person's cell their plan has: inside the dashes of an old answer (person-cell.ts draws them). */
export function innerBox(sf: Surface, p: PersonContent, box: Area): Area {
  if (!p.content.old) return box;
  // Twice the frame's margin and a little: beside a narrow column's lines a dash close by reads as a letter ("I").
  const t = oldFrameThickness(sf) + 2 * sf.scale.margin + Math.round(2 * sf.unit);
  return { x: box.x + t, y: box.y + t, w: box.w - 2 * t, h: box.h - 2 * t };
}

/**
 * The people's cells as each arrangement tried places them: each cell planned once by its person and size (a split
 * that moves one row leaves the other row's cells as they were).
 */
interface CellTriesOptions {
  sf: Surface;
  /** The people, in the household's order (a cell's index is its person's). */
  people: readonly PersonContent[];
  /** The sizes every cell has. */
  cell: PersonCellOptions;
}

class CellTries {
  readonly #keys = new Map<string, number[]>();
  readonly #o: CellTriesOptions;

  constructor(o: CellTriesOptions) {
    this.#o = o;
  }

  /** Each person's cellKey in `arr`, and their outfit's size after it. */
  keysOf(arr: Arrangement): number[][] {
    const { sf, people, cell: o } = this.#o;
    return arr.cells.map((cell, i) => {
      const p = people[i]!;
      const b = cell.box;
      const id = `${i} ${b.w} ${b.h} ${cell.inline}`;
      let key = this.#keys.get(id);
      if (!key) {
        const plan = chooseCell(sf, p, innerBox(sf, p, b), { ...o, inline: cell.inline });
        key = [...cellKey(sf, p, plan), plan.fit?.lead.size ?? Infinity];
        this.#keys.set(id, key);
      }
      return key;
    });
  }

  /**
   * What `arr` shows, person-plan.ts's priorities summed over the people (larger is better, in order), then the
   * smallest of their outfits' sizes: of two that show as much, the room left over evened out, not given to one
   * outfit to grow.
   */
  score(arr: Arrangement): number[] {
    const all = this.keysOf(arr);
    const sum = all[0]!.map((_, k) => all.reduce((t, key) => t + key[k]!, 0));
    sum[sum.length - 1] = Math.min(...all.map((key) => key.at(-1)!));
    return sum;
  }
}

const better = (x: readonly number[], y: readonly number[]): boolean => {
  const i = x.findIndex((v, k) => v !== y[k]);
  return i >= 0 && x[i]! > y[i]!;
};

/**
 * The arrangement whose people's cells show the most by person-plan.ts's priorities: on a portrait frame each share
 * of the split in turn, the others held (twice round), then four stacked rows; the even split where none is better.
 */
export interface ArrangeOptions {
  /** The frame's layout: columns lying, rows upright. */
  layout: WideGeometry['layout'];
  /** The people, in the household's order. */
  people: readonly PersonContent[];
  /** The room below the weather that they share. */
  area: Area;
  /** Half the gap between two cells (a rule in its middle), px. */
  half: number;
  /** The sizes every cell has (layout-household.ts). */
  cell: PersonCellOptions;
}

export function arrange(sf: Surface, a: ArrangeOptions): Arrangement {
  const { layout, people, area, half } = a;
  const n = people.length;
  const tries = new CellTries({ sf, people, cell: a.cell });
  if (layout === 'landscape' || n === 0) return widen(tries, a);
  if (n === 1) return stacked(1, area, half, 1);
  const place = (s: Split): Arrangement => (n === 2 ? stacked(2, area, half, s.row) : grid(n as 3 | 4, area, half, s));
  let split: Split = { row: 0.5, top: 0.5, bottom: 0.5 };
  let best = place(split);
  let bestScore = tries.score(best);
  // Everyone's outfit whole on the even split: nothing to share out.
  if (bestScore[KEY_WHOLE] === n) return best;
  const parts: (keyof Split)[] = n === 2 ? ['row'] : n === 3 ? ['row', 'top'] : ['row', 'top', 'bottom'];
  // A second round only where the first moved a share: a row's new height can want its columns moved again.
  for (let round = 0, moved = true; round < 2 && moved; round++) {
    moved = false;
    for (const part of parts)
      for (const share of part === 'row' ? ROW_SHARES : COLUMN_SHARES) {
        if (share === split[part]) continue;
        const tried = { ...split, [part]: share };
        const arr = place(tried);
        const s = tries.score(arr);
        if (better(s, bestScore)) [split, best, bestScore, moved] = [tried, arr, s, true];
      }
  }
  if (n >= 3) {
    const rows = stacked(n, area, half, 0.5);
    if (better(tries.score(rows), bestScore)) return rows;
  }
  return best;
}

/** How much wider the columns of the people whose outfit is cut are tried than the others. */
const WIDER = [1.15, 1.3, 1.5];

/** Side by side: the columns of the people whose outfit is cut on the even split wider, where that shows more. */
function widen(tries: CellTries, a: ArrangeOptions): Arrangement {
  const n = a.people.length;
  let best = columns(n, a.area, a.half);
  if (n < 2) return best;
  const cut = tries.keysOf(best).map((k) => k[KEY_WHOLE] === 0);
  if (!cut.includes(true)) return best;
  let bestScore = tries.score(best);
  for (const f of WIDER) {
    const arr = columns(
      n,
      a.area,
      a.half,
      cut.map((c) => (c ? f : 1)),
    );
    const s = tries.score(arr);
    if (better(s, bestScore)) [best, bestScore] = [arr, s];
  }
  return best;
}
