import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GetWeatherSchema, RecWeatherSchema, RecommendationSchema, ISO_UTC_MS } from './spec-schemas.js';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import type { RunningServiceSim } from '../../src/service-sim/server.js';
import { keyFingerprint } from '../../src/service-sim/credits.js';
import { BERLIN, call, errorOf, startSim, T0 } from './helpers.js';
import { manualClock } from '../helpers/fake-clock.js';
import type { CallOptions } from './helpers.js';

const SPEC_WEATHER_FIELDS = [
  'alerts',
  'description',
  'feels_like',
  'humidity_pct',
  'is_day',
  'rain_chance_pct',
  'temp',
  'temp_unit',
  'uv_index',
  'wind_dir',
  'wind_speed',
  'wind_speed_unit',
].sort();

let sim: RunningServiceSim;
const clock = manualClock(T0);
const post = (path: string, opts: CallOptions = {}) => call(sim, 'POST', path, opts, DEMO_API_KEY);
const get = (path: string, opts: CallOptions = {}) => call(sim, 'GET', path, opts, DEMO_API_KEY);

beforeEach(async () => {
  clock.set(T0 + 123);
  sim = await startSim({ clock });
});
afterEach(async () => {
  await sim.close();
});

describe('POST /v1/recweather', () => {
  it('answers a Recommendation with the full weather snapshot, source included', async () => {
    const r = await post('/v1/recweather', { body: BERLIN });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    const rec = RecWeatherSchema.parse(r.json());
    expect(rec.weather.source).toBe('outfit-sim-weather');
    expect(rec.model).toBe('outfit-sim-1');
    expect(rec.weather.temp_unit).toBe('°C');
    expect(rec.weather.wind_speed_unit).toBe('km/h');
    expect(rec.outfit.length).toBeGreaterThan(20);
    expect(rec.reasoning).toContain(`${rec.weather.temp}°C`);
  });

  it('stamps generated_at from the injected clock, with milliseconds and Z', async () => {
    const rec = RecWeatherSchema.parse((await post('/v1/recweather', { body: BERLIN })).json());
    expect(rec.generated_at).toBe('2026-01-15T12:00:00.123Z');
    expect(rec.generated_at).toMatch(ISO_UTC_MS);
  });

  it('returns the same weather for the same point within a 10-minute bucket', async () => {
    const a = RecWeatherSchema.parse((await post('/v1/recweather', { body: BERLIN })).json());
    clock.advance(5 * 60_000);
    const b = RecWeatherSchema.parse((await post('/v1/recweather', { body: BERLIN })).json());
    expect(b.weather).toEqual(a.weather);
    expect(b.outfit).toBe(a.outfit);
    expect(b.generated_at).not.toBe(a.generated_at);
  });

  it('varies with place and time', async () => {
    const temps = new Set<number>();
    for (const [lat, lon] of [
      [52.52, 13.4],
      [1.35, 103.8],
      [-33.87, 151.21],
      [69.65, 18.96],
      [30.04, 31.24],
    ] as const) {
      temps.add(RecWeatherSchema.parse((await post('/v1/recweather', { body: { lat, lon } })).json()).weather.temp);
    }
    expect(temps.size).toBeGreaterThanOrEqual(4);
    const jan = RecWeatherSchema.parse((await post('/v1/recweather', { body: BERLIN })).json());
    clock.set(Date.parse('2026-07-15T12:00:00Z'));
    const jul = RecWeatherSchema.parse((await post('/v1/recweather', { body: BERLIN })).json());
    expect(jul.weather.temp).toBeGreaterThan(jan.weather.temp);
  });
});

describe('POST /v1/recommend', () => {
  it('answers a Recommendation whose weather has exactly the spec fields, no source', async () => {
    const r = await post('/v1/recommend', { body: { ...BERLIN, gender: 'female' } });
    expect(r.status).toBe(200);
    const rec = RecommendationSchema.parse(r.json());
    expect(rec.weather).not.toHaveProperty('source');
    expect(Object.keys(rec.weather).sort()).toEqual(SPEC_WEATHER_FIELDS);
    expect(rec.generated_at).toBe('2026-01-15T12:00:00.123Z');
  });

  it('carries the same key conditions as /recweather for the same point and time', async () => {
    const full = RecWeatherSchema.parse((await post('/v1/recweather', { body: BERLIN })).json());
    const key = RecommendationSchema.parse((await post('/v1/recommend', { body: BERLIN })).json());
    for (const field of SPEC_WEATHER_FIELDS) {
      expect(key.weather[field], field).toEqual(full.weather[field]);
    }
  });
});

