import type { Box } from './box.js';
import { font, type FontId } from '../text/fonts.js';

/**
 * Where each drawn text may put ink, for the check that no text is clipped (test/render/text-boxes.test.ts): the
 * room the layout gave it. On paper that is its pen's advance across and the font's ascent to its descent down; on a
 * filled band or badge it is the fill, since paper-coloured ink outside it is lost on the paper ("il y a" read
 * "il v a" where the badge ended above the descender). Either way the ink must lie inside the frame too.
 */

/** One call that drew text: as drawText got it (its pen's left edge and its baseline, px) and the room it had. */
export interface TextBox {
  font: FontId;
  size: number;
  text: string;
  x: number;
  baseline: number;
  box: Box;
}

/**
 * How far a glyph's ink may lie beyond its line's pen advance on paper, em: the side bearings of "j", "T" or "%" (a
 * 107 px "jeans" reaches 0.17 em left of its pen). Across, paper text is clipped only by the frame's edge.
 */
const SIDE_SLACK_EM = 0.25;

/**
 * The room of a line on paper: `w` px of pen advance from `x` (and the side slack), the font's ascent above the
 * baseline to its descent below.
 */
export function lineRoom(id: FontId, size: number, x: number, baseline: number, w: number): Box {
  const f = font(id);
  const top = Math.round(baseline) - f.ascender * size;
  const slack = SIDE_SLACK_EM * size;
  return { x: x - slack, y: top, w: w + 2 * slack, h: (f.ascender - f.descender) * size };
}
