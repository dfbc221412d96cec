import type { StoredRecommendation } from '../../src/api/schemas.js';
import type { Locale } from '../../src/i18n/locale.js';
import type { FrameInput } from '../../src/render/layout/content.js';
import type { GarmentId } from '../../src/domain/garments.js';

/**
 * Sample recommendations for the gallery, the golden images and the bench: a normal day, a day with alerts,
 * a 120-word outfit, an error screen, and outfits of 10 and 40 words (the type scale's cases). Fixed times, so
 * every rendering of them is identical. Each reasoning agrees with its own weather (temperatures, rain). Each case names its garments, so the pictogram row shows what the
 * outfit says whatever the garment reader makes of it.
 */

export type SampleCase = 'normal' | 'alert' | 'long' | 'error' | 'short' | 'forty' | 'old' | 'offline' | 'key';
/** 'old', 'offline' and 'key': the states a wall shows besides a good day and a 502, on every panel. */
export const SAMPLE_CASES: readonly SampleCase[] = [
  'normal',
  'alert',
  'long',
  'error',
  'short',
  'forty',
  'old',
  'offline',
  'key',
];

export const SAMPLE_NOW = new Date('2026-01-31T06:45:00.000Z');
export const SAMPLE_TIMEZONE = 'Europe/Berlin';

export const NORMAL: StoredRecommendation = {
  outfit:
    'Wear a warm wool coat over a thick knit sweater, with dark jeans and waterproof leather boots. Add a scarf and light gloves for the walk; an umbrella is not needed today.',
  reasoning:
    'It is 4 °C and feels like 1 °C with a steady north-westerly wind, so a layered outfit keeps you warm; the rain chance is low and the UV index is minimal.',
  weather: {
    temp: 4.2,
    feels_like: 0.8,
    temp_unit: '°C',
    humidity_pct: 71,
    wind_speed: 14,
    wind_speed_unit: 'km/h',
    wind_dir: 'NW',
    description: 'Partly cloudy',
    rain_chance_pct: 10,
    uv_index: 1,
    is_day: true,
    alerts: [],
    source: 'open-meteo',
  },
  model: 'outfit-gpt-1',
  generated_at: '2026-01-31T06:30:00.000Z',
  fetched_at: '2026-01-31T06:30:02.000Z',
};

export const ALERT: StoredRecommendation = {
  ...NORMAL,
  outfit:
    'Stay dry: a hooded waterproof shell over a fleece, quick-drying trousers, and rubber boots. Leave the umbrella at home, the gusts will break it.',
  reasoning: 'Heavy rain with storm gusts up to 85 km/h; a shell with a hood beats an umbrella in this wind.',
  weather: {
    ...NORMAL.weather,
    temp: 9,
    feels_like: 5,
    description: 'Heavy rain and thunderstorms',
    wind_speed: 52,
    wind_dir: 'SW',
    rain_chance_pct: 95,
    humidity_pct: 93,
    alerts: [{ event: 'Severe storm warning', severity: 'severe' }, 'Flooding possible in low-lying areas'],
  },
};

/** Exactly 120 words, with long clothing words: the longest outfit the service may send. */
export const LONG_OUTFIT =
  'Start with a thermal merino base layer and a long-sleeved cotton shirt, then add a chunky cable-knit wool sweater for insulation. ' +
  'Over that, wear an insulated waterproof parka with a fleece-lined hood, zipped all the way up against the wind. ' +
  'Choose lined corduroy trousers or thick jeans with thermal leggings underneath, and waterproof leather boots with warm wool socks and good grip for icy pavements. ' +
  'Add a knitted beanie that covers your ears, a long scarf wrapped twice, and insulated touchscreen gloves. ' +
  'Carry a compact umbrella in your bag in case the snowfall thickens this afternoon. ' +
  'If you cycle, reflective accessories and a windproof layer will keep you safe, visible and comfortable until late this evening, when temperatures drop again.';

export const LONG: StoredRecommendation = {
  ...NORMAL,
  outfit: LONG_OUTFIT,
  reasoning:
    'It is \u22124 °C and feels like \u22129 °C in a north-north-easterly wind with light snow showers, so every layer counts; snow is likely, and the pavements will be icy.',
  weather: {
    ...NORMAL.weather,
    temp: -3.6,
    feels_like: -9.1,
    description: 'Light snow showers',
    wind_dir: 'NNE',
    wind_speed: 23,
    rain_chance_pct: 60,
    humidity_pct: 88,
  },
};

/** Exactly 10 words. */
export const SHORT_OUTFIT = 'A light jacket, jeans and trainers; take your sunglasses along.';

export const SHORT: StoredRecommendation = {
  ...NORMAL,
  outfit: SHORT_OUTFIT,
  reasoning: 'Mild and sunny with a light breeze.',
  weather: {
    ...NORMAL.weather,
    temp: 19.6,
    feels_like: 19,
    description: 'Sunny',
    wind_speed: 9,
    wind_dir: 'S',
    rain_chance_pct: 5,
    humidity_pct: 48,
    uv_index: 6.4,
  },
};