describe('GET /v1/weather', () => {
  it('answers the weather object at the top level, without source: /recweather is that plus source', async () => {
    const r = await get(`/v1/weather?lat=${BERLIN.lat}&lon=${BERLIN.lon}`);
    expect(r.status).toBe(200);
    const w = GetWeatherSchema.parse(r.json());
    expect(r.json()).not.toHaveProperty('source');
    expect(w.temp_unit).toBe('°C');
    expect(r.json()).not.toHaveProperty('weather');
    const rec = RecWeatherSchema.parse((await post('/v1/recweather', { body: BERLIN })).json());
    expect(rec.weather).toEqual({ ...w, source: 'outfit-sim-weather' });
  });

  it('converts to °F and mph with unit=imperial', async () => {
    const metric = GetWeatherSchema.parse((await get('/v1/weather?lat=40.7&lon=-74&unit=metric')).json());
    const imperial = GetWeatherSchema.parse((await get('/v1/weather?lat=40.7&lon=-74&unit=imperial')).json());
    expect(imperial.temp_unit).toBe('°F');
    expect(imperial.wind_speed_unit).toBe('mph');
    expect(imperial.temp).toBeCloseTo((metric.temp * 9) / 5 + 32, 1);
    expect(imperial.feels_like).toBeCloseTo((metric.feels_like * 9) / 5 + 32, 1);
    expect(imperial.wind_speed).toBeCloseTo(metric.wind_speed / 1.609344, 1);
    for (const v of [imperial.temp, imperial.feels_like, imperial.wind_speed]) {
      expect(Math.round(v * 10) / 10).toBe(v);
    }
    expect(imperial.description).toBe(metric.description);
    expect(imperial.humidity_pct).toBe(metric.humidity_pct);
  });
});

describe('units on the POST endpoints', () => {
  it('defaults to metric and honours imperial', async () => {
    const metric = RecWeatherSchema.parse((await post('/v1/recweather', { body: BERLIN })).json());
    const imperial = RecWeatherSchema.parse(
      (await post('/v1/recweather', { body: { ...BERLIN, unit: 'imperial' } })).json(),
    );
    expect(metric.weather.temp_unit).toBe('°C');
    expect(imperial.weather.temp_unit).toBe('°F');
    expect(imperial.weather.wind_speed_unit).toBe('mph');
    expect(imperial.weather.temp).toBeCloseTo((metric.weather.temp * 9) / 5 + 32, 1);
    expect(imperial.reasoning).toContain('°F');
    expect(imperial.reasoning).not.toContain('°C');
  });
});

describe('routing', () => {
  it('answers 404 with a JSON error for unknown paths, in and outside /v1', async () => {
    for (const path of ['/v1/nope', '/', '/v2/recommend', '/recommend']) {
      const r = await post(path, { body: BERLIN });
      expect(r.status, path).toBe(404);
      expect(errorOf(r)).toMatch(/not found/);
    }
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const a = await get('/v1/recommend');
    expect(a.status).toBe(405);
    expect(a.headers.allow).toBe('POST, OPTIONS');
    expect(errorOf(a)).toMatch(/use POST/);
    const b = await post('/v1/weather', { body: BERLIN });
    expect(b.status).toBe(405);
    expect(b.headers.allow).toBe('GET, OPTIONS');
    const c = await call(sim, 'DELETE', '/v1/recweather', {}, DEMO_API_KEY);
    expect(c.status).toBe(405);
  });
});

describe('stats', () => {
  it('records each request with the key fingerprint, never the key', async () => {
    await post('/v1/recommend', { body: BERLIN });
    await post('/v1/recweather', { body: {} });
    const stats = sim.stats();
    expect(stats.requests).toEqual([
      {
        time: T0 + 123,
        method: 'POST',
        path: '/v1/recommend',
        keyFingerprint: keyFingerprint(DEMO_API_KEY),
        status: 200,
        creditsCharged: 2,
      },
      {
        time: T0 + 123,
        method: 'POST',
        path: '/v1/recweather',
        keyFingerprint: keyFingerprint(DEMO_API_KEY),
        status: 400,
        creditsCharged: 0,
      },
    ]);
    expect(JSON.stringify(stats)).not.toContain(DEMO_API_KEY);
    const overHttp = await call(sim, 'GET', '/_sim/stats', { key: null });
    expect(overHttp.status).toBe(200);
    expect(overHttp.json()).toEqual(JSON.parse(JSON.stringify(stats)));
  });
});
