import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import type { RunningServiceSim } from '../../src/service-sim/server.js';
import { BERLIN, call, errorOf, startSim, T0 } from './helpers.js';
import { manualClock } from '../helpers/fake-clock.js';
import type { Reply } from './helpers.js';

const KEY_B = 'sk_live_second_key_000000000000000';

let sim: RunningServiceSim;
afterEach(async () => {
  await sim.close();
});

const cheap = (key: string | null = DEMO_API_KEY): Promise<Reply> =>
  call(sim, 'GET', `/v1/weather?lat=${BERLIN.lat}&lon=${BERLIN.lon}`, { key });

function expectCors(r: Reply): void {
  expect(r.headers['access-control-allow-origin']).toBe('*');
  const exposed = (r.headers['access-control-expose-headers'] ?? '').split(/,\s*/).map((h) => h.toLowerCase());
  expect(exposed).toEqual(expect.arrayContaining(['x-ratelimit-limit', 'x-ratelimit-remaining', 'retry-after']));
}

describe('CORS', () => {
  it('answers a preflight with 204, no key needed, without counting or charging it', async () => {
    sim = await startSim();
    const r = await call(sim, 'OPTIONS', '/v1/recweather', {
      key: null,
      headers: {
        origin: 'https://example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expectCors(r);
    expect(r.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
    expect(r.headers['access-control-allow-headers']).toBe('Authorization, Content-Type');
    expect(Number(r.headers['access-control-max-age'])).toBeGreaterThan(0);
    expect(r.headers['x-ratelimit-remaining']).toBe('60');
    for (let i = 0; i < 70; i++) await call(sim, 'OPTIONS', '/v1/recweather', { key: DEMO_API_KEY });
    const after = await cheap();
    expect(after.status).toBe(200);
    expect(after.headers['x-ratelimit-remaining']).toBe('59');
    expect(Object.values(sim.stats().creditsLeft)).toEqual([1_000_000 - 1]);
  });

  it('allows any origin on successes and on errors', async () => {
    sim = await startSim();
    const replies = [
      await call(sim, 'POST', '/v1/recweather', {
        key: DEMO_API_KEY,
        body: BERLIN,
        headers: { origin: 'https://a.example' },
      }),
      await call(sim, 'POST', '/v1/recweather', { key: DEMO_API_KEY, body: {}, headers: { origin: 'null' } }),
      await call(sim, 'POST', '/v1/recweather', { key: null, body: BERLIN }),
      await call(sim, 'GET', '/v1/missing', { key: DEMO_API_KEY }),
    ];
    expect(replies.map((r) => r.status)).toEqual([200, 400, 401, 404]);
    replies.forEach(expectCors);
  });
});

describe('rate-limit headers', () => {
  it('are on every response: success, 400, 401, 404, 405, 415', async () => {
    sim = await startSim();
    const replies = [
      await cheap(),
      await call(sim, 'POST', '/v1/recommend', { key: DEMO_API_KEY, body: { lat: 'x' } }),
      await call(sim, 'POST', '/v1/recommend', { key: DEMO_API_KEY, raw: '{}', contentType: 'text/plain' }),
      await call(sim, 'GET', '/v1/nowhere', { key: DEMO_API_KEY }),
      await call(sim, 'GET', '/v1/recommend', { key: DEMO_API_KEY }),
    ];
    expect(replies.map((r) => r.status)).toEqual([200, 400, 415, 404, 405]);
    replies.forEach((r, i) => {
      expect(r.headers['x-ratelimit-limit']).toBe('60');
      expect(r.headers['x-ratelimit-remaining']).toBe(String(59 - i));
      expect(r.headers['retry-after']).toBeUndefined();
    });
    const unauth = await cheap(null);
    expect(unauth.status).toBe(401);
    expect(unauth.headers['x-ratelimit-limit']).toBe('60');
    // Without a valid key the request counts in the remote address's bucket, not the key's.
    expect(unauth.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('follow ratePerMinute', async () => {
    sim = await startSim({ ratePerMinute: 5 });
    const r = await cheap();
    expect(r.headers['x-ratelimit-limit']).toBe('5');
    expect(r.headers['x-ratelimit-remaining']).toBe('4');
  });
});

describe('the sliding 60-second window', () => {
  it('refuses the 61st request in a window with 429 and Retry-After, without counting it', async () => {
    const clock = manualClock(T0);
    sim = await startSim({ clock });
    for (let i = 0; i < 60; i++) {
      const r = await cheap();
      expect(r.status).toBe(200);
      expect(r.headers['x-ratelimit-remaining']).toBe(String(59 - i));
    }
    const limited = await cheap();
    expect(limited.status).toBe(429);
    expect(errorOf(limited)).toMatch(/^rate limit exceeded/);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited.headers['x-ratelimit-limit']).toBe('60');
    expectCors(limited);

    clock.advance(59_001); // 999 ms before the first slot frees: Retry-After rounds up to 1
    const stillLimited = await cheap();
    expect(stillLimited.status).toBe(429);
    expect(stillLimited.headers['retry-after']).toBe('1');

    clock.advance(999); // exactly 60 s after the first 60: all slots free, the 429s did not count
    const ok = await cheap();
    expect(ok.status).toBe(200);
    expect(ok.headers['x-ratelimit-remaining']).toBe('59');
    const charged = sim
      .stats()
      .requests.filter((r) => r.status === 429)
      .map((r) => r.creditsCharged);
    expect(charged).toEqual([0, 0]);
  });

  it('slides: slots free one by one as their requests age out', async () => {
    const clock = manualClock(T0);
    sim = await startSim({ clock });
    for (let i = 0; i < 30; i++) await cheap(); // at t = 0
    clock.advance(30_000);
    for (let i = 0; i < 30; i++) await cheap(); // at t = 30 s
    const full = await cheap();
    expect(full.status).toBe(429);
    expect(full.headers['retry-after']).toBe('30');

    clock.advance(30_000); // t = 60 s: the first 30 have aged out
    const r = await cheap();
    expect(r.status).toBe(200);
    expect(r.headers['x-ratelimit-remaining']).toBe('29');
    for (let i = 0; i < 29; i++) expect((await cheap()).status).toBe(200);
    const again = await cheap();
    expect(again.status).toBe(429);
    expect(again.headers['retry-after']).toBe('30');
  });

  it('counts per key: one key at its limit leaves another untouched', async () => {
    const clock = manualClock(T0);
    sim = await startSim({
      clock,
      ratePerMinute: 3,
      keys: { [DEMO_API_KEY]: { credits: 100 }, [KEY_B]: { credits: 100 } },
    });
    for (let i = 0; i < 3; i++) expect((await cheap()).status).toBe(200);
    expect((await cheap()).status).toBe(429);
    const b = await cheap(KEY_B);
    expect(b.status).toBe(200);
    expect(b.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('counts requests without a valid key per remote address, apart from the keys', async () => {
    const clock = manualClock(T0);
    sim = await startSim({ clock, ratePerMinute: 3 });
    for (let i = 0; i < 3; i++) expect((await cheap('sk_live_wrong_key_00000000000000')).status).toBe(401);
    const limited = await cheap(null);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    const keyed = await cheap();
    expect(keyed.status).toBe(200);
    expect(keyed.headers['x-ratelimit-remaining']).toBe('2');
  });
});
