import { request } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keyFingerprint } from '../../src/service-sim/credits.js';
import type { Fault } from '../../src/service-sim/faults.js';
import type { BillingMode } from '../../src/service-sim/billing.js';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import type { RunningServiceSim } from '../../src/service-sim/server.js';
import { runCli } from '../helpers/cli.js';
import { simHttpControl, startSimProcess } from '../helpers/service-sim-process.js';
import { BERLIN, call, startSim } from './helpers.js';

const KEY = 'sk_live_billing_test_key_000000000';
const FP = keyFingerprint(KEY);

let sim: RunningServiceSim;
afterEach(async () => {
  await sim.close();
});

const recweather = (key: string | null = KEY) => call(sim, 'POST', '/v1/recweather', { key, body: BERLIN });
const billed = () => sim.stats().creditsBilled;

/** One /recweather with `fault` queued: its status and what was billed for it. */
async function faulted(fault: Fault | null): Promise<{ status: number | null; billed: number }> {
  if (fault) sim.injectFault({ ...fault, path: 'recweather' });
  const before = billed();
  const status = await recweather().then(
    (r) => r.status,
    () => null,
  );
  return { status, billed: billed() - before };
}

const CASES: Array<[string, Fault | null, number | null]> = [
  ['a good answer', null, 200],
  ['malformed_json (a 200 whose body breaks)', { kind: 'malformed_json' }, 200],
  ['missing_field', { kind: 'missing_field', field: 'weather.temp' }, 200],
  ['wrong_type', { kind: 'wrong_type', field: 'generated_at' }, 200],
  ['status 500', { kind: 'status', status: 500 }, 500],
  ['rate_limit (429 from a fault)', { kind: 'rate_limit' }, 429],
  ['html_error', { kind: 'html_error' }, 502],
  ['reset', { kind: 'reset' }, null],
];

/** Credits billed per case and mode: recweather costs 3. */
const EXPECTED: Record<BillingMode, number[]> = {
  success: [3, 0, 0, 0, 0, 0, 0, 0],
  'every-200': [3, 3, 3, 3, 0, 0, 0, 0],
  'every-request': [3, 3, 3, 3, 3, 3, 3, 3],
};

