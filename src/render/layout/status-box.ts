import type { Box } from '../draw/box.js';
import type { Surface } from '../draw/surface.js';
import { arcMinutes } from '../draw/type-scale.js';

/**
 * The look of the service's and the display's own state: the status band of an error, a lost connection or a refused
 * key, the age badge of an outfit out of date and the headline of one of an earlier day. Outlined on paper, its
 * words in ink: a look no alert has (a severe alert is a filled band, a lesser one words on paper beside a warning
 * mark: alert-block.ts), so that news about the display never looks like a danger, and an error frame never stacks
 * filled blocks. In the status ink (black: colour-meaning.ts), never a warning colour.
 */

/** The outline's weight, arc minutes at the panel's viewing distance: a rule seen from 2 m, one pixel in the hand. */
const OUTLINE_ARC = 1;

/** The outline's thickness on this surface, px: OUTLINE_ARC at its viewing distance, at least 1 px. */
export function statusOutlineWidth(sf: Surface): number {
  const { ppi, distanceMm } = sf.scale;
  let t = 1;
  while (t < 16 && arcMinutes(t + 0.5, ppi, distanceMm) < OUTLINE_ARC) t++;
  return t;
}

/**
 * Draws the outline of `box` (whole px, `t` px thick, inside the box) on paper: what was under it is cleared.
 * Returns the room inside the outline, where the state's words keep their ink.
 */
export function drawStatusOutline(sf: Surface, box: Box, t = statusOutlineWidth(sf)): Box {
  const b = { x: Math.round(box.x), y: Math.round(box.y), w: Math.round(box.w), h: Math.round(box.h) };
  const ctx = sf.crisp;
  ctx.fillStyle = sf.theme.paper;
  ctx.fillRect(b.x, b.y, b.w, b.h);
  ctx.fillStyle = sf.theme.status;
  ctx.fillRect(b.x, b.y, b.w, t);
  ctx.fillRect(b.x, b.y + b.h - t, b.w, t);
  ctx.fillRect(b.x, b.y, t, b.h);
  ctx.fillRect(b.x + b.w - t, b.y, t, b.h);
  sf.drawn.ink(sf.theme.status);
  return { x: b.x + t, y: b.y + t, w: b.w - 2 * t, h: b.h - 2 * t };
}
