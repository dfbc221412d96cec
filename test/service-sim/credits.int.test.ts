import { afterEach, describe, expect, it } from 'vitest';
import { CREDIT_COSTS, keyFingerprint } from '../../src/service-sim/credits.js';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import type { RunningServiceSim } from '../../src/service-sim/server.js';
import { BERLIN, call, errorOf, startSim } from './helpers.js';

const KEY = 'sk_live_credits_test_key_0000000000';
const FP = keyFingerprint(KEY);

let sim: RunningServiceSim;
afterEach(async () => {
  await sim.close();
});

const recommend = () => call(sim, 'POST', '/v1/recommend', { key: KEY, body: BERLIN });
const recweather = () => call(sim, 'POST', '/v1/recweather', { key: KEY, body: BERLIN });
const weather = () => call(sim, 'GET', '/v1/weather?lat=52.52&lon=13.405', { key: KEY });
const left = () => sim.stats().creditsLeft[FP];

describe('credits', () => {
  it('gives the demo key a million credits by default', async () => {
    sim = await startSim();
    expect(sim.stats().creditsLeft).toEqual({ [keyFingerprint(DEMO_API_KEY)]: 1_000_000 });
  });

  it('charges 2 for /recommend, 3 for /recweather, 1 for GET /weather, on success only', async () => {
    expect(CREDIT_COSTS).toEqual({ recommend: 2, recweather: 3, weather: 1 });
    sim = await startSim({ keys: { [KEY]: { credits: 100 } } });
    expect((await recommend()).status).toBe(200);
    expect(left()).toBe(98);
    expect((await recweather()).status).toBe(200);
    expect(left()).toBe(95);
    expect((await weather()).status).toBe(200);
    expect(left()).toBe(94);
    // Errors cost nothing.
    expect((await call(sim, 'POST', '/v1/recweather', { key: KEY, body: { lat: 1 } })).status).toBe(400);
    expect((await call(sim, 'GET', '/v1/weather', { key: KEY })).status).toBe(400);
    expect((await call(sim, 'GET', '/v1/nope', { key: KEY })).status).toBe(404);
    expect((await call(sim, 'GET', '/v1/recweather', { key: KEY })).status).toBe(405);
    expect(left()).toBe(94);
    expect(sim.stats().requests.map((r) => r.creditsCharged)).toEqual([2, 3, 1, 0, 0, 0, 0]);
  });

  it('answers 402 naming what is left and what is needed, and charges nothing', async () => {
    sim = await startSim({ keys: { [KEY]: { credits: 5 } } });
    expect((await recweather()).status).toBe(200); // 5 → 2
    const short = await recweather();
    expect(short.status).toBe(402);
    expect(errorOf(short)).toBe('insufficient credits: 2 left, 3 needed');
    expect(short.headers['x-ratelimit-remaining']).toBe('58');
    expect(left()).toBe(2);
    expect((await recommend()).status).toBe(200); // exactly enough: 2 → 0
    const none = await weather();
    expect(none.status).toBe(402);
    expect(errorOf(none)).toBe('insufficient credits: 0 left, 1 needed');
    expect(left()).toBe(0);
  });

  it('validates before charging: a bad request with no credits is 400, not 402', async () => {
    sim = await startSim({ keys: { [KEY]: { credits: 0 } } });
    expect((await call(sim, 'POST', '/v1/recommend', { key: KEY, body: { lon: 1 } })).status).toBe(400);
    expect((await recommend()).status).toBe(402);
  });

  it('setCredits tops a key up, or adds a new key', async () => {
    sim = await startSim({ keys: { [KEY]: { credits: 0 } } });
    expect((await recommend()).status).toBe(402);
    sim.setCredits(KEY, 4);
    expect((await recommend()).status).toBe(200);
    expect(left()).toBe(2);
    const fresh = 'sk_live_fresh_key_00000000000000000';
    expect((await call(sim, 'POST', '/v1/recommend', { key: fresh, body: BERLIN })).status).toBe(401);
    sim.setCredits(fresh, 3);
    expect((await call(sim, 'POST', '/v1/recommend', { key: fresh, body: BERLIN })).status).toBe(200);
    expect(sim.stats().creditsLeft[keyFingerprint(fresh)]).toBe(1);
    expect(() => sim.setCredits(fresh, -1)).toThrow(RangeError);
  });

  it('reports balances by fingerprint, never by key', async () => {
    sim = await startSim({ keys: { [KEY]: { credits: 7 } } });
    sim.revokeKey(KEY);
    const stats = sim.stats();
    expect(stats.creditsLeft).toEqual({ [FP]: 7 });
    expect(stats.revoked).toEqual([FP]);
    expect(FP).toMatch(/^fp_[0-9a-f]{12}$/);
    expect(JSON.stringify(stats)).not.toContain(KEY);
  });
});
