import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutfitClient } from '../../src/api/client.js';
import { BadResponseError } from '../../src/api/errors.js';
import { readResponse, type ShapeNote } from '../../src/api/schemas.js';
import { weatherChange } from '../../src/budget/change-aware.js';
import { deviceDiscovery } from '../../src/mqtt/ha-discovery.js';
import { diagnosticsPayload, statePayload } from '../../src/state/state-payload.js';
import { mqttTopics } from '../../src/mqtt/topics.js';
import { checkStates } from '../mqtt/ha-checker.js';
import { NORMAL } from '../fixtures/samples.js';
import { display } from '../fixtures/display.js';

/**
 * The client against a stand-in service that answers, over a real socket, whatever body a test gives it: forms the
 * simulated service never sends (generated_at with an offset, alerts of another shape, 1e400).
 */

let server: Server;
let body = '';
let base = '';
const { fetched_at: _fetched, ...SPEC_BODY } = NORMAL;

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function answer(json: unknown, text?: string): Promise<{ value?: unknown; error?: unknown; notes: ShapeNote[] }> {
  body = text ?? JSON.stringify(json);
  const notes: ShapeNote[] = [];
  const c = new OutfitClient({ baseUrl: base, apiKey: 'sk_live_standin', onShapeNotes: (ns) => notes.push(...ns) });
  try {
    return { value: await c.recweather({ lat: 52.5, lon: 13.4 }), notes };
  } catch (error) {
    return { error, notes };
  } finally {
    await c.close();
  }
}

const withWeather = (patch: Record<string, unknown>): unknown => ({
  ...SPEC_BODY,
  weather: { ...SPEC_BODY.weather, ...patch },
});

describe('tolerant reader > generated_at in another valid form', () => {
  it.each([
    ['without milliseconds', '2026-11-21T07:30:00Z'],
    ['with +00:00', '2026-11-21T07:30:00.000+00:00'],
    ['with an offset and no seconds', '2026-11-21T08:30+01:00'],
  ])('%s: accepted as the service wrote it, noted as another form', async (_name, generatedAt) => {
    const r = await answer({ ...SPEC_BODY, generated_at: generatedAt });
    expect(r.error).toBeUndefined();
    expect(r.value).toMatchObject({ generated_at: generatedAt, outfit: SPEC_BODY.outfit });
    expect(r.notes).toEqual([expect.objectContaining({ field: 'generated_at', problem: 'other_form' })]);
  });

  it.each([
    ['no zone', '2026-11-21T07:30:00'],
    ['not a date', 'yesterday'],
    ['a day that does not exist', '2026-02-30T07:30:00Z'],
  ])('%s: dropped, the answer still taken', async (_name, generatedAt) => {
    const r = await answer({ ...SPEC_BODY, generated_at: generatedAt });
    expect(r.value).toBeDefined();
    expect((r.value as { generated_at?: string }).generated_at).toBeUndefined();
    expect(r.notes).toEqual([expect.objectContaining({ field: 'generated_at', problem: 'wrong_type' })]);
  });
});

describe('tolerant reader > readings and alerts', () => {
  it('a weather object without readings is accepted: every reading noted, alerts []', async () => {
    const r = await answer({ ...SPEC_BODY, weather: {} });
    const w = (r.value as { weather: Record<string, unknown> }).weather;
    expect(w.alerts).toEqual([]);
    expect(w.temp).toBeUndefined();
    expect(r.notes.map((n) => n.field)).toEqual(
      expect.arrayContaining([
        'weather.temp',
        'weather.feels_like',
        'weather.is_day',
        'weather.alerts',
        'weather.source',
      ]),
    );
    expect(r.notes.every((n) => n.problem === 'missing')).toBe(true);
  });

  it('1e400 (Infinity once parsed) is dropped, and the note says why', async () => {
    const text = JSON.stringify(SPEC_BODY).replace(/"temp":[^,]+,/, '"temp":1e400,');
    const r = await answer(null, text);
    expect((r.value as { weather: { temp?: number } }).weather.temp).toBeUndefined();
    expect(r.notes).toEqual([
      {
        field: 'weather.temp',
        problem: 'wrong_type',
        detail: 'expected a finite number, got a number too large to represent',
      },
    ]);
  });

  it('alerts of another shape: objects of any fields kept; one alert outside an array taken; other items dropped', async () => {
    const nested = { properties: { headline: 'Storm' } };
    expect(
      ((await answer(withWeather({ alerts: [nested] }))).value as { weather: { alerts: unknown } }).weather.alerts,
    ).toEqual([nested]);
    const single = await answer(withWeather({ alerts: 'Flood warning' }));
    expect((single.value as { weather: { alerts: unknown } }).weather.alerts).toEqual(['Flood warning']);
    expect(single.notes).toEqual([expect.objectContaining({ field: 'weather.alerts', problem: 'other_form' })]);
    const mixed = await answer(withWeather({ alerts: ['Ice', 42, null] }));
    expect((mixed.value as { weather: { alerts: unknown } }).weather.alerts).toEqual(['Ice']);
    expect(mixed.notes).toEqual([expect.objectContaining({ field: 'weather.alerts', problem: 'wrong_type' })]);
  });

  it('fields beyond the spec are kept; booleans and strings in other forms are taken', async () => {
    const r = await answer({
      ...(withWeather({ is_day: 'false', wind_dir: 315, aqi: 12 }) as object),
      request_id: 'r1',
    });
    expect(r.value).toMatchObject({ request_id: 'r1', weather: { is_day: false, wind_dir: '315', aqi: 12 } });
    expect(r.notes.map((n) => [n.field, n.problem])).toEqual([
      ['weather.wind_dir', 'other_form'],
      ['weather.is_day', 'other_form'],
    ]);
  });
});