/** Exactly 40 words. */
export const FORTY_OUTFIT =
  'Wear a warm wool coat over a thick sweater, with dark jeans and waterproof boots. Add a scarf and gloves for the walk, and take an umbrella: showers are likely after noon, and the wind will make it feel colder.';

export const FORTY: StoredRecommendation = {
  ...NORMAL,
  outfit: FORTY_OUTFIT,
  reasoning: 'It is 2 °C and feels like \u22122 °C in the wind; rain is likely after noon.',
  weather: {
    ...NORMAL.weather,
    temp: 2.4,
    feels_like: -1.8,
    description: 'Light rain',
    rain_chance_pct: 70,
    humidity_pct: 90,
    wind_speed: 19,
  },
};

/**
 * Stress samples: answers gone wrong, drawn by the gallery in stress/ (not golden images). "long-word": an outfit
 * that ends in a word of 10,400 characters without a space, drawn cut, never a crash.
 */
export const STRESS_SAMPLES: Readonly<Record<string, StoredRecommendation>> = {
  'long-word': {
    ...NORMAL,
    outfit: `Wear a warm wool coat and boots, and ${'Thunderstormswithheavyhail'.repeat(400)}`,
  },
};

/** What each sample outfit names (the garment reader's answer, fixed here). */
export const SAMPLE_GARMENTS: Readonly<Record<SampleCase, GarmentId[]>> = {
  normal: ['coat', 'sweater', 'trousers', 'boots', 'scarf', 'gloves'],
  alert: ['raincoat', 'sweater', 'trousers', 'boots'],
  long: ['coat', 'sweater', 'shirt', 'trousers', 'boots', 'scarf', 'gloves', 'warm-hat', 'umbrella'],
  error: ['coat', 'sweater', 'trousers', 'boots', 'scarf', 'gloves'],
  short: ['jacket', 'trousers', 'closed-shoes', 'sunglasses'],
  forty: ['coat', 'sweater', 'trousers', 'boots', 'scarf', 'gloves', 'umbrella'],
  old: ['coat', 'sweater', 'trousers', 'boots', 'scarf', 'gloves'],
  offline: ['coat', 'sweater', 'trousers', 'boots', 'scarf', 'gloves'],
  key: ['coat', 'sweater', 'trousers', 'boots', 'scarf', 'gloves'],
};

/** The outfit of the evening before, seen at 07:05: out of date by its schedule. */
const EVENING = {
  rec: { ...NORMAL, fetched_at: '2026-01-30T19:00:00.000Z' },
  now: new Date('2026-01-31T07:05:00.000Z'),
  stale: true,
} as const;

/** A sample case's frame input, in `locale` (default English): the labels change, the service's texts do not. */
export function sampleInput(c: SampleCase, displayName = 'Hallway', locale?: Locale): FrameInput {
  const base = {
    displayName,
    timezone: SAMPLE_TIMEZONE,
    now: SAMPLE_NOW,
    status: { kind: 'ok' } as const,
    garments: SAMPLE_GARMENTS[c],
    locale,
  };
  switch (c) {
    case 'normal':
      return { ...base, rec: NORMAL };
    case 'alert':
      return { ...base, rec: ALERT };
    case 'long':
      return { ...base, rec: LONG };
    case 'short':
      return { ...base, rec: SHORT };
    case 'forty':
      return { ...base, rec: FORTY };
    case 'error':
      // The 07:00 purchase failed with a 502, and the outfit on show is from the evening before: both show.
      return {
        ...base,
        rec: { ...NORMAL, fetched_at: '2026-01-30T19:00:00.000Z' },
        now: new Date('2026-01-31T07:05:00.000Z'),
        stale: true,
        status: {
          kind: 'service_error',
          problem: 'error',
          since: new Date('2026-01-31T07:00:00.000Z'),
          retryAt: new Date('2026-01-31T07:12:00.000Z'),
          message: 'POST /recweather: HTTP 502: non-JSON error body (text/html): 502 Bad Gateway',
        },
      };
    case 'old':
      // The evening's outfit, and no purchase since (the 07:00 slot brought nothing): drawn out of date, no error.
      return { ...base, ...EVENING, status: { kind: 'stale', since: new Date(EVENING.rec.fetched_at) } };
    case 'offline':
      return {
        ...base,
        ...EVENING,
        status: {
          kind: 'unreachable',
          since: new Date('2026-01-31T07:00:00.000Z'),
          retryAt: new Date('2026-01-31T07:12:00.000Z'),
          message: 'connect ECONNREFUSED 192.0.2.1:443',
        },
      };
    case 'key':
      // The key was refused at 07:00: the wall sends its reader to the status page, by its address.
      return {
        ...base,
        ...EVENING,
        status: { kind: 'key_rejected', message: 'Invalid API key' },
        statusPlace: { kind: 'page', url: 'http://outfit.local:8321' },
      };
  }
}
