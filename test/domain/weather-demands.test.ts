import { describe, expect, it } from 'vitest';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { readAnswer } from '../../src/domain/answer.js';
import { conditionOf } from '../../src/domain/condition.js';
import type { GarmentId } from '../../src/domain/garments.js';
import { garmentRow, weatherDemands, WEATHER_THRESHOLDS } from '../../src/domain/weather-demands.js';
import { temperatureMeaning, rainMeaning, uvMeaning } from '../../src/render/draw/colour-meaning.js';

/** What the weather demands decides the row's order and its tick, never the outfit's words. */

type Weather = StoredRecommendation['weather'];
const MILD: Weather = {
  description: 'Partly cloudy',
  temp: 18,
  feels_like: 18,
  temp_unit: '°C',
  rain_chance_pct: 10,
  uv_index: 2,
  is_day: true,
  alerts: [],
};
const demands = (w: Partial<typeof MILD>) => {
  const weather = { ...MILD, ...w };
  return weatherDemands(weather, conditionOf(weather));
};
const rec = (outfit: string, w: Partial<typeof MILD>): StoredRecommendation => ({
  outfit,
  weather: { ...MILD, ...w },
  fetched_at: '2026-01-31T07:00:00.000Z',
});

describe('the tick ("nothing extra needed")', () => {
  it('is shown on a benign day when no garment answers to the weather', () => {
    expect(demands({}).benign).toBe(true);
    expect(readAnswer(rec('A T-shirt, jeans and trainers.', {})).row).toEqual([
      'tshirt',
      'trousers',
      'closed-shoes',
      'nothing-extra',
    ]);
    // Night: no UV reading is needed.
    expect(demands({ uv_index: undefined, is_day: false }).benign).toBe(true);
  });

  it('is never shown in the cold, in rain, in sun, with an alert or a gale, whatever the text names', () => {
    const plain = 'A T-shirt, jeans and trainers.';
    // −6 °C with snow, feels −12: the text names no cold wear, and still no tick.
    expect(
      readAnswer(rec(plain, { description: 'Snow', temp: -6, feels_like: -12, rain_chance_pct: 40 })).row,
    ).not.toContain('nothing-extra');
    // A 90 % rain day whose description says nothing of rain.
    expect(readAnswer(rec(plain, { description: 'Overcast', rain_chance_pct: 90 })).row).not.toContain('nothing-extra');
    for (const w of [
      { feels_like: 9.9 },
      { feels_like: WEATHER_THRESHOLDS.warmC },
      { rain_chance_pct: WEATHER_THRESHOLDS.rainPossiblePct },
      { uv_index: WEATHER_THRESHOLDS.uvSunProtection },
      { alerts: ['Wind warning'] },
      { description: 'Drizzle' },
      { description: 'Windy', wind_speed: 60, wind_speed_unit: 'km/h' },
      { temp_unit: '°F', temp: 45, feels_like: 45 },
    ]) {
      expect(demands(w).benign, JSON.stringify(w)).toBe(false);
    }
  });

  it('is not shown when a reading it needs is missing (a missing reading proves nothing benign)', () => {
    expect(demands({ rain_chance_pct: undefined }).benign).toBe(false);
    expect(demands({ temp: undefined, feels_like: undefined }).benign).toBe(false);
    expect(demands({ uv_index: undefined }).benign).toBe(false);
    // The temperature stands in for a missing feels-like.
    expect(demands({ feels_like: undefined }).benign).toBe(true);
  });

  it('is not shown beside a garment that answers to the weather, on a benign day either', () => {
    expect(readAnswer(rec('A T-shirt, jeans, and take sunglasses.', {})).row).toEqual([
      'sunglasses',
      'tshirt',
      'trousers',
    ]);
  });
});

describe('the row order', () => {
  const nine: GarmentId[] = [
    'coat',
    'sweater',
    'shirt',
    'trousers',
    'boots',
    'scarf',
    'gloves',
    'warm-hat',
    'umbrella',
  ];

  it('puts rain gear first in rain, then cold gear in the cold, then outer layers, the basics last', () => {
    const wet = demands({ description: 'Light rain', temp: 2, feels_like: -2, rain_chance_pct: 70 });
    expect(wet).toMatchObject({ rain: true, cold: true, sun: false, benign: false });
    expect(garmentRow(nine, wet)).toEqual([
      'umbrella',
      'scarf',
      'gloves',
      'warm-hat',
      'coat',
      'sweater',
      'boots',
      'shirt',
      'trousers',
    ]);
  });

  it('keeps cold gear first in the cold and the umbrella among the rest when rain is unlikely', () => {
    const cold = demands({ description: 'Clear', temp: -3, feels_like: -8, rain_chance_pct: 5 });
    expect(garmentRow(nine, cold)).toEqual([
      'scarf',
      'gloves',
      'warm-hat',
      'coat',
      'sweater',
      'boots',
      'umbrella',
      'shirt',
      'trousers',
    ]);
  });

  it('puts sun gear first in sun, and not at night', () => {
    const garments: GarmentId[] = ['tshirt', 'shorts', 'sandals', 'sun-hat', 'sunglasses', 'sunscreen'];
    expect(garmentRow(garments, demands({ description: 'Sunny', temp: 28, feels_like: 29, uv_index: 8 }))).toEqual([
      'sun-hat',
      'sunglasses',
      'sunscreen',
      'tshirt',
      'shorts',
      'sandals',
    ]);
    expect(garmentRow(garments, demands({ description: 'Clear', uv_index: 8, is_day: false })).slice(0, 3)).toEqual([
      'sun-hat',
      'sunglasses',
      'sunscreen',
    ]);
    expect(demands({ description: 'Clear', uv_index: 8, is_day: false }).sun).toBe(false);
  });

  it('keeps the state JSON garments in the vocabulary order (a contract), apart from the row', () => {
    const r = readAnswer(
      rec('Take an umbrella, wear trousers and a coat.', { description: 'Rain', rain_chance_pct: 90 }),
    );
    expect(r.garments).toEqual(['coat', 'trousers', 'umbrella']);
    expect(r.row).toEqual(['umbrella', 'coat', 'trousers']);
  });
});

describe('the thresholds, written once', () => {
  it('are the colours’ thresholds too', () => {
    const T = WEATHER_THRESHOLDS;
    expect(temperatureMeaning(T.freezingC, '°C')).toBe('freezing');
    expect(temperatureMeaning(T.coldC - 0.1, '°C')).toBe('cold');
    expect(temperatureMeaning(T.coldC, '°C')).toBeNull();
    expect(temperatureMeaning(T.heatC, '°C')).toBe('heat');
    expect(temperatureMeaning(86, '°F')).toBe('heat');
    expect(rainMeaning(T.rainLikelyPct)).toBe('rain-high');
    expect(rainMeaning(T.rainLikelyPct - 1)).toBe('rain');
    expect(uvMeaning(T.uvHigh)).toBe('uv-high');
    expect(uvMeaning(T.uvHigh - 0.1)).toBe('uv');
  });
});
