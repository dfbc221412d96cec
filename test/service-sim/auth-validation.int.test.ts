import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema, RecWeatherSchema, GetWeatherSchema } from './spec-schemas.js';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import type { RunningServiceSim } from '../../src/service-sim/server.js';
import { BERLIN, call, errorOf, startSim } from './helpers.js';

const OTHER_KEY = 'sk_live_other_key_for_tests_000000';
const REVOKED_KEY = 'sk_live_revoked_key_for_tests_0000';

let sim: RunningServiceSim;
beforeAll(async () => {
  // A high rate limit: this file sends many requests from one address.
  sim = await startSim({
    ratePerMinute: 10_000,
    keys: { [DEMO_API_KEY]: { credits: 1_000 }, [OTHER_KEY]: { credits: 10 }, [REVOKED_KEY]: { credits: 10 } },
  });
  sim.revokeKey(REVOKED_KEY);
});
afterAll(async () => {
  await sim.close();
});

describe('authentication', () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    ['no Authorization header', {}, /missing API key.*Authorization: Bearer/],
    ['an empty Authorization header', { authorization: '' }, /missing API key/],
    ['a non-Bearer scheme', { authorization: `Basic ${DEMO_API_KEY}` }, /malformed Authorization header/],
    ['Bearer without a key', { authorization: 'Bearer' }, /malformed Authorization header/],
    [
      'an unknown sk_live_ key',
      { authorization: 'Bearer sk_live_unknown_0123456789abcdef' },
      /invalid API key: no such key/,
    ],
    [
      'a key without the sk_live_ prefix',
      { authorization: 'Bearer pk_test_123' },
      /invalid API key: keys begin with "sk_live_"/,
    ],
    ['a revoked key', { authorization: `Bearer ${REVOKED_KEY}` }, /revoked/],
  ];
  for (const [name, headers, message] of cases) {
    it(`answers 401 for ${name}, on every endpoint`, async () => {
      for (const [method, path] of [
        ['POST', '/v1/recommend'],
        ['POST', '/v1/recweather'],
        ['GET', '/v1/weather?lat=1&lon=2'],
      ] as const) {
        const r = await call(sim, method, path, { key: null, headers, ...(method === 'POST' ? { body: BERLIN } : {}) });
        expect(r.status, path).toBe(401);
        expect(r.headers['content-type']).toMatch(/^application\/json/);
        ErrorBodySchema.parse(r.json());
        expect(errorOf(r)).toMatch(message);
        for (const secret of [DEMO_API_KEY, REVOKED_KEY, 'sk_live_unknown_0123456789abcdef', 'pk_test_123']) {
          expect(r.text).not.toContain(secret);
        }
      }
    });
  }

  it('accepts any configured key and a case-insensitive scheme', async () => {
    const r = await call(sim, 'POST', '/v1/recweather', {
      key: null,
      headers: { authorization: `bearer ${OTHER_KEY}` },
      body: BERLIN,
    });
    expect(r.status).toBe(200);
    RecWeatherSchema.parse(r.json());
  });

  it('revokes a key at runtime', async () => {
    const key = 'sk_live_soon_revoked_000000000000';
    sim.setCredits(key, 5);
    expect((await call(sim, 'POST', '/v1/recommend', { key, body: BERLIN })).status).toBe(200);
    sim.revokeKey(key);
    const r = await call(sim, 'POST', '/v1/recommend', { key, body: BERLIN });
    expect(r.status).toBe(401);
    expect(errorOf(r)).toMatch(/revoked/);
  });
});

