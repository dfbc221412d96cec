import type { LabelKey } from '../../i18n/labels.js';
import type { Locale } from '../../i18n/locale.js';
import type { Condition } from '../../domain/condition.js';

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

/**
 * The weather's description as the frame writes it. In English, the service's own text: it is English already and says
 * more than our word for its condition ("Light rain showers", not "Rain"). In any other language, our word for the
 * condition read from the answer, so a French frame does not say "Ressenti 1° · Partly cloudy"; the service's text
 * only where no condition is known (nothing to translate it from). Null: nothing to say.
 */
export function conditionWords(options: {
  condition: Condition | null;
  description: string | undefined;
  locale: Locale;
}): string | null {
  const sent = options.description?.trim() || null;
  const english = /^en(-|$)/i.test(options.locale.tag);
  if (english || options.condition === null || options.condition === 'unknown') return sent;
  return options.locale.labels[CONDITION_LABELS[options.condition]];
}
