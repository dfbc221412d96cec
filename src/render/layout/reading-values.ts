import type { Weather } from '../../api/schemas.js';
import { fill } from '../../i18n/labels.js';
import { ENGLISH, type Locale } from '../../i18n/locale.js';
import { rainMeaning, uvMeaning, type Meaning } from '../draw/colour-meaning.js';
import { formatPercent, formatReading, formatSpeed, formatTempShort, windDegrees } from './format.js';

/**
 * The readings' values as the frame writes them, in the display's locale: worked out once per frame with its content
 * (content.ts), so the layouts that draw them (readings.ts) never see the locale.
 */

export type ReadingKind = 'rain' | 'wind' | 'uv' | 'humidity';

export interface Reading {
  kind: ReadingKind;
  value: string;
  /** The colour it is drawn in, when it means something. */
  meaning: Meaning | null;
  /** Wind: where it comes from, degrees (null: unknown direction). */
  windFrom?: number | null;
  /** The value without its unit, for a cell too narrow for the whole value. */
  short?: string;
}

/** The readings in the locale's numbers ("2,5", "71 %"); default English. */
export function readingsOf(w: Weather, locale: Locale = ENGLISH): Reading[] {
  // A missing reading means nothing: its mark stays black.
  const rain = w.rain_chance_pct === undefined ? null : rainMeaning(w.rain_chance_pct);
  const uv = w.uv_index === undefined ? null : uvMeaning(w.uv_index);
  // A UV index of 0 (the night, or under 0.05, which would print as 0) says nothing worth a cell: "UV 0" is left out.
  // A missing one still shows "UV —": the answer lacked it, and that is worth knowing.
  const noSun = w.uv_index !== undefined && w.uv_index < 0.05;
  const all: Reading[] = [
    { kind: 'rain', value: formatPercent(w.rain_chance_pct, locale), meaning: rain },
    {
      kind: 'wind',
      value: formatSpeed(w.wind_speed, w.wind_speed_unit, locale),
      meaning: null,
      windFrom: windDegrees(w.wind_dir),
      short: formatReading(w.wind_speed, 1, locale),
    },
    // Below 1 with one decimal: a weak winter sun's 0.4 is not "0".
    {
      kind: 'uv',
      value: fill(locale.labels.uv, {
        value: formatReading(w.uv_index, w.uv_index !== undefined && w.uv_index < 1 ? 0.1 : 1, locale),
      }),
      meaning: uv,
    },
    { kind: 'humidity', value: formatPercent(w.humidity_pct, locale), meaning: null },
  ];
  return noSun ? all.filter((r) => r.kind !== 'uv') : all;
}

/** "Feels like 3°", in the locale's words. */
export function feelsLike(w: Weather, locale: Locale = ENGLISH): string {
  return fill(locale.labels.feels_like, { temp: formatTempShort(w.feels_like) });
}

/** "Feels 3°": the short form, for a weather column too narrow for the words in full. */
export function feelsLikeShort(w: Weather, locale: Locale = ENGLISH): string {
  return fill(locale.labels.feels_like_short, { temp: formatTempShort(w.feels_like) });
}