describe('service-sim billing', () => {
  it.each(Object.keys(EXPECTED) as BillingMode[])(
    '%s: bills each fault as the mode says, and stats say so',
    async (mode) => {
      sim = await startSim({ keys: { [KEY]: { credits: 1000 } }, billing: mode });
      const got: number[] = [];
      for (const [name, fault, status] of CASES) {
        const r = await faulted(fault);
        expect(r.status, name).toBe(status);
        got.push(r.billed);
      }
      expect(got).toEqual(EXPECTED[mode]);
      const stats = sim.stats();
      expect(stats.billing).toBe(mode);
      expect(stats.creditsBilledByKey).toEqual({ [FP]: stats.creditsBilled });
      expect(stats.creditsLeft[FP]).toBe(1000 - stats.creditsBilled);
      expect(stats.requests.reduce((n, r) => n + r.creditsCharged, 0)).toBe(stats.creditsBilled);
    },
  );

  it('every-200 bills an answer the client stopped waiting for; success does not', async () => {
    for (const mode of ['every-200', 'success'] as const) {
      sim = await startSim({ keys: { [KEY]: { credits: 100 } }, billing: mode });
      sim.injectFault({ kind: 'slow', delay_ms: 400 });
      const origin = new URL(sim.url).origin;
      await expect(
        request(`${origin}/v1/recweather`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify(BERLIN),
          signal: AbortSignal.timeout(50),
        }),
      ).rejects.toThrow();
      // The service finishes the work after the client left: its record appears once it has.
      await vi.waitFor(() => expect(sim.stats().requests).toHaveLength(1), { timeout: 3000 });
      const [rec] = sim.stats().requests;
      expect(rec).toMatchObject({ status: null, fault: 'slow', creditsCharged: mode === 'every-200' ? 3 : 0 });
      await sim.close();
    }
    sim = await startSim();
  });

  it('never bills a request it refused before any work, and never below zero', async () => {
    sim = await startSim({ keys: { [KEY]: { credits: 4 } }, billing: 'every-request', ratePerMinute: 3 });
    expect((await recweather(null)).status).toBe(401);
    expect((await call(sim, 'GET', '/v1/nope', { key: KEY })).status).toBe(404);
    expect((await recweather()).status).toBe(200); // 4 → 1
    sim.injectFault({ kind: 'status', status: 503 });
    expect((await recweather()).status).toBe(503); // 1 left, 3 needed: not billed
    expect((await recweather()).status).toBe(429); // the window is full (3 a minute): refused, not billed
    expect(sim.stats().creditsLeft[FP]).toBe(1);
    expect(billed()).toBe(3);
  });

  it('bills a request the service rejected (400) only under every-request', async () => {
    sim = await startSim({ keys: { [KEY]: { credits: 10 } }, billing: 'every-200' });
    expect((await call(sim, 'POST', '/v1/recweather', { key: KEY, body: { lat: 1 } })).status).toBe(400);
    expect(billed()).toBe(0);
    sim.setBilling('every-request');
    expect((await call(sim, 'POST', '/v1/recweather', { key: KEY, body: { lat: 1 } })).status).toBe(400);
    expect(billed()).toBe(3);
  });

  it('the mode is read and changed over HTTP (PUT /_sim/billing), and an unknown one is refused', async () => {
    sim = await startSim({ keys: { [KEY]: { credits: 10 } } });
    expect((await call(sim, 'GET', '/_sim/billing')).json()).toEqual({ billing: 'success' });
    const put = await call(sim, 'PUT', '/_sim/billing', { body: { billing: 'every-200' } });
    expect(put.status).toBe(200);
    expect(put.json()).toEqual({ billing: 'every-200' });
    sim.injectFault({ kind: 'malformed_json' });
    await recweather();
    expect((await call(sim, 'GET', '/_sim/stats')).json()).toMatchObject({ billing: 'every-200', creditsBilled: 3 });
    const bad = await call(sim, 'PUT', '/_sim/billing', { body: { billing: 'sometimes' } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('success, every-200, every-request');
    expect(() => sim.setBilling('never' as BillingMode)).toThrow(RangeError);
    // The helper the process tests use.
    await simHttpControl(sim.url).setBilling('every-request');
    expect(sim.stats().billing).toBe('every-request');
  });
});

describe('service-sim command line', () => {
  it('--credits, --rate-limit and --billing set the demo key, the window and the mode', async () => {
    sim = await startSim(); // closed by afterEach; this test drives its own process
    const proc = await startSimProcess(['--credits', '7', '--rate-limit', '2', '--billing', 'every-200']);
    try {
      const url = proc.url;
      const origin = new URL(url).origin;
      const post = async (): Promise<number> => {
        const res = await request(`${url}/recweather`, {
          method: 'POST',
          headers: { authorization: `Bearer ${DEMO_API_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify(BERLIN),
        });
        await res.body.text();
        return res.statusCode;
      };
      expect(await post()).toBe(200);
      expect(await post()).toBe(200);
      expect(await post()).toBe(429);
      const stats = (await (await request(`${origin}/_sim/stats`)).body.json()) as {
        billing: string;
        creditsLeft: Record<string, number>;
      };
      expect(stats.billing).toBe('every-200');
      expect(stats.creditsLeft[keyFingerprint(DEMO_API_KEY)]).toBe(1);
    } finally {
      await proc.stop();
    }
  });

  it.each([
    [['--billing', 'sometimes'], '--billing must be one of success, every-200, every-request'],
    [['--credits', 'lots'], '--credits must be a whole number >= 0'],
    [['--rate-limit', '0'], '--rate-limit must be a whole number >= 1'],
  ])('%j is bad usage (exit 2)', async (args, message) => {
    sim = await startSim();
    const r = await runCli(['service-sim', '--port', '0', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});
