import type { Box } from '../draw/box.js';
import { drawingFor, GARMENT_PICTOGRAMS, NOTHING_EXTRA, type GarmentPictogram } from './garment-pictograms.js';
import type { RowItem } from '../../domain/weather-demands.js';
import { drawPictogram } from './pictogram.js';
import type { Surface } from '../draw/surface.js';
import { drawText, measure } from '../text/fonts.js';
import type { TextBox } from '../draw/text-box.js';

/**
 * The row of garment pictograms: what to wear at a glance, before a word is read. The items come in the order of
 * domain/weather-demands.ts's garmentRow (what the weather demands first, the tick on a benign day). Pictograms are
 * square, as large as `maxSize` and the row's width allow (never below `minSize`), a quarter of their size apart
 * (an eighth in a hero row, RowFit.heroUpTo).
 * A row that cannot hold them all at `minSize` keeps the first and ends with "+N", the number of garments it left
 * off, in the last place: nothing is dropped without the frame saying so, and what the weather demands goes last.
 */

export interface PictogramRow {
  /** What the row shows, in order ('nothing-extra' for the tick). */
  shown: RowItem[];
  /** Garments left off for want of room, counted on the frame as "+N" (0: none). */
  more: number;
  /** Pictogram size, px (0: no row). */
  size: number;
  /** The "+N" as drawn, with its square as its room (text-box.ts); null without it. */
  moreText?: TextBox | null;
  /** The squares the row fills (pictograms and the "+N"), px; null: no row. */
  box?: Box | null;
}

/** The gap between pictograms, as a share of their size. */
const GAP = 0.25;
/**
 * The gap of a hero row (see drawPictogramRow's `heroUpTo`) that cannot reach its size with GAP: an eighth, still
 * 3′ at 2 m between solid silhouettes, where a smaller pictogram would lose more than the gap gives.
 */
const HERO_GAP = 0.125;

/** The size a row of `n` pictograms gets in `width` with gaps of `gap`, between minSize and maxSize (whole px). */
function rowPictogramSize(n: number, width: number, maxSize: number, minSize: number, gap: number): number {
  if (n === 0) return 0;
  const fit = Math.floor(width / (n + (n - 1) * gap));
  return Math.max(Math.round(minSize), Math.min(Math.round(maxSize), fit));
}

/**
 * What a row of `capacity` places shows of `items`: all when they fit; else the tick goes first (it is no
 * garment), then the last garments, one place being kept for the count.
 */
function fitItems(items: readonly RowItem[], capacity: number): { shown: RowItem[]; more: number } {
  if (items.length <= capacity) return { shown: [...items], more: 0 };
  const garments = items.filter((i) => i !== 'nothing-extra');
  if (garments.length <= capacity) return { shown: garments, more: 0 };
  const keep = Math.max(0, capacity - 1);
  return { shown: garments.slice(0, keep), more: garments.length - keep };
}

/** How a row is fitted beyond its box and smallest size. */
export interface RowFit {
  /** Wrap into a second row when that makes the pictograms at least 15 % larger (portrait frames). Default 1. */
  maxRows?: 1 | 2;
  /**
   * A row of up to this many pictograms that cannot reach box.h with quarter gaps closes them to an eighth before
   * its pictograms shrink: the garments are the hero (a landscape Kindle's six at 30′). Default 0: none.
   */
  heroUpTo?: number;
  /**
   * The size the eighth gaps of `heroUpTo` may reach at most, px (default box.h): a row grown past the scale's size
   * (layout-wide.ts) grows with quarter gaps only, the eighths being there to reach the scale's size, not to pass it.
   */
  heroSize?: number;
  /**
   * Centre the row in box.w (a row narrower than its box: four garments on a wide panel), else it starts at box.x.
   * Default false.
   */
  centre?: boolean;
}

/**
 * Draws the row in `box` (box.h is the largest size), left-aligned or centred (RowFit.centre). Returns what it drew
 * and the height used.
 */
