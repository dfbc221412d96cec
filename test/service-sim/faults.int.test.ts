import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecWeatherSchema, RecommendationSchema, GetWeatherSchema } from './spec-schemas.js';
import { keyFingerprint } from '../../src/service-sim/credits.js';
import type { Fault } from '../../src/service-sim/faults.js';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import type { RunningServiceSim } from '../../src/service-sim/server.js';
import { BERLIN, call, errorOf } from './helpers.js';
import type { Reply } from './helpers.js';
import { startSim } from './helpers.js';

const FP = keyFingerprint(DEMO_API_KEY);
const START_CREDITS = 1_000;

let sim: RunningServiceSim;
let slept: number[];
let releaseSleep: (() => void) | undefined;

beforeEach(async () => {
  slept = [];
  releaseSleep = undefined;
  sim = await startSim({
    keys: { [DEMO_API_KEY]: { credits: START_CREDITS } },
    // The 'slow' fault's delay goes through this: recorded, and held until the test releases it.
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        slept.push(ms);
        releaseSleep = resolve;
      }),
  });
});
afterEach(async () => {
  releaseSleep?.();
  await sim.close();
});

const recweather = (opts: { key?: string | null; body?: unknown } = {}): Promise<Reply> =>
  call(sim, 'POST', '/v1/recweather', {
    key: opts.key === undefined ? DEMO_API_KEY : opts.key,
    body: opts.body ?? BERLIN,
  });
const weather = (): Promise<Reply> => call(sim, 'GET', '/v1/weather?lat=52.52&lon=13.405', { key: DEMO_API_KEY });
const credits = (): number | undefined => sim.stats().creditsLeft[FP];

