import type { LabelKey } from '../../i18n/labels.js';
import type { Locale } from '../../i18n/locale.js';
import type { Condition } from '../../domain/condition.js';
import { conditionParts, type ConditionPart } from '../../domain/condition-parts.js';
import { fill } from '../../i18n/labels.js';

/** The label of each condition; `unknown` has none (the service's text is shown as sent). */
const CONDITION_LABELS: Readonly<Record<Exclude<Condition, 'unknown'>, LabelKey>> = {
  'clear-day': 'condition_clear_day',
  'clear-night': 'condition_clear_night',
  'partly-day': 'condition_partly',
  'partly-night': 'condition_partly',
  cloudy: 'condition_cloudy',
  fog: 'condition_fog',
  drizzle: 'condition_drizzle',
  rain: 'condition_rain',
  thunder: 'condition_thunder',
  snow: 'condition_snow',
  sleet: 'condition_sleet',
  wind: 'condition_wind',
  storm: 'condition_storm',
};

/** Conditions whose words are an adjective ("Sonnig", "Windig"), lowercased mid-line even where nouns keep a capital. */
const ADJECTIVES: ReadonlySet<Condition> = new Set([
  'clear-day',
  'clear-night',
  'partly-day',
  'partly-night',
  'cloudy',
  'wind',
]);

/** Languages that write nouns with a capital mid-sentence ("Starker Regen und Gewitter"). */
const NOUNS_CAPITALISED: ReadonlySet<string> = new Set(['de', 'lb']);

/** One part in words: "Leichter Regen", "Regenschauer", "Schwere Gewitter"; the plain condition where no more is said. */
function partLabel(part: ConditionPart): LabelKey {
  const { condition: c, intensity, showers } = part;
  if (c === 'rain' && showers) return intensity === null ? 'condition_showers' : `condition_showers_${intensity}`;
  if (c === 'rain' && intensity !== null) return `condition_rain_${intensity}`;
  if (c === 'snow' && showers)
    return intensity === null ? 'condition_snow_showers' : `condition_snow_showers_${intensity}`;
  if (c === 'snow' && intensity !== null) return `condition_snow_${intensity}`;
  if (c === 'drizzle' && intensity !== null) return `condition_drizzle_${intensity}`;
  if (c === 'sleet' && intensity !== null) return `condition_sleet_${intensity}`;
  if (c === 'thunder' && intensity === 'heavy') return 'condition_thunder_heavy';
  return CONDITION_LABELS[c as Exclude<Condition, 'unknown'>];
}

/** The second part as it reads after "and": lowercase, but a noun where the language capitalises nouns. */
function midLine(part: ConditionPart, words: string, locale: Locale): string {
  const language = locale.tag.split('-')[0]!.toLowerCase();
  const noun = part.intensity === null && !ADJECTIVES.has(part.condition);
  if (NOUNS_CAPITALISED.has(language) && noun) return words;
  return words.charAt(0).toLocaleLowerCase(locale.tag) + words.slice(1);
}

/**
 * The weather's description as the frame writes it. In English, the service's own text: it is English already and says
 * more than our word for its condition ("Light rain showers", not "Rain"). In any other language, our words for what
 * the description says, as far as we read it: the condition, how light or heavy, showers, and a second part ("Heavy
 * rain and thunderstorms" is "Starker Regen und Gewitter", not "Gewitter"), so a French frame does not say
 * "Ressenti 1° · Partly cloudy". The parts are used only when they agree with the condition the readings corrected
 * (freezing rain is sleet, whatever the text said); else the condition's word. The service's text only where no
 * condition is known (nothing to translate it from). Null: nothing to say.
 */
export function conditionWords(options: {
  condition: Condition | null;
  description: string | undefined;
  locale: Locale;
}): string | null {
  const sent = options.description?.trim() || null;
  const english = /^en(-|$)/i.test(options.locale.tag);
  const condition = options.condition;
  if (english || condition === null || condition === 'unknown') return sent;
  const labels = options.locale.labels;
  const night = condition === 'clear-night' || condition === 'partly-night';
  const parts = conditionParts(sent ?? '', !night);
  if (!parts.some((p) => p.condition === condition)) return labels[CONDITION_LABELS[condition]];
  const [first, second] = parts.map((p) => ({ part: p, words: labels[partLabel(p)] }));
  if (second === undefined) return first!.words;
  return fill(labels.condition_and, { a: first!.words, b: midLine(second.part, second.words, options.locale) });
}