export function drawPictogramRow(
  sf: Surface,
  items: readonly RowItem[],
  box: Box,
  minSize: number,
  fit: RowFit = {},
): PictogramRow & { height: number } {
  const { size, perRow, rows, gap } = rowGeometry(items.length, box, minSize, fit);
  if (size === 0) return { shown: [], more: 0, size: 0, height: 0 };
  const step = size * (1 + gap);
  const { shown, more } = fitItems(items, perRow * rows);
  const places = shown.length + (more > 0 ? 1 : 0);
  // The widest row's squares and gaps; a second row starts under the first's left edge.
  const cols = Math.min(perRow, places);
  const width = cols * size + (cols - 1) * gap * size;
  const left = box.x + (fit.centre ? Math.max(0, (box.w - width) / 2) : 0);
  const place = (i: number): { x: number; y: number } => ({
    x: left + (i % perRow) * step,
    y: box.y + Math.floor(i / perRow) * step,
  });
  shown.forEach((g, i) => {
    const p: GarmentPictogram = g === 'nothing-extra' ? NOTHING_EXTRA : GARMENT_PICTOGRAMS[g];
    const at = place(i);
    // In ink, never tinted: a garment's meaning is the garment (colour-meaning.ts).
    const colour = drawPictogram(sf, drawingFor(p, size), at.x, at.y, size);
    sf.drawn.icon(g === 'nothing-extra' ? 'tick' : g, colour);
  });
  const moreText = more > 0 ? drawMore(sf, more, place(shown.length), size) : null;
  const used = Math.ceil(places / perRow);
  const height = rowsHeight(used, size);
  // As drawn: each square on whole pixels (pictogram.ts).
  const x = Math.round(left);
  const w = Math.round(left + (cols - 1) * step) + size - x;
  return { shown, more, size, height, moreText, box: { x, y: Math.round(box.y), w, h: height } };
}

/** "+3" in the square at `at`: bold, as large as fits the square, set on the square's middle. */
function drawMore(sf: Surface, n: number, at: { x: number; y: number }, size: number): TextBox {
  const text = `+${n}`;
  const px = Math.max(8, Math.floor(Math.min(size * 0.62, (size * 0.95) / Math.max(0.01, measure('bold', 1, text)))));
  const w = measure('bold', px, text);
  // Baseline so that the capitals' height (about 0.73 em in DejaVu Sans Bold) sits centred in the square.
  const x = at.x + (size - w) / 2;
  const baseline = at.y + size / 2 + px * 0.365;
  drawText(sf.text, 'bold', px, text, x, baseline, sf.theme.ink);
  sf.drawn.ink(sf.theme.ink);
  return { font: 'bold', size: px, text, x, baseline, box: { x: at.x, y: at.y, w: size, h: size } };
}

const rowsHeight = (rows: number, size: number): number => Math.round(rows * size + (rows - 1) * size * GAP);

/** Size, pictograms a row, rows and the gap for `n` pictograms in `box`. */
function rowGeometry(
  n: number,
  box: Box,
  minSize: number,
  fit: RowFit,
): { size: number; perRow: number; rows: number; gap: number } {
  let gap = GAP;
  let one = rowPictogramSize(n, box.w, box.h, minSize, gap);
  if (one === 0) return { size: 0, perRow: 0, rows: 0, gap };
  const hero = Math.min(box.h, fit.heroSize ?? box.h);
  if (n <= (fit.heroUpTo ?? 0) && one < Math.round(hero)) {
    gap = HERO_GAP;
    one = rowPictogramSize(n, box.w, hero, minSize, gap);
  }
  const perRow2 = Math.ceil(n / 2);
  const two = rowPictogramSize(perRow2, box.w, box.h, minSize, GAP);
  if (fit.maxRows === 2 && n > 1 && two >= one * 1.15) return { size: two, perRow: perRow2, rows: 2, gap: GAP };
  return { size: one, perRow: Math.max(1, Math.floor((box.w + one * gap) / (one * (1 + gap)))), rows: 1, gap };
}

/** The height drawPictogramRow would use, without drawing. */
export function pictogramRowHeight(items: readonly RowItem[], box: Box, minSize: number, fit: RowFit = {}): number {
  const g = rowGeometry(items.length, box, minSize, fit);
  if (g.size === 0) return 0;
  const { shown, more } = fitItems(items, g.perRow * g.rows);
  return rowsHeight(Math.ceil((shown.length + (more > 0 ? 1 : 0)) / g.perRow), g.size);
}

/** How many places (pictograms and the "+N") drawPictogramRow would fill, without drawing. */
export function pictogramRowPlaces(items: readonly RowItem[], box: Box, minSize: number, fit: RowFit = {}): number {
  const g = rowGeometry(items.length, box, minSize, fit);
  if (g.size === 0) return 0;
  const { shown, more } = fitItems(items, g.perRow * g.rows);
  return shown.length + (more > 0 ? 1 : 0);
}