function expectRateHeaders(r: Reply): void {
  expect(r.headers['x-ratelimit-limit']).toBe('60');
  expect(r.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  expect(r.headers['access-control-allow-origin']).toBe('*');
}

const modes = {
  'in-process': (f: Fault | Fault[]): Promise<void> => {
    for (const one of Array.isArray(f) ? f : [f]) sim.injectFault(one);
    return Promise.resolve();
  },
  'over HTTP': async (f: Fault | Fault[]): Promise<void> => {
    const r = await call(sim, 'POST', '/_sim/faults', { key: null, body: f });
    expect(r.status).toBe(201);
    expect((r.json() as { queued: number }).queued).toBe(Array.isArray(f) ? f.length : 1);
  },
};

describe.each(Object.entries(modes))('faults injected %s', (_mode, inject) => {
  it('status: answers the status with a JSON error, once, uncharged, with rate-limit headers', async () => {
    await inject({ kind: 'status', status: 503, error: 'maintenance window' });
    const r = await recweather();
    expect(r.status).toBe(503);
    expect(errorOf(r)).toBe('maintenance window');
    expectRateHeaders(r);
    expect(credits()).toBe(START_CREDITS);
    expect((await recweather()).status).toBe(200);
    expect(credits()).toBe(START_CREDITS - 3);
  });

  it('status: 401, 402, 403, 500 with default messages, in order, before auth', async () => {
    await inject([
      { kind: 'status', status: 401 },
      { kind: 'status', status: 402 },
      { kind: 'status', status: 403 },
      { kind: 'status', status: 500 },
    ]);
    const replies = [await recweather(), await recweather({ key: null }), await recweather(), await recweather()];
    expect(replies.map((r) => r.status)).toEqual([401, 402, 403, 500]);
    expect(replies.map(errorOf)).toEqual([
      'invalid API key',
      'insufficient credits',
      'forbidden: this key may not use this endpoint',
      'internal server error',
    ]);
    expect(credits()).toBe(START_CREDITS);
  });

  it('rate_limit: 429 with Retry-After verbatim (seconds or an HTTP date), none when null, "1" by default', async () => {
    const date = 'Wed, 21 Oct 2026 07:28:00 GMT';
    await inject([
      { kind: 'rate_limit', retry_after: '5' },
      { kind: 'rate_limit', retry_after: date },
      { kind: 'rate_limit', retry_after: null },
      { kind: 'rate_limit' },
    ]);
    const replies = [await recweather(), await recweather(), await recweather(), await recweather()];
    expect(replies.map((r) => r.status)).toEqual([429, 429, 429, 429]);
    expect(replies.map((r) => r.headers['retry-after'])).toEqual(['5', date, undefined, '1']);
    for (const r of replies) {
      expect(errorOf(r)).toMatch(/rate limit exceeded/);
      expectRateHeaders(r);
      expect(r.headers['x-ratelimit-remaining']).toBe('0');
    }
    expect(credits()).toBe(START_CREDITS);
  });

  it('slow: waits delay_ms through the injected sleep, then answers normally, uncharged', async () => {
    await inject({ kind: 'slow', delay_ms: 25_000 });
    let settled = false;
    const pending = recweather().finally(() => (settled = true));
    await expect.poll(() => slept).toEqual([25_000]);
    // A later request to the same server is answered (a control one: not recorded, not charged) while the slow one
    // is still held.
    expect((await call(sim, 'GET', '/_sim/faults', { key: null })).status).toBe(200);
    expect(settled).toBe(false);
    releaseSleep?.();
    const r = await pending;
    expect(r.status).toBe(200);
    RecWeatherSchema.parse(r.json());
    expect(credits()).toBe(START_CREDITS);
    expect(sim.stats().requests.map((q) => q.fault)).toEqual(['slow']);
  });

  it('malformed_json: 200 with a JSON content type and a truncated body, uncharged', async () => {
    await inject({ kind: 'malformed_json' });
    const r = await recweather();
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.text.startsWith('{"outfit":')).toBe(true);
    expect(() => r.json()).toThrow(SyntaxError);
    expect(credits()).toBe(START_CREDITS);
  });

  it('html_error: 502 with a text/html proxy page and rate-limit headers', async () => {
    await inject({ kind: 'html_error' });
    const r = await recweather();
    expect(r.status).toBe(502);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.text).toContain('<h1>502 Bad Gateway</h1>');
    expect(() => r.json()).toThrow(SyntaxError);
    expectRateHeaders(r);
    expect(credits()).toBe(START_CREDITS);
  });

  it('reset: destroys the socket without answering; the next request is fine', async () => {
    await inject({ kind: 'reset' });
    await expect(recweather()).rejects.toThrow();
    expect((await recweather()).status).toBe(200);
    expect(sim.stats().requests.map((q) => [q.status, q.fault])).toEqual([
      [null, 'reset'],
      [200, undefined],
    ]);
  });

  it('missing_field: removes a top-level or dotted field from an otherwise valid body', async () => {
    await inject([
      { kind: 'missing_field', field: 'weather.temp' },
      { kind: 'missing_field', field: 'outfit' },
    ]);
    const a = await recweather();
    expect(a.status).toBe(200);
    const parsedA = RecWeatherSchema.safeParse(a.json());
    expect(parsedA.success).toBe(false);
    expect(parsedA.error?.issues.map((i) => i.path.join('.'))).toEqual(['weather.temp']);
    const b = await recweather();
    expect(b.json()).not.toHaveProperty('outfit');
    expect(RecWeatherSchema.safeParse(b.json()).error?.issues.map((i) => i.path.join('.'))).toEqual(['outfit']);
    expect(credits()).toBe(START_CREDITS);
  });

  it('wrong_type: sets a field to a value of the wrong type', async () => {
    await inject([
      { kind: 'wrong_type', field: 'weather.temp' },
      { kind: 'wrong_type', field: 'weather.is_day' },
      { kind: 'wrong_type', field: 'generated_at' },
    ]);
    const temp = (await recweather()).json() as { weather: Record<string, unknown> };
    expect(typeof temp.weather.temp).toBe('string');
    expect(Number(temp.weather.temp)).not.toBeNaN();
    expect(RecWeatherSchema.safeParse(temp).error?.issues.map((i) => i.path.join('.'))).toEqual(['weather.temp']);
    const day = (await recweather()).json() as { weather: Record<string, unknown> };
    expect(day.weather.is_day).toMatch(/^(yes|no)$/);
    const gen = (await recweather()).json() as Record<string, unknown>;
    expect(typeof gen.generated_at).toBe('number');
  });

  it('extra_fields: adds unknown fields at the top level and inside weather; the schemas still accept it', async () => {
    await inject([
      { kind: 'extra_fields', path: 'recweather' },
      { kind: 'extra_fields', path: 'weather' },
    ]);
    const rec = RecWeatherSchema.parse((await recweather()).json());
    expect(rec).toHaveProperty('request_id');
    expect(rec.weather).toHaveProperty('pollen_level');
    const w = GetWeatherSchema.parse((await weather()).json());
    expect(w).toHaveProperty('request_id');
    expect(w).toHaveProperty('aqi', 42);
    expect(credits()).toBe(START_CREDITS);
  });

  it('count and path: applies to that many matching requests, and only on its endpoint', async () => {
    await inject({ kind: 'status', status: 500, count: 2, path: 'weather' });
    expect((await recweather()).status).toBe(200);
    expect((await call(sim, 'POST', '/v1/recommend', { key: DEMO_API_KEY, body: BERLIN })).status).toBe(200);
    expect((await weather()).status).toBe(500);
    expect((await weather()).status).toBe(500);
    expect((await weather()).status).toBe(200);
  });

  it('body faults wait for a success: an error response goes out unchanged and the fault stays queued', async () => {
    await inject({ kind: 'missing_field', field: 'outfit' });
    const bad = await recweather({ body: { lat: 1 } });
    expect(bad.status).toBe(400);
    expect(errorOf(bad)).toBe('lon is required');
    expect(sim.stats().pendingFaults).toHaveLength(1);
    expect((await recweather()).json()).not.toHaveProperty('outfit');
    expect(sim.stats().pendingFaults).toHaveLength(0);
  });
});

