import type { Box } from '../draw/box.js';
import type { OutfitBlockFit } from './outfit-block.js';

/**
 * A wall frame's garment row grown into the room a short outfit leaves below it (layout-wide.ts): four garments at the
 * type scale's 30′ left most of a 7.5" row empty while the outfit below had lines to spare. The row grows only as far
 * as the outfit keeps its size and the reasoning its place, and never past ROW_GROWTH times the scale's size.
 */

/**
 * How far a row grows past the type scale's size, as a multiple of it: to 45′ (129 px on the 7.5"), so that four
 * garments fill their row, and never so far that the row dwarfs the weather above it.
 */
export const ROW_GROWTH = 1.5;

/**
 * The least growth worth making, as a multiple of the row's drawn height: a few px more are not seen, and would make
 * the row's size follow the outfit's length from day to day.
 */
const ROW_GROWTH_MIN = 1.1;

export interface RowGrowth {
  /** The row's box; its `h`, the largest pictogram size, is what grows. */
  row: Box;
  /** The largest `row.h`, px. */
  ceiling: number;
  /** The outfit block below the row as `row.h` leaves it (outfit-block.ts outfitBlockFit). */
  block: () => OutfitBlockFit;
  /** The row's drawn height at `row.h` (narrow rows stop growing at their width). */
  height: () => number;
}

/**
 * Whether the outfit block `after` a larger row loses nothing of what it had `before`: the outfit whole at one size
 * and no smaller, the reasoning still shown and no smaller. An outfit cut or set in two sizes before never gives room.
 */
function keepsBlock(before: OutfitBlockFit, after: OutfitBlockFit): boolean {
  const whole = (f: OutfitBlockFit): boolean => !f.outfit.truncated && f.outfit.rest === null;
  return (
    whole(before) &&
    whole(after) &&
    after.outfit.lead.size >= before.outfit.lead.size &&
    (before.reasoning === null || (after.reasoning !== null && after.reasoning.size >= before.reasoning.size))
  );
}

/**
 * Grows `g.row.h`, up to `g.ceiling`, to the largest size (whole px, by halving) at which the outfit block keeps what
 * it has at the row's size now; it stays as it is where that is less than ROW_GROWTH_MIN more.
 */
export function growRowIntoRoom(g: RowGrowth): void {
  const { row } = g;
  const full = row.h;
  const was = g.height();
  const before = g.block();
  const fits = (): boolean => keepsBlock(before, g.block());
  // The least growth worth making first: where the row cannot make it (too narrow) or the outfit has not the room
  // for it, no larger row would do.
  let lo = Math.ceil(full * ROW_GROWTH_MIN);
  if (g.ceiling < lo) return;
  row.h = lo;
  if (g.height() < was * ROW_GROWTH_MIN || !fits()) {
    row.h = full;
    return;
  }
  row.h = g.ceiling;
  if (fits()) return;
  let hi = Math.round(g.ceiling);
  while (hi - lo > 1) {
    row.h = Math.floor((lo + hi) / 2);
    if (fits()) lo = row.h;
    else hi = row.h;
  }
  row.h = lo;
}
