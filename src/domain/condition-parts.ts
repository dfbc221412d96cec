import { conditionOfText, folded, type Condition } from './condition.js';

/**
 * What a weather description says beyond its one condition, so a frame in another language can say as much as the
 * service's English: how strong ("Light rain", "Heavy snow"), whether it comes in showers, and the second half of a
 * compound ("Heavy rain and thunderstorms"). The description is read in any of the frame's languages, as
 * condition.ts reads it. Pure.
 */

export type Intensity = 'light' | 'heavy';

export interface ConditionPart {
  condition: Condition;
  /** null: neither light nor heavy said (or "moderate"). */
  intensity: Intensity | null;
  /** "Rain showers", "averses", "Schneeschauer": the rain or snow comes and goes. */
  showers: boolean;
}

/** The words a compound description is joined with, in the frame's languages; commas and "&" too. */
const JOINS =
  /\s*(?:[,;&/+]|\b(?:and|with|or|then|und|mit|oder|dann|et|avec|ou|puis|y|con|o|luego|e|ed|poi|en|met|of|i|z|ze|lub|och|med|eller)\b)\s*/;

// "moderate or heavy rain": the stronger word wins, so heavy is tested first. Folded words (condition.ts): "lätt" is
// "latt", "słaby" is "slaby"; "lightning" is no intensity.
const HEAVY =
  /\bheavy|torrential|intens|violent|severe|\bstrong|\bstark|heftig|kraftig|schwer|\bfort(e|es|i)?\b|fuerte|\bzwa(ar|re)\b|hevig|\bsiln|ulewn/;
const LIGHT =
  /\blight(?!n)|slight|patchy|\bweak|\bfew\b|leicht|schwach|faible|\bleger|debil|liger[oa]|debole|deboli|legger[ae]|\blicht|\bslab|\blekk|\blatt|\bsvag/;
const SHOWERS = /shower|schauer|averse|chubasco|chaparr|rovesc|buien|\bbui\b|przelotn|skur|byar\b/;

/** Conditions that are weather falling or blowing; a sky ("partly cloudy with light rain") gives way to them. */
const WEATHER: ReadonlySet<Condition> = new Set([
  'drizzle',
  'rain',
  'thunder',
  'snow',
  'sleet',
  'fog',
  'wind',
  'storm',
]);

/** At most two parts: a frame's weather line holds "Heavy rain and thunderstorms", not a forecast. */
const MAX_PARTS = 2;

/**
 * The parts of a description in the order it names them: "Patchy light rain with thunder" → light rain, thunder.
 * Empty when no part names a condition. A part of only an intensity ("moderate or heavy rain") lends it to the next.
 */
export function conditionParts(description: string, isDay: boolean): ConditionPart[] {
  const parts: ConditionPart[] = [];
  let carried: Intensity | null = null;
  for (const segment of folded(description).split(JOINS)) {
    if (segment.trim() === '') continue;
    const said = HEAVY.test(segment) ? 'heavy' : LIGHT.test(segment) ? 'light' : null;
    const condition = conditionOfText(segment, isDay);
    if (condition === null) {
      carried = stronger(carried, said);
      continue;
    }
    // Only rain and snow come in showers; "onweersbuien" is a thunderstorm, not a shower of it.
    const showers = (condition === 'rain' || condition === 'snow') && SHOWERS.test(segment);
    const part: ConditionPart = { condition, intensity: stronger(carried, said), showers };
    carried = null;
    const same = parts.find((p) => p.condition === condition);
    if (same) {
      same.intensity = stronger(same.intensity, part.intensity);
      same.showers ||= part.showers;
    } else parts.push(part);
  }
  mergeRainAndSnow(parts);
  const weather = parts.filter((p) => WEATHER.has(p.condition));
  return (weather.length > 0 ? weather : parts).slice(0, MAX_PARTS);
}

function stronger(a: Intensity | null, b: Intensity | null): Intensity | null {
  return a === 'heavy' || b === 'heavy' ? 'heavy' : (a ?? b);
}

/** Rain and snow named together ("pluie et neige", "deszcz ze śniegiem") are sleet: one part, where the first was. */
function mergeRainAndSnow(parts: ConditionPart[]): void {
  const wet = parts.findIndex((p) => p.condition === 'rain' || p.condition === 'drizzle');
  const snow = parts.findIndex((p) => p.condition === 'snow');
  if (wet < 0 || snow < 0) return;
  const first = Math.min(wet, snow);
  const second = Math.max(wet, snow);
  parts[first] = {
    condition: 'sleet',
    intensity: stronger(parts[wet]!.intensity, parts[snow]!.intensity),
    showers: parts[wet]!.showers || parts[snow]!.showers,
  };
  parts.splice(second, 1);
}