describe('tolerant reader > what stays E_BAD_RESPONSE', () => {
  it.each([
    ['no outfit', { ...SPEC_BODY, outfit: undefined }, 'outfit'],
    ['an outfit of spaces', { ...SPEC_BODY, outfit: '   ' }, 'outfit'],
    ['an outfit that is a number', { ...SPEC_BODY, outfit: 7 }, 'outfit'],
    ['no weather', { ...SPEC_BODY, weather: undefined }, 'weather'],
    ['weather as an array', { ...SPEC_BODY, weather: [] }, 'weather'],
    ['a body that is an array', [], '(body)'],
  ])('%s', async (_name, json, field) => {
    const r = await answer(json);
    expect(r.error).toBeInstanceOf(BadResponseError);
    expect((r.error as BadResponseError).field).toBe(field);
    expect((r.error as BadResponseError).code).toBe('E_BAD_RESPONSE');
  });

  it('a body that is not JSON', async () => {
    const r = await answer(null, '{"outfit": "coat", "weath');
    expect((r.error as BadResponseError).field).toBeNull();
  });

  it('GET /weather needs only an object', () => {
    expect(readResponse('weather', {})).toMatchObject({ ok: true, value: { alerts: [] } });
    expect(readResponse('weather', 'sunny')).toMatchObject({ ok: false, field: '(body)' });
  });
});

describe('tolerant reader > a missing reading downstream', () => {
  it('Home Assistant gets null for it (its sensor shows unknown), and every state stays valid', () => {
    const read = readResponse('recweather', { outfit: 'A coat.', weather: { temp: 4, temp_unit: '°C', alerts: [] } });
    if (!read.ok) throw new Error(read.reason);
    const stored = { ...read.value, fetched_at: '2026-01-31T07:00:01.000Z' };
    const topics = mqttTopics('outfit-display', 'homeassistant');
    const { payload } = deviceDiscovery({
      display: display('hallway'),
      topics,
      swVersion: '0.1.0',
      expireAfterS: 5400,
    });
    const state = statePayload(stored, new Date('2026-01-31T07:30:00Z'), { kind: 'ok' }, 'Europe/Berlin');
    expect(JSON.parse(state)).toMatchObject({
      model: null,
      reasoning: null,
      generated_at: null,
      weather: { temp: 4, humidity_pct: null, wind_dir: null },
    });
    const retained = new Map<string, Buffer>([
      [topics.state('hallway'), Buffer.from(state)],
      [topics.diagnostics('hallway'), Buffer.from(diagnosticsPayload({ kind: 'ok' }, null, 'Europe/Berlin'))],
      [topics.image('hallway'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1])],
    ]);
    const { problems, states } = checkStates(payload, retained);
    expect(problems).toEqual([]);
    expect(states).toMatchObject({
      temperature: '4',
      humidity: 'None',
      feels_like: 'None',
      uv_index: 'None',
      alerts: 'OFF',
    });
  });

  it('change-aware mode compares only the readings both sides have', () => {
    const cfg = {
      temp_delta: 3,
      rain_threshold_pct: 40,
      conditions: true,
      day_night: true,
      max_age_minutes: 180,
    } as Parameters<typeof weatherChange>[2];
    const full = {
      temp: 10,
      feels_like: 8,
      temp_unit: '°C',
      rain_chance_pct: 10,
      description: 'Cloudy',
      is_day: true,
      alerts: [],
    };
    expect(weatherChange(full, { alerts: [] }, cfg)).toBeNull();
    expect(weatherChange({ alerts: [] }, full, cfg)).toBeNull();
    expect(weatherChange(full, { temp: 14, alerts: [] }, cfg)).toMatch(/^temperature 10°C → 14°C/);
  });
});
