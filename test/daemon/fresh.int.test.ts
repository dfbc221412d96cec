import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CronTimes } from '../../src/budget/cron-times.js';
import { resolveSchedules } from '../../src/budget/planner.js';
import { loadConfig } from '../../src/config/load.js';
import { httpRequest } from '../helpers/http-client.js';
import { until } from '../helpers/until.js';
import { shownView } from '../helpers/views.js';
import { daemonTests, hallwayState, injectFault, plantLastGood } from './helpers.js';

/**
 * Fresh, or visibly not: a failed purchase of a daily slot is tried again the same day, downtime is made
 * up at start, a restart under pacing never buys again. A whole daemon on a fake clock against the simulated service
 * over real HTTP; the test moves the clock and waits for what the daemon does.
 */

const t = daemonTests({ broker: false });
const MIN = 60_000;
const HOUR = 60 * MIN;

const state = hallwayState;

describe('a slot whose purchase failed', () => {
  it('a daily schedule whose first purchase fails (HTTP 500) buys when the backoff ends, the same day', async () => {
    // Daily, at the start's own minute: the start makes that slot up at once (nothing on show), and it fails.
    const r = await t.rig({ schedule: '{MM} {HH} * * *' });
    await injectFault(r, { kind: 'status', status: 500, count: 1, path: 'recweather' });
    await r.daemon.start();
    expect(await r.paidRequests()).toBe(1);
    const failed = await state(r);
    // A 500 is the service failing, not a lost connection.
    expect(failed.status).toBe('service_error');
    // The next update is the retry (the backoff: 30 to 60 s), not tomorrow's slot.
    const next = Date.parse(String(failed.next_update_at));
    expect(next - r.clock.now()).toBeGreaterThan(0);
    expect(next - r.clock.now()).toBeLessThanOrEqual(MIN);
    // The wall says so in plain words, with the time of that retry; the HTTP detail is in state.json only.
    const shown = shownView(r.daemon.views, 'hallway').status;
    expect(shown).toMatchObject({ kind: 'service_error', problem: 'error' });
    expect(shown.kind === 'service_error' ? shown.retryAt?.getTime() : null).toBe(next);
    expect(String(failed.status_detail)).toMatch(/500|Internal/i);

    r.clock.advance(MIN);
    await until('a second purchase', async () => (await r.paidRequests()) === 2);
    const good = await until('status ok', async () => {
      const st = await state(r);
      return st.status === 'ok' && st.outfit !== undefined ? st : null;
    });
    expect(Date.parse(String(good.next_update_at)) - r.clock.now()).toBeGreaterThan(23 * HOUR);
    // Nothing more that day.
    r.clock.advance(MIN);
    r.clock.advance(MIN);
    expect(await r.paidRequests()).toBe(2);
  });
});

describe('a slot deferred by the service', () => {
  it('a 429 asking for 120 s: the slot is bought when the wait ends, and every publisher names that time', async () => {
    const r = await t.rig({ schedule: '{MM} {HH} * * *' });
    await injectFault(r, { kind: 'rate_limit', retry_after: 120, count: 1, path: 'recweather' });
    await r.daemon.start();
    const deferred = await state(r);
    const next = Date.parse(String(deferred.next_update_at));
    expect(next).toBe(r.clock.now() + 120_000);
    const frame = await httpRequest(`${r.http}/displays/hallway/frame.png`);
    expect(Number(frame.headers['x-refresh-rate'])).toBeGreaterThanOrEqual(120);
    expect(Number(frame.headers['x-refresh-rate'])).toBeLessThanOrEqual(120 + 60);
    r.clock.advance(MIN);
    r.clock.advance(MIN);
    await until('the purchase after the wait', async () => (await r.paidRequests()) === 2);
    await until('status ok', async () => (await state(r)).status === 'ok');
  });
});

describe('downtime is made up at start', () => {
  it('a start two days after the last answer buys once at start; a restart right after buys nothing', async () => {
    const planted = (dir: string, start: number): Promise<void> =>
      plantLastGood(dir, 'An outfit from two days ago.', new Date(start - 48 * HOUR).toISOString());
    const r = await t.rig({ schedule: '{MM} {HH} * * *', prepare: planted });
    await r.daemon.start();
    await until('the start to make up the slot', async () => (await r.paidRequests()) === 1);
    const st = await until('the new outfit on show', async () => {
      const s = await state(r);
      return s.outfit !== 'An outfit from two days ago.' && s.status === 'ok' ? s : null;
    });
    expect(Date.parse(String(st.fetched_at))).toBe(r.clock.now());
    await r.daemon.stop();

    // The same folder, seconds later: the answer is fresh, nothing is bought.
    const again = await t.rig({
      schedule: '{MM} {HH} * * *',
      prepare: async (dir) => {
        await mkdir(path.join(dir, 'state', 'last'), { recursive: true });
        await writeFile(
          path.join(dir, 'state', 'last', 'hallway.json'),
          JSON.stringify({ ...st, fetched_at: new Date(r.clock.now()).toISOString() }),
        );
      },
    });
    await again.daemon.start();
    expect(await again.paidRequests()).toBe(0);
  });
});

