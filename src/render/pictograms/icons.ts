import type { Condition } from '../../domain/condition.js';
import { drawPictogram } from './pictogram.js';
import type { Surface } from '../draw/surface.js';
import { CONDITION_PICTOGRAMS } from './weather-pictograms.js';

/**
 * Weather condition icons. Which condition an answer shows is read once per answer in src/domain/ (condition.ts,
 * answer.ts); this draws it. The drawings are line art in weather-pictograms.ts.
 */

/** Draws the icon for `condition` in the square (x, y, size). */
export function drawConditionIcon(sf: Surface, condition: Condition, x: number, y: number, size: number): void {
  return sf.drawn.within('condition', () => {
    sf.drawn.icon(condition, drawPictogram(sf, CONDITION_PICTOGRAMS[condition], x, y, size));
  });
}
