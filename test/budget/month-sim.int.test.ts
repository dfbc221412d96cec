import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OutfitClient } from '../../src/api/client.js';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { Governor, type FetchOutcome, type FetchReason } from '../../src/budget/governor.js';
import { LEDGER_FILE } from '../../src/budget/ledger.js';
import { planConfig } from '../../src/budget/planner.js';
import { Scheduler } from '../../src/budget/scheduler.js';
import { dateKey, localParts, monthKeyOf } from '../../src/time/zoned-time.js';
import { DEMO_API_KEY, startServiceSim, type Fault, type RunningServiceSim } from '../helpers/service-sim.js';
import { BERLIN, berlin, cancellableSleep, chargedPerPeriod, makeConfig, prng, stateDir, turn } from './helpers.js';

/**
 * A month of the daemon's budget and schedule in a few seconds: FakeClock timers, the real simulated service over
 * real HTTP on 127.0.0.1, three displays on one key, faults, refresh button mashing, crashes at random points with
 * a restart from the persisted ledger, clock steps (back across midnight, a boot at 2001, forward and undone), a
 * daylight-saving change and a month boundary. The invariants are checked on what the service itself recorded.
 *
 * The service's clock is the true time (start + elapsed); the device's clock is the FakeClock's wall clock, which
 * the test steps. Days and months below are true Berlin days and months.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = berlin('2027-03-20T05:00:00');
const END = T0 + 31 * DAY;
const RATE = 6;
const PER_DAY = 200;
const PER_MONTH = 3000;
const RESERVE = 12;

let sim: RunningServiceSim | undefined;
afterAll(async () => sim?.close());

describe('31 simulated days against the simulated service', () => {
  it('stays within budget every day and month, within the rate limit, respects Retry-After, survives crashes', async () => {
    const clock = new FakeClock(T0);
    const trueNow = (): number => T0 + clock.monotonic();
    const simTimers = clock.view();
    const simSleep = cancellableSleep(simTimers);
    sim = await startServiceSim({
      clock: { ...simTimers, now: trueNow },
      ratePerMinute: RATE,
      sleep: simSleep.sleep,
    });
    const dir = await stateDir();
    const config = makeConfig({
      api: { base_url: sim.url },
      budget: {
        credits_per_day: PER_DAY,
        credits_per_month: PER_MONTH,
        rate_limit_per_minute: RATE,
        refresh_reserve_credits: RESERVE,
      },
      displays: [
        { id: 'hallway', lat: 52.52, lon: 13.405, schedule: '*/20 6-22 * * *' },
        {
          id: 'bedroom',
          lat: 48.14,
          lon: 11.58,
          schedule: '*/30 * * * *',
          change_aware: { temp_delta: 2, max_age_minutes: 120 },
        },
        { id: 'kitchen', lat: 53.55, lon: 9.99, schedule: 'auto', endpoint: 'recommend', active_hours: '07:00-22:00' },
      ],
      state_dir: dir,
    });
    const plan = planConfig(config, { now: T0 });
    expect(plan.overDay).toBe(true); // the fixed schedules want more: the governor must cap

    const rand = prng(20270320);
    const activities = new Set<Promise<FetchOutcome>>();
    const last = new Map<string, StoredRecommendation>();
    const outcomes: Record<string, number> = {};
    const ticks: Array<{ id: string; at: number }> = [];
    let overlap = 0;

    interface Proc {
      governor: Governor;
      scheduler: Scheduler;
      client: OutfitClient;
      abort: AbortController;
      timers: () => number;
      refresh: (id: string, reason: FetchReason) => Promise<FetchOutcome>;
    }
    let proc: Proc | null = null;

    const boot = async (): Promise<Proc> => {
      const gov = clock.view();
      const client = new OutfitClient({ baseUrl: sim!.url, apiKey: DEMO_API_KEY, clock });
      const governor = new Governor({ config, stateDir: dir, client, clock: gov, random: rand });
      await governor.load();
      const abort = new AbortController();
      const running = new Set<string>();
      // As in the daemon, a display's fetches never overlap: a press while one runs shares its outcome.
      const inFlight = new Map<string, Promise<FetchOutcome>>();
      const fetchFor = (id: string, reason: FetchReason): Promise<FetchOutcome> => {
        const d = config.displays.find((x) => x.id === id)!;
        let p = inFlight.get(id);
        if (p === undefined) {
          p = governor.fetch(d, reason, last.get(id) ?? null, abort.signal).finally(() => inFlight.delete(id));
          inFlight.set(id, p);
        }
        activities.add(p);
        return p.then((o) => {
          activities.delete(p);
          outcomes[`${reason}:${o.kind}`] = (outcomes[`${reason}:${o.kind}`] ?? 0) + 1;
          if (o.kind === 'fresh') last.set(id, { ...o.rec, fetched_at: new Date(clock.now()).toISOString() });
          return o;
        });
      };
      const scheduler = new Scheduler({
        config,
        clock,
        // Every tick as configured, unpaced: this month checks the governor's caps (and the daylight-saving day's exact
        // ticks); pacing an over-budget schedule has its own day in pacing.test.ts.
        schedules: new Map(planConfig(config, { now: clock.now() }).displays.map((d) => [d.id, d.schedule])),
        onTick: async (id, at) => {
          if (running.has(id)) overlap++;
          running.add(id);
          ticks.push({ id, at: at.getTime() });
          try {
            await fetchFor(id, 'schedule');
          } finally {
            running.delete(id);
          }
        },
      });
      scheduler.start();
      return { governor, scheduler, client, abort, timers: gov.pending, refresh: fetchFor };
    };

    /** Waits until every activity is blocked on a fake timer (or none runs): then fake time may move. */
    const settle = async (): Promise<void> => {
      for (let i = 0; ; i++) {
        await turn();
        const quiet = (): boolean => activities.size <= (proc?.timers() ?? 0) + simTimers.pending();
        if (quiet()) {
          await turn();
          if (quiet()) return;
        }
        if (i % 20 === 19) await new Promise((r) => setTimeout(r, 1));
        if (i > 200_000) throw new Error('the system never settled');
      }
    };
    const runUntil = async (trueT: number): Promise<void> => {
      const endMono = trueT - T0;
      for (;;) {
        await settle();
        const ms = clock.msToNextTimer();
        if (ms === null || clock.monotonic() + ms > endMono) break;
        clock.runNext();
      }
      if (endMono > clock.monotonic()) clock.advance(endMono - clock.monotonic());
      await settle();
    };
    /** At each power cut, what is on disk already counts at least what the service charged in its day and month. */
    let crashChecks = 0;
    const checkDisk = async (): Promise<void> => {
      const onDisk = JSON.parse(await readFile(path.join(dir, LEDGER_FILE), 'utf8')) as {
        day: string;
        month: string;
        day_spent: number;
        month_spent: number;
      };
      const charged = (key: (p: ReturnType<typeof localParts>) => string, period: string): number =>
        sim!
          .stats()
          .requests.filter((r) => key(localParts(r.time, BERLIN)) === period)
          .reduce((n, r) => n + r.creditsCharged, 0);
      expect(onDisk.day_spent).toBeGreaterThanOrEqual(charged(dateKey, onDisk.day));
      expect(onDisk.month_spent).toBeGreaterThanOrEqual(charged(monthKeyOf, onDisk.month));
      crashChecks++;
    };
    const crash = async (): Promise<void> => {
      const p = proc!;
      p.abort.abort(new Error('power cut'));
      simSleep.cancelAll();
      await p.scheduler.stop();
      await p.client.close();
      proc = null;
      await checkDisk();
    };

    // The events of the month, at true times.
    type Ev = { at: number; run: () => Promise<void> | void };
    const events: Ev[] = [];
    const retryAfters: Array<string | null> = [];
    const dstDay = (t: number): boolean => dateKey(localParts(t, BERLIN)) === '2027-03-28';
    for (let t = T0 + HOUR; t < END; t += 90 * 60_000) {
      if (dstDay(t)) continue;
      events.push({
        at: t + Math.floor(rand() * 30 * 60_000),
        run: () => {
          const r = rand();
          const faults: Fault[] = [
            { kind: 'status', status: 500, count: 1 + Math.floor(rand() * 3) },
            { kind: 'status', status: 503 },
            { kind: 'reset' },
            { kind: 'malformed_json' },
            { kind: 'html_error' },
            { kind: 'missing_field', field: 'weather.temp' },
            { kind: 'slow', delay_ms: 45 * 60_000, path: 'recweather' },
          ];
          if (r < 0.3 && !sim!.stats().pendingFaults.some((f) => f.kind === 'rate_limit')) {
            const ra = ['7', '45', null, '120'][Math.floor(rand() * 4)] ?? null;
            retryAfters.push(ra);
            sim!.injectFault({ kind: 'rate_limit', retry_after: ra });
          } else {
            sim!.injectFault(faults[Math.floor(rand() * faults.length)]!);
          }
        },
      });
    }
    events.push({
      at: berlin('2027-04-02T10:00:00'),
      run: () => sim!.injectFault({ kind: 'status', status: 402, error: 'insufficient credits' }),
    });
    // Refresh presses: a few a day, sometimes mashed five times within a second.
    for (let t = T0; t < END; t += 3 * HOUR) {
      const at = t + Math.floor(rand() * 3 * HOUR);
      const id = ['hallway', 'bedroom', 'kitchen'][Math.floor(rand() * 3)]!;
      const presses = rand() < 0.3 ? 5 : 1;
      for (let k = 0; k < presses; k++) {
        events.push({ at: at + k * 150, run: () => void proc?.refresh(id, 'refresh') });
      }
    }
    // Clock steps on the device.
    const jump = (at: number, to: (now: number) => number): Ev => ({
      at,
      run: () => clock.setSystemTime(to(clock.now())),
    });
    events.push(jump(berlin('2027-03-23T22:30:00'), (n) => n - 3 * HOUR)); // stepped back across midnight...
    events.push(jump(berlin('2027-03-24T02:00:00'), () => berlin('2027-03-24T02:00:00'))); // ...NTP puts it right
    events.push(jump(berlin('2027-04-05T12:00:00'), (n) => n + 15 * 60_000)); // a wrong step forward...
    events.push(jump(berlin('2027-04-05T13:00:00'), () => berlin('2027-04-05T13:00:00'))); // ...undone
    // A boot without RTC: crash, restart at 2001, NTP after 20 minutes.
    events.push({
      at: berlin('2027-03-26T09:00:00'),
      run: async () => {
        await crash();
        clock.setSystemTime(Date.UTC(2001, 0, 1));
        proc = await boot();
      },
    });
    events.push(jump(berlin('2027-03-26T09:20:00'), () => berlin('2027-03-26T09:20:00')));
    // Power cuts at random points (not on the daylight-saving day, whose ticks are counted below).
    for (let k = 0; k < 8; k++) {
      let at = T0 + Math.floor(rand() * 31 * DAY);
      if (dstDay(at) || dstDay(at + HOUR)) at += 2 * DAY;
      events.push({
        at,
        run: async () => {
          await crash();
          proc = await boot();
        },
      });
    }
    events.sort((a, b) => a.at - b.at);

    proc = await boot();
    for (const ev of events) {
      if (ev.at >= END) break;
      await runUntil(ev.at);
      await ev.run();
    }
    await runUntil(END);
    await crash();

    // What the service saw.
    const reqs = sim.stats().requests.filter((r) => r.path.startsWith('/v1/'));
    expect(reqs.length).toBeGreaterThan(1000);
    const { perDay, perMonth } = chargedPerPeriod(reqs, BERLIN);
    expect(Math.max(...perDay.values())).toBeLessThanOrEqual(PER_DAY);
    expect(Math.max(...perMonth.values())).toBeLessThanOrEqual(PER_MONTH);
    expect(perDay.size).toBeGreaterThanOrEqual(25);
    // The budget was used, not just respected: most days spend most of it until the month runs out.
    expect([...perDay.values()].filter((c) => c >= PER_DAY * 0.7).length).toBeGreaterThanOrEqual(10);
    // (Failed attempts count as spent in the ledger, the service charged none of them: April ends a little short.)
    expect(perMonth.get('2027-04')).toBeGreaterThan(PER_MONTH * 0.75);

    // Rate limit: never more than RATE requests in any 60-second window; no 429 but the injected ones.
    const times = reqs.map((r) => r.time).sort((a, b) => a - b);
    let maxInWindow = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while ((times[j] ?? Infinity) < (times[i] ?? 0) + 60_000) j++;
      maxInWindow = Math.max(maxInWindow, j - i);
    }
    expect(maxInWindow).toBeLessThanOrEqual(RATE);
    expect(reqs.filter((r) => r.status === 429 && r.fault !== 'rate_limit')).toEqual([]);

    // Retry-After: no request after a 429 until it has passed.
    const limited = reqs.filter((r) => r.fault === 'rate_limit');
    expect(limited.length).toBeGreaterThan(3);
    limited.forEach((r, k) => {
      const ra = retryAfters[k];
      const waitMs = ra === null || ra === undefined ? 60_000 : Number(ra) * 1000;
      const early = reqs.filter((x) => x.time > r.time && x.time < r.time + waitMs);
      expect(
        early,
        `request within Retry-After ${ra ?? '(none: 60 s)'} of the 429 at ${new Date(r.time).toISOString()}`,
      ).toEqual([]);
    });

    // The ledger never counts less than the service charged.
    const ledger = JSON.parse(await readFile(path.join(dir, LEDGER_FILE), 'utf8')) as {
      month: string;
      month_spent: number;
    };
    expect(ledger.month).toBe('2027-04');
    expect(ledger.month_spent).toBeGreaterThanOrEqual(perMonth.get('2027-04') ?? 0);

    // No overlap; the daylight-saving day (23 hours) ticks exactly as planned.
    expect(crashChecks).toBe(10);
    expect(overlap).toBe(0);
    const onDst = (id: string): number => ticks.filter((t) => t.id === id && dstDay(t.at)).length;
    expect(onDst('hallway')).toBe(51);
    expect(onDst('bedroom')).toBe(46);
    for (const kind of [
      'schedule:fresh',
      'schedule:unchanged',
      'schedule:budget_exhausted',
      'schedule:failed',
      'refresh:budget_exhausted',
    ]) {
      expect(outcomes[kind], kind).toBeGreaterThan(0);
    }
  }, 120_000);
});