describe('pacing by the clock', () => {
  it('runs the densest schedule that fits, announces its real next slot, and buys nothing before it', async () => {
    // 279 credits a month against a tick every minute: 3 purchases a day fit (31 days of 9 credits).
    const r = await t.rig({ schedule: '* * * * *', budget: 'credits_per_month: 279' });
    const { config } = await loadConfig(path.join(r.dir, 'config.yaml'));
    const runs = new CronTimes(resolveSchedules(config, { now: r.clock.now() }).get('hallway') ?? '', 'Europe/Berlin');
    // Over budget, the schedule that runs is a few wall-clock slots a day, not every minute.
    expect(runs.minGapMs()).toBeGreaterThanOrEqual(6 * HOUR);
    await r.daemon.start();
    const paid = await r.paidRequests();
    expect(paid).toBeLessThanOrEqual(1);
    // The next update is that schedule's next slot (whatever the time of day the test runs at), not the next minute.
    const next = runs.nextAfter(r.clock.now()) ?? NaN;
    expect(Date.parse(String((await state(r)).next_update_at))).toBe(next);
    const untilNextS = Math.ceil((next - r.clock.now()) / 1000);
    const refresh = Number((await httpRequest(`${r.http}/displays/hallway/frame.png`)).headers['x-refresh-rate']);
    expect(refresh).toBeGreaterThanOrEqual(Math.max(60, untilNextS));
    expect(refresh).toBeLessThanOrEqual(Math.max(60, untilNextS + 60));
    // The minutes up to that slot (at most five of them) buy nothing.
    for (let left = Math.min(5 * MIN, next - r.clock.now() - 1000); left > 0; left -= MIN)
      r.clock.advance(Math.min(MIN, left));
    expect(await r.paidRequests()).toBe(paid);
  });
});

describe('stale is a status, computed from time', () => {
  it('a slot that passes without a new answer makes it stale on every publisher and the frame, 10 minutes after', async () => {
    const r = await t.rig({ schedule: '{MM} {HH} * * *' });
    await r.daemon.start();
    expect(await r.paidRequests()).toBe(1);
    expect((await state(r)).stale).toBe(false);
    expect((await httpRequest(`${r.http}/healthz`)).status).toBe(200);

    // The next day's slot is refused for an hour (a 429): deferred, no new answer, the status still says ok.
    await injectFault(r, { kind: 'rate_limit', retry_after: 3600, count: 1, path: 'recweather' });
    r.clock.advance(24 * HOUR - MIN);
    r.clock.advance(MIN);
    await until('the next slot tried', async () => (await r.paidRequests()) === 2);
    await until(
      'its outcome recorded',
      async () => Date.parse(String((await state(r)).next_update_at)) > r.clock.now() + 30 * MIN,
    );
    const before = await state(r);
    expect([before.status, before.stale, before.stale_since]).toEqual(['ok', false, null]);
    const frameBefore = (await httpRequest(`${r.http}/displays/hallway/frame.png`)).headers.etag;

    // 10 minutes after the slot: stale, without any cycle running, and said everywhere.
    r.clock.advance(10 * MIN + 1000);
    const after = await until('the stale redraw', async () => {
      const st = await state(r);
      return st.status === 'stale' ? st : null;
    });
    expect(after.stale).toBe(true);
    // The slot was half a minute before the first purchase (the rig starts 30 s into it).
    expect(Date.parse(String(after.stale_since))).toBe(
      Date.parse(String(before.fetched_at)) - 30_000 + 24 * HOUR + 10 * MIN,
    );
    expect((await httpRequest(`${r.http}/displays/hallway/frame.png`)).headers.etag).not.toBe(frameBefore);
    const health = await httpRequest(`${r.http}/healthz`);
    expect(health.status).toBe(503);
    expect(health.text()).toContain('out of date since');
    expect(await r.paidRequests()).toBe(2);
  });
});
