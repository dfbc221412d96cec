import { drawPictogram } from './pictogram.js';
import type { Surface } from './surface.js';
import { CONDITION_PICTOGRAMS, type Condition } from './weather-pictograms.js';

/**
 * Weather condition icons: `conditionOf` maps the service's free-text `description` to a condition and never
 * fails (an unknown text gets a neutral thermometer); the drawings are line art in weather-pictograms.ts.
 */

export type { Condition } from './weather-pictograms.js';

const RULES: readonly (readonly [RegExp, Condition | ((day: boolean) => Condition)])[] = [
  [/thunder|lightning|t-?storm/, 'thunder'],
  [/sleet|freezing rain|ice pellet|hail|wintry/, 'sleet'],
  [/snow|blizzard|flurr/, 'snow'],
  [/drizzle|sprinkle/, 'drizzle'],
  [/rain|shower|storm|downpour/, 'rain'],
  [/fog|mist|haze|hazy|smoke|dust|sand|ash/, 'fog'],
  [/partly|partial|mostly (sunny|clear)|scattered|few cloud|broken|intervals|some cloud|sunny spells/, (d) => (d ? 'partly-day' : 'partly-night')],
  [/overcast|cloud|grey|gray|dull/, 'cloudy'],
  [/clear|sunny|sun|fair|fine|bright/, (d) => (d ? 'clear-day' : 'clear-night')],
  [/wind|breez|gust|gale/, 'wind'],
];

export function conditionOf(description: string, isDay: boolean): Condition {
  const s = description.toLowerCase();
  for (const [re, c] of RULES) {
    if (re.test(s)) return typeof c === 'function' ? c(isDay) : c;
  }
  return 'unknown';
}

/** Draws the icon for `condition` in the square (x, y, size). */
export function drawConditionIcon(sf: Surface, condition: Condition, x: number, y: number, size: number): void {
  drawPictogram(sf, CONDITION_PICTOGRAMS[condition], x, y, size);
}