describe('POST body validation', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['missing lat', JSON.stringify({ lon: 13 }), /^lat is required$/],
    ['missing lon', JSON.stringify({ lat: 52 }), /^lon is required$/],
    ['lat as a string', JSON.stringify({ lat: '52.5', lon: 13 }), /^lat must be a number, got string$/],
    ['lat null', JSON.stringify({ lat: null, lon: 13 }), /^lat must be a number, got null$/],
    ['lon as a boolean', JSON.stringify({ lat: 52, lon: true }), /^lon must be a number, got boolean$/],
    ['lat above 90', JSON.stringify({ lat: 90.5, lon: 13 }), /^lat must be between -90 and 90, got 90.5$/],
    ['lat below -90', JSON.stringify({ lat: -91, lon: 13 }), /^lat must be between -90 and 90/],
    ['lon above 180', JSON.stringify({ lat: 52, lon: 180.01 }), /^lon must be between -180 and 180/],
    ['lon below -180', JSON.stringify({ lat: 52, lon: -200 }), /^lon must be between -180 and 180/],
    [
      'an unknown unit',
      JSON.stringify({ lat: 52, lon: 13, unit: 'kelvin' }),
      /^unit must be "metric" or "imperial", got "kelvin"$/,
    ],
    [
      'unit with the wrong case',
      JSON.stringify({ lat: 52, lon: 13, unit: 'Metric' }),
      /^unit must be "metric" or "imperial"/,
    ],
    ['gender as a number', JSON.stringify({ lat: 52, lon: 13, gender: 1 }), /^gender must be a string, got number$/],
    [
      'gender of 31 characters',
      JSON.stringify({ lat: 52, lon: 13, gender: 'x'.repeat(31) }),
      /^gender must be at most 30 characters, got 31$/,
    ],
    ['invalid JSON', '{"lat": 52,', /^request body is not valid JSON$/],
    ['an empty body', '', /^request body is empty/],
    ['a JSON array', '[52, 13]', /^request body must be a JSON object$/],
    ['a JSON string', '"hello"', /^request body must be a JSON object$/],
    ['JSON null', 'null', /^request body must be a JSON object$/],
  ];
  for (const [name, raw, message] of cases) {
    it(`answers 400 for ${name}, on both POST endpoints`, async () => {
      for (const path of ['/v1/recommend', '/v1/recweather']) {
        const r = await call(sim, 'POST', path, { key: DEMO_API_KEY, raw, contentType: 'application/json' });
        expect(r.status, path).toBe(400);
        expect(errorOf(r)).toMatch(message);
      }
    });
  }

  it('accepts the boundaries: lat ±90, lon ±180, gender of exactly 30 characters (emoji count as one)', async () => {
    for (const body of [
      { lat: 90, lon: 180 },
      { lat: -90, lon: -180 },
      { lat: 0, lon: 0, gender: 'x'.repeat(30) },
      { lat: 0, lon: 0, gender: '🙂'.repeat(30) },
      { lat: 0, lon: 0, gender: '', unit: 'imperial', extra: 'ignored' },
    ]) {
      const r = await call(sim, 'POST', '/v1/recweather', { key: DEMO_API_KEY, body });
      expect(r.status, JSON.stringify(body)).toBe(200);
      RecWeatherSchema.parse(r.json());
    }
  });

  it('answers 415 unless the Content-Type is application/json', async () => {
    for (const contentType of [null, 'text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
      const r = await call(sim, 'POST', '/v1/recommend', {
        key: DEMO_API_KEY,
        raw: JSON.stringify(BERLIN),
        contentType,
      });
      expect(r.status, String(contentType)).toBe(415);
      expect(errorOf(r)).toMatch(/Content-Type must be application\/json/);
    }
    const ok = await call(sim, 'POST', '/v1/recommend', {
      key: DEMO_API_KEY,
      raw: JSON.stringify(BERLIN),
      contentType: 'Application/JSON; charset=utf-8',
    });
    expect(ok.status).toBe(200);
  });

  it('checks the key before the body: a bad key with a bad body is 401', async () => {
    const r = await call(sim, 'POST', '/v1/recommend', { key: null, raw: 'nope', contentType: 'text/plain' });
    expect(r.status).toBe(401);
  });
});

describe('GET /v1/weather query validation', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /^lat query parameter is required$/],
    ['lat=52', /^lon query parameter is required$/],
    ['lon=13', /^lat query parameter is required$/],
    ['lat=&lon=13', /^lat query parameter is required$/],
    ['lat=abc&lon=13', /^lat must be a number, got "abc"$/],
    ['lat=52&lon=1e999', /^lon must be a number/],
    ['lat=95&lon=13', /^lat must be between -90 and 90, got 95$/],
    ['lat=52&lon=-181', /^lon must be between -180 and 180, got -181$/],
    ['lat=52&lon=13&unit=si', /^unit must be "metric" or "imperial", got "si"$/],
  ];
  for (const [query, message] of cases) {
    it(`answers 400 for ?${query}`, async () => {
      const r = await call(sim, 'GET', `/v1/weather?${query}`, { key: DEMO_API_KEY });
      expect(r.status).toBe(400);
      expect(errorOf(r)).toMatch(message);
    });
  }

  it('accepts lat/lon with an optional unit', async () => {
    const r = await call(sim, 'GET', '/v1/weather?lat=-33.87&lon=151.21&unit=imperial', { key: DEMO_API_KEY });
    expect(r.status).toBe(200);
    expect(GetWeatherSchema.parse(r.json()).temp_unit).toBe('°F');
  });
});
