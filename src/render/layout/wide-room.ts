/**
 * How a wall frame shares its height, by priority (layout-wide.ts draws what is chosen here). The outfit comes first:
 * it is kept whole at the type scale's size or more wherever the frame can make the room. To make it, the frame gives
 * up, in this order: the reasoning (outfit-block.ts draws it only in the room the whole outfit leaves), the spacing of
 * the readings and between the blocks, then the garment pictograms' size (down to the smallest that are told apart),
 * then the alerts' second lines, the least severe alert's first: an alert is cut only where the outfit would be
 * otherwise, and never while the reasoning is shown. So a status band, a headline or a dashed frame takes its room
 * from these, never from the outfit's words: an outfit whole on a fresh frame is whole in every state.
 */

/** One way of sharing the room: what it gives up for the outfit (ROOM_STEPS in layoutWide, roomiest first). */
export interface RoomStep {
  /** The readings' rows and the gaps between the blocks closed up. */
  tight: boolean;
  /** The garment row may shrink below the type scale's pictogram size, down to the smallest. */
  smallPictograms: boolean;
  /**
   * Where an old outfit's headline goes: in a row of its own above the weather, or beside the garment row; at the
   * outfit's size, or (`-small`) at the alerts'.
   */
  headline: HeadlinePlace;
  /** How many of the alerts, most severe first, keep the lines they need (the others get one line each). */
  alertsWhole: number;
}

/** Where an old outfit's headline goes (RoomStep.headline). */
export type HeadlinePlace = 'above' | 'beside' | 'above-small' | 'beside-small';

/**
 * How whole the outfit is, best first: at one size; its lead set larger than the rest (the lead runs to the last
 * sentence refusing a garment, outfit-fit.ts); or those sentences set smaller too; or cut, but at a sentence end.
 */
export type Whole = 'one-size' | 'lead' | 'refusals-smaller' | 'sentence-end';

/** What the room is chosen from: the frame's steps and a test of the outfit below a garment row. */
export interface RoomProbe {
  /** The steps, roomiest first: each gives up more than the one before. */
  steps: readonly RoomStep[];
  /** The garment row's largest size, px (the geometry's or the type scale's pictogram). */
  full: number;
  /** The row's smallest size at a step, px. */
  floor: (step: RoomStep) => number;
  /** Whether the geometry lets the garments take two rows (portrait). */
  twoRows: boolean;
  /** Whether the outfit is whole (`how`) below a row of `rows` and `h` px at `step`. */
  whole: (step: RoomStep, rows: 1 | 2, h: number, how: Whole) => boolean;
  /** How much of a cut outfit is shown below a row of `h` px at `step` (its characters). */
  shown: (step: RoomStep, h: number) => number;
}

/** The room chosen: the step, and the garment row's rows and largest size, px. */
export interface RoomChoice {
  step: RoomStep;
  rows: 1 | 2;
  h: number;
}

/**
 * The outfit whole (`how`) at `step`, with the garment row as large as that allows: two rows at full size where the
 * geometry has them and the outfit stays whole, else one row, shrunk (whole px, by halving) no further than needed and
 * never below the step's floor; null where even the floor leaves the outfit cut.
 */
function arrange(p: RoomProbe, step: RoomStep, how: Whole): RoomChoice | null {
  const ok = (rows: 1 | 2, h: number): boolean => p.whole(step, rows, h, how);
  const floor = Math.min(p.full, p.floor(step));
  if (!ok(1, floor)) return null;
  if (p.twoRows && ok(2, p.full)) return { step, rows: 2, h: p.full };
  if (ok(1, p.full)) return { step, rows: 1, h: p.full };
  let lo = Math.round(floor);
  let hi = Math.round(p.full);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (ok(1, mid)) lo = mid;
    else hi = mid;
  }
  return { step, rows: 1, h: lo };
}

/**
 * The room for the outfit, by priority. Among the steps that keep every alert's lines, roomiest first: the first at
 * which the outfit is whole at one size or with its lead set larger, else the first at which it is whole with its
 * refusing sentences smaller too. Then the same among the steps that give alerts' lines up. Where it is whole at no
 * step, it is cut anyway, and gets the room a step can give (the pictograms no larger than lets it show all it can
 * show there; they still name every garment): the last step that keeps the alerts' lines, where that cuts it at a
 * sentence end, else the first after it that does (an alert's second line goes before an outfit's sentence is cut
 * inside); else the roomiest step.
 */
export function chooseRoom(p: RoomProbe): RoomChoice {
  const roomiest = p.steps[0]!;
  const last = p.steps[p.steps.length - 1]!;
  const all = roomiest.alertsWhole;
  const keepAlerts = p.steps.filter((s) => s.alertsWhole === all);
  const cutAlerts = p.steps.filter((s) => s.alertsWhole < all);
  // Most outfits that are cut are cut at every step: one test at the last step says so.
  if (p.whole(last, 1, Math.min(p.full, p.floor(last)), 'refusals-smaller'))
    for (const steps of [keepAlerts, cutAlerts]) {
      for (const step of steps)
        for (const how of ['one-size', 'lead'] as const) {
          const found = arrange(p, step, how);
          if (found) return found;
        }
      for (const step of steps) {
        const found = arrange(p, step, 'refusals-smaller');
        if (found) return found;
      }
    }
  for (const step of [keepAlerts[keepAlerts.length - 1]!, ...cutAlerts]) {
    const floor = Math.min(p.full, p.floor(step));
    if (!p.whole(step, 1, floor, 'sentence-end')) continue;
    // The garment row no smaller than it must be for the outfit to show as much.
    const most = p.shown(step, floor);
    if (p.shown(step, p.full) >= most) return { step, rows: 1, h: p.full };
    let lo = Math.round(floor);
    let hi = Math.round(p.full);
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (p.shown(step, mid) >= most) lo = mid;
      else hi = mid;
    }
    return { step, rows: 1, h: lo };
  }
  return { step: roomiest, rows: p.twoRows ? 2 : 1, h: p.full };
}
