import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CYCLE_BACKOFF } from '../../src/budget/cycle-backoff.js';
import { RETRY_BACKOFF } from '../../src/budget/retry-loop.js';
import { backoffDelay } from '../../src/time/backoff-delay.js';
import { BUILD_TIME_MS, ClockGuard, DAY_WINDOW_MS } from '../../src/budget/clock-guard.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { RateLimiter } from '../../src/budget/rate-limiter.js';
import { refusal } from '../../src/budget/spend-gate.js';
import { weatherChange } from '../../src/budget/change-aware.js';
import { makeConfig } from './helpers.js';
import { COOL_WEATHER } from '../fixtures/rec.js';

const HOUR = 3_600_000;
const T = Date.UTC(2027, 0, 11, 9);

describe('ClockGuard', () => {
  const seed = () => ({ day: 40, month: 400 });

  it('distrusts a clock before the build date or behind its last trusted reading', () => {
    const c = new FakeClock(T);
    const g = new ClockGuard({ clock: c });
    g.restore(T + 10 * 60_000); // the ledger saw a later time
    expect(g.check(seed).trusted).toBe(false);
    c.advance(9 * 60_000); // within the 2-minute slack now
    expect(g.check(seed).trusted).toBe(true);
    c.setSystemTime(BUILD_TIME_MS - 1);
    expect(g.check(seed)).toMatchObject({
      trusted: false,
      reason: expect.stringMatching(/before the build date/) as unknown,
    });
    c.setSystemTime(T + 30 * 60_000); // NTP
    expect(g.check(seed).trusted).toBe(true);
  });

  it('a clock stepped back stays distrusted until it is where it should be (not just past the old reading)', () => {
    const c = new FakeClock(T);
    const g = new ClockGuard({ clock: c });
    expect(g.check(seed).trusted).toBe(true);
    c.setSystemTime(T - 2 * HOUR);
    c.advance(3 * HOUR); // now past T, but still 2 h behind where it should be
    expect(g.check(seed).trusted).toBe(false);
    c.setSystemTime(T + 3 * HOUR); // corrected
    expect(g.check(seed).trusted).toBe(true);
  });

  it('a new NTP synchronization (timesyncd touching its flag) makes the clock trusted as it is', () => {
    const c = new FakeClock(T);
    let stamp: number | null = null;
    const g = new ClockGuard({ clock: c, buildTime: BUILD_TIME_MS, syncStamp: () => stamp });
    expect(g.check(seed).trusted).toBe(true);
    c.setSystemTime(T - 2 * HOUR); // stepped back: a wrong forward step before was corrected by NTP
    expect(g.check(seed).trusted).toBe(false);
    stamp = 1; // timesyncd synchronized
    expect(g.check(seed)).toEqual({ trusted: true, reason: null, cause: null });
    c.advance(HOUR);
    expect(g.check(seed).trusted).toBe(true); // the new reading is the reference now
    c.setSystemTime(T - 5 * HOUR); // stepped back again without a new synchronization
    expect(g.check(seed).trusted).toBe(false);
    c.setSystemTime(BUILD_TIME_MS - HOUR);
    stamp = 2; // a synchronization never makes a clock before the build date believable
    expect(g.check(seed).trusted).toBe(false);
  });

  it('while distrusted: at most the daily budget in any 25 hours, seeded with the last day; never stalls', () => {
    const c = new FakeClock(T);
    const g = new ClockGuard({ clock: c });
    g.check(seed);
    c.setSystemTime(T - 30 * HOUR);
    expect(g.check(seed).trusted).toBe(false);
    expect(g.windowUsed()).toEqual({ day: 40, month: 400 });
    g.recordSpend(10);
    c.advance(10 * HOUR);
    g.recordSpend(10);
    expect(g.windowUsed()).toEqual({ day: 60, month: 420 });
    expect(g.msUntilDayWindowFrees(50, 100)).toBe(DAY_WINDOW_MS - 10 * HOUR); // the seed leaves the window
    expect(g.msUntilDayWindowFrees(101, 100)).toBeNull();
    c.advance(16 * HOUR);
    expect(g.check(seed).trusted).toBe(false); // still 4 h before the last trusted reading
    expect(g.windowUsed()).toEqual({ day: 10, month: 420 });
    // After 25 hours behind, a clock past the last trusted reading is believed again.
    c.advance(5 * HOUR);
    expect(g.check(seed).trusted).toBe(true);
    expect(g.windowUsed()).toEqual({ day: 0, month: 0 });
  });
});