describe('fault control', () => {
  it('clears queued faults in-process and over HTTP', async () => {
    sim.injectFault({ kind: 'status', status: 500 });
    sim.clearFaults();
    expect((await recweather()).status).toBe(200);
    await call(sim, 'POST', '/_sim/faults', { key: null, body: [{ kind: 'reset' }, { kind: 'html_error', count: 3 }] });
    const listed = await call(sim, 'GET', '/_sim/faults', { key: null });
    expect((listed.json() as { pending: unknown[] }).pending).toEqual([
      { kind: 'reset', remaining: 1 },
      { kind: 'html_error', count: 3, remaining: 3 },
    ]);
    const cleared = await call(sim, 'DELETE', '/_sim/faults', { key: null });
    expect(cleared.json()).toEqual({ cleared: 2 });
    expect((await recweather()).status).toBe(200);
  });

  it('rejects invalid faults with a message naming the problem', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ kind: 'explode' }, /invalid fault/],
      [{ kind: 'status' }, /status/],
      [{ kind: 'status', status: 200 }, /status/],
      [{ kind: 'slow' }, /delay_ms/],
      [{ kind: 'missing_field' }, /field/],
      [{ kind: 'reset', path: 'elsewhere' }, /path/],
      [{ kind: 'reset', count: 0 }, /count/],
      [{ kind: 'reset', surprise: true }, /invalid fault/],
      [[], /invalid fault/],
    ];
    for (const [fault, message] of cases) {
      const r = await call(sim, 'POST', '/_sim/faults', { key: null, body: fault });
      expect(r.status, JSON.stringify(fault)).toBe(400);
      expect(errorOf(r)).toMatch(message);
      if (!Array.isArray(fault)) expect(() => sim.injectFault(fault as Fault)).toThrow(message);
    }
    const notJson = await call(sim, 'POST', '/_sim/faults', { key: null, raw: '{', contentType: 'application/json' });
    expect(notJson.status).toBe(400);
    expect(sim.stats().pendingFaults).toEqual([]);
  });

  it('/_sim endpoints need no key, are not rate limited, charged or recorded', async () => {
    const limited = await startSim({ ratePerMinute: 1 });
    try {
      for (let i = 0; i < 5; i++) {
        const r = await call(limited, 'GET', '/_sim/stats', { key: null });
        expect(r.status).toBe(200);
        expect(r.headers['x-ratelimit-remaining']).toBeUndefined();
      }
      const first = await call(limited, 'GET', '/v1/weather?lat=1&lon=1', { key: DEMO_API_KEY });
      expect(first.status).toBe(200);
      expect(first.headers['x-ratelimit-remaining']).toBe('0');
      expect(limited.stats().requests).toHaveLength(1);
      expect((await call(limited, 'GET', '/_sim/nope', { key: null })).status).toBe(404);
      expect((await call(limited, 'PUT', '/_sim/stats', { key: null })).status).toBe(405);
    } finally {
      await limited.close();
    }
  });

  it('records the fault applied to each request in the stats', async () => {
    sim.injectFault({ kind: 'html_error' });
    sim.injectFault({ kind: 'extra_fields' });
    await recweather();
    RecommendationSchema.parse((await call(sim, 'POST', '/v1/recommend', { key: DEMO_API_KEY, body: BERLIN })).json());
    await recweather();
    expect(sim.stats().requests.map((r) => [r.path, r.status, r.fault, r.creditsCharged])).toEqual([
      ['/v1/recweather', 502, 'html_error', 0],
      ['/v1/recommend', 200, 'extra_fields', 0],
      ['/v1/recweather', 200, undefined, 3],
    ]);
  });
});
