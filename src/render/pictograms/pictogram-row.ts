import type { Box } from '../draw/box.js';
import { EXTRAS, GARMENT_PICTOGRAMS, NOTHING_EXTRA, type GarmentPictogram } from './garment-pictograms.js';
import type { GarmentId } from '../../domain/garments.js';
import { drawPictogram } from './pictogram.js';
import type { Surface } from '../draw/surface.js';

/**
 * The row of garment pictograms: what to wear at a glance, before a word is read. Pictograms are square, as
 * large as `maxSize` and the row's width allow (never below `minSize`; those that do not fit at it are left
 * off: the words below still name them), a quarter of their size apart. When none of the garments answers to
 * the weather (no rain, cold or sun wear), the row ends with a tick: nothing extra needed.
 */

export interface PictogramRow {
  /** What the row shows, in order ('nothing-extra' for the tick). */
  shown: (GarmentId | 'nothing-extra')[];
  /** Pictogram size, px (0: no row). */
  size: number;
}

function pictogramRowItems(garments: readonly GarmentId[]): (GarmentId | 'nothing-extra')[] {
  if (garments.length === 0) return [];
  return garments.some((g) => EXTRAS.includes(g)) ? [...garments] : [...garments, 'nothing-extra'];
}

/** The size a row of `n` pictograms gets in `width`, between minSize and maxSize (whole px). */
function rowPictogramSize(n: number, width: number, maxSize: number, minSize: number): number {
  if (n === 0) return 0;
  const fit = Math.floor(width / (n + (n - 1) * 0.25));
  return Math.max(Math.round(minSize), Math.min(Math.round(maxSize), fit));
}

/**
 * Draws the row left-aligned in `box` (box.h is the largest size). With `maxRows` 2 the pictograms wrap into a
 * second row when that makes them at least 15 % larger (portrait frames have the height to spare).
 * Returns what it drew and the height used.
 */
export function drawPictogramRow(sf: Surface, garments: readonly GarmentId[], box: Box, minSize: number, maxRows: 1 | 2 = 1): PictogramRow & { height: number } {
  const items = pictogramRowItems(garments);
  const { size, perRow, rows } = rowGeometry(items.length, box, minSize, maxRows);
  if (size === 0) return { shown: [], size: 0, height: 0 };
  const step = size * 1.25;
  const shown = items.slice(0, perRow * rows);
  shown.forEach((g, i) => {
    const p: GarmentPictogram = g === 'nothing-extra' ? NOTHING_EXTRA : GARMENT_PICTOGRAMS[g];
    const row = Math.floor(i / perRow);
    drawPictogram(sf, p.picto, box.x + (i % perRow) * step, box.y + row * step, size, p.meaning ?? undefined);
  });
  return { shown, size, height: rowsHeight(rows, size) };
}

const rowsHeight = (rows: number, size: number): number => Math.round(rows * size + (rows - 1) * size * 0.25);

/** Size, pictograms a row and rows for `n` pictograms in `box`. */
function rowGeometry(n: number, box: Box, minSize: number, maxRows: 1 | 2): { size: number; perRow: number; rows: number } {
  const one = rowPictogramSize(n, box.w, box.h, minSize);
  if (one === 0) return { size: 0, perRow: 0, rows: 0 };
  const perRow2 = Math.ceil(n / 2);
  const two = rowPictogramSize(perRow2, box.w, box.h, minSize);
  if (maxRows === 2 && n > 1 && two >= one * 1.15) return { size: two, perRow: perRow2, rows: 2 };
  return { size: one, perRow: Math.max(1, Math.floor((box.w + one * 0.25) / (one * 1.25))), rows: 1 };
}

/** The height drawPictogramRow would use, without drawing. */
export function pictogramRowHeight(garments: readonly GarmentId[], box: Box, minSize: number, maxRows: 1 | 2): number {
  const g = rowGeometry(pictogramRowItems(garments).length, box, minSize, maxRows);
  return g.size === 0 ? 0 : rowsHeight(Math.min(g.rows, Math.ceil(pictogramRowItems(garments).length / g.perRow)), g.size);
}