describe('RateLimiter', () => {
  it('keeps a margin, slides the window, honours Retry-After and X-RateLimit-Remaining', () => {
    const c = new FakeClock(T);
    const r = new RateLimiter({ clock: c, limitPerMinute: 60 });
    expect(r.effectiveLimit).toBe(54);
    for (let i = 0; i < 54; i++) {
      expect(r.wait().ms).toBe(0);
      r.take();
      c.advance(100);
    }
    expect(r.wait()).toEqual({ ms: 60_000 - 5400, why: 'window' });
    c.advance(60_000);
    expect(r.wait().ms).toBe(0);
    r.blockFor(30_000);
    expect(r.wait()).toEqual({ ms: 30_000, why: 'retry-after' });
    c.advance(30_000);
    r.observe({ limit: 10, remaining: 1, observedAt: c.now() });
    expect(r.effectiveLimit).toBe(9);
    expect(r.wait().ms).toBe(0);
    r.take();
    expect(r.wait()).toEqual({ ms: 60_000, why: 'header' });
  });

  it('property: never more than the effective limit in any 60-second window', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 60 }),
        (gaps, limit) => {
          const c = new FakeClock(T);
          const r = new RateLimiter({ clock: c, limitPerMinute: limit });
          const sent: number[] = [];
          for (const gap of gaps) {
            c.advance(gap);
            const w = r.wait();
            if (w.ms > 0) c.advance(w.ms);
            expect(r.wait().ms).toBe(0);
            r.take();
            sent.push(c.monotonic());
          }
          for (let i = 0; i < sent.length; i++) {
            expect(sent.filter((t) => t >= sent[i]! && t < sent[i]! + 60_000).length).toBeLessThanOrEqual(
              r.effectiveLimit,
            );
          }
        },
      ),
      { numRuns: 100, seed: 3 },
    );
  });
});

describe('backoff', () => {
  it('grows exponentially within bounds, with jitter in [step/2, step]', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, RETRY_BACKOFF, () => 1))).toEqual([
      2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    expect(backoffDelay(1, RETRY_BACKOFF, () => 0)).toBe(1000);
    expect(backoffDelay(50, CYCLE_BACKOFF, () => 1)).toBe(30 * 60_000);
  });
});

describe('spend gate', () => {
  const config = makeConfig({ budget: { credits_per_day: 20, credits_per_month: 100, refresh_reserve_credits: 6 } });
  const gate = (reason: 'schedule' | 'refresh' | 'once', dayUsed: number, refreshSpentToday = 0, monthUsed = dayUsed) =>
    refusal(config, { reason, cost: 3, dayUsed, monthUsed, refreshSpentToday });

  it('holds the refresh reserve back from the schedule, lets once use it all, caps refreshes at it', () => {
    expect(gate('schedule', 11)).toBe(null);
    expect(gate('schedule', 12)).toBe('day');
    expect(gate('schedule', 12, 6)).toBe(null); // the reserve is used up: nothing left to hold
    expect(gate('once', 17)).toBe(null);
    expect(gate('refresh', 17, 3)).toBe(null);
    expect(gate('refresh', 10, 4)).toBe('refresh-reserve');
    expect(gate('once', 18)).toBe('day');
    expect(gate('once', 5, 0, 98)).toBe('month');
  });
});

describe('weatherChange', () => {
  const cfg = {
    temp_delta: 3,
    rain_threshold_pct: 50,
    conditions: true,
    day_night: true,
    max_age_minutes: 180,
    expected_change_pct: 25,
  };
  it('names what changed enough to change what one wears, or null', () => {
    expect(weatherChange(COOL_WEATHER, { ...COOL_WEATHER, temp: 14.9 }, cfg)).toBeNull();
    expect(weatherChange(COOL_WEATHER, { ...COOL_WEATHER, temp: 15 }, cfg)).toBe(
      'temperature 12°C → 15°C (change of 3 or more)',
    );
    expect(weatherChange(COOL_WEATHER, { ...COOL_WEATHER, feels_like: 6 }, cfg)).toMatch(/^feels like 10°C → 6°C/);
    expect(weatherChange(COOL_WEATHER, { ...COOL_WEATHER, rain_chance_pct: 50 }, cfg)).toBe(
      'rain chance 20% → 50% crosses 50%',
    );
    expect(weatherChange(COOL_WEATHER, { ...COOL_WEATHER, description: 'Light rain' }, cfg)).toBe(
      'conditions "Partly cloudy" → "Light rain"',
    );
    expect(
      weatherChange(COOL_WEATHER, { ...COOL_WEATHER, description: 'Light rain' }, { ...cfg, conditions: false }),
    ).toBeNull();
    expect(weatherChange(COOL_WEATHER, { ...COOL_WEATHER, is_day: false }, cfg)).toBe('day turned to night');
    // The answer in °F is compared in °C: 53.6 °F = 12 °C.
    expect(
      weatherChange(COOL_WEATHER, { ...COOL_WEATHER, temp: 53.6, feels_like: 50, temp_unit: '°F' }, cfg),
    ).toBeNull();
  });
});
