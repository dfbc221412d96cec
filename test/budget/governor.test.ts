import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  CreditsExhaustedError,
  KeyRejectedError,
  RateLimitedError,
  ServiceError,
  TimeoutError,
  HttpStatusError,
} from '../../src/api/errors.js';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { LEDGER_FILE } from '../../src/budget/ledger.js';
import { berlin } from './helpers.js';
import { one, rig, START } from './governor-rig.js';
import { COOL_WEATHER, rec } from '../fixtures/rec.js';

describe('Governor: the budget', () => {
  it('writes the charge to disk before the request goes out', async () => {
    let onDisk: unknown;
    const r = await rig({}, [
      async () => {
        onDisk = (await r.ledger()).day_spent;
        return rec({ weather: COOL_WEATHER, fetchedAt: null });
      },
    ]);
    expect((await one(r)).kind).toBe('fresh');
    expect(onDisk).toBe(3);
    expect(r.governor.status()).toMatchObject({ spentToday: 3, spentMonth: 3, leftToday: 197 });
  });

  it('stops at the daily budget and says until when', async () => {
    const r = await rig({ budget: { credits_per_day: 7 } });
    expect((await one(r)).kind).toBe('fresh');
    expect((await one(r)).kind).toBe('fresh');
    const out = await one(r);
    expect(out).toEqual({ kind: 'budget_exhausted', until: new Date(berlin('2027-01-12T00:00:00')), scope: 'day' });
    expect(r.fake.calls).toHaveLength(2);
    r.clock.setSystemTime(berlin('2027-01-12T00:00:01'));
    expect((await one(r)).kind).toBe('fresh');
  });

  it('stops at the monthly budget until the next month', async () => {
    const r = await rig({ budget: { credits_per_month: 5 } });
    expect((await one(r)).kind).toBe('fresh');
    expect(await one(r)).toMatchObject({
      kind: 'budget_exhausted',
      until: new Date(berlin('2027-02-01T00:00:00')),
      scope: 'month',
    });
  });

  it('lets refreshes spend only the reserve, and keeps the reserve from scheduled ticks', async () => {
    const r = await rig({ budget: { credits_per_day: 15, refresh_reserve_credits: 6 } });
    for (let i = 0; i < 3; i++) expect((await one(r, 'schedule')).kind).toBe('fresh');
    expect(await one(r, 'schedule')).toMatchObject({ kind: 'budget_exhausted', scope: 'day' }); // 9 + 3 > 15 - 6
    expect((await one(r, 'refresh')).kind).toBe('fresh');
    expect((await one(r, 'refresh')).kind).toBe('fresh');
    expect(await one(r, 'refresh')).toMatchObject({ kind: 'budget_exhausted', scope: 'refresh-reserve' });
    expect(r.governor.status().spentToday).toBe(15);
  });

  it('survives a restart: the next process sees what was spent', async () => {
    const r = await rig({ budget: { credits_per_day: 6 } });
    await one(r);
    const again = await rig({ budget: { credits_per_day: 6 } }, [], { dir: r.dir, clock: r.clock });
    expect(again.governor.status().spentToday).toBe(3);
    expect((await one(again)).kind).toBe('fresh');
    expect((await one(again)).kind).toBe('budget_exhausted');
  });

  it('counts an unreadable ledger as spent and says so', async () => {
    const r = await rig({ budget: { credits_per_day: 30, credits_per_month: 1000 } });
    await one(r);
    await writeFile(path.join(r.dir, LEDGER_FILE), '{"version":1,"timezone":"Europe/Ber');
    const again = await rig({ budget: { credits_per_day: 30, credits_per_month: 1000 } }, [], {
      dir: r.dir,
      clock: r.clock,
    });
    const s = again.governor.status();
    expect(s.spentToday).toBe(30);
    expect(s.spentMonth).toBe(30 * 11); // the most the daily budget allowed from the 1st to the 11th
    expect(s.warnings.some((w) => w.startsWith('W_LEDGER_UNREADABLE: '))).toBe(true);
    expect(await one(again)).toMatchObject({ kind: 'budget_exhausted' });
  });

  it('warns at start when fixed schedules exceed the budget', async () => {
    const r = await rig({ budget: { credits_per_day: 10 } });
    expect(r.governor.status().warnings[0]).toMatch(
      /^W_OVER_BUDGET: .*densest schedules that fit: hallway: "0 6-22\/8 \* \* \*"/,
    );
  });
});

describe('Governor: concurrency and the disk', () => {
  it('displays fetching at once never overspend together', async () => {
    const displays = ['a', 'b', 'c', 'd'].map((id) => ({ id, lat: 50, lon: 10, schedule: '0 * * * *' }));
    const r = await rig({ budget: { credits_per_day: 7 }, displays });
    const outs = await r.run(...displays.map((d) => r.fetch('schedule', d.id)));
    expect(outs.map((o) => o.kind).sort()).toEqual(['budget_exhausted', 'budget_exhausted', 'fresh', 'fresh']);
    expect(r.governor.status().spentToday).toBe(6);
  });

  it('no request when the ledger cannot be written', async () => {
    const r = await rig({}, [], { dir: '/proc/no-such-dir-for-outfit' });
    expect(await one(r)).toMatchObject({
      kind: 'deferred',
      reason: expect.stringMatching(/^cannot write the budget ledger/) as unknown,
    });
    expect(r.fake.calls).toHaveLength(0);
    expect(r.governor.status().storeProblem).toMatchObject({
      code: 'E_STATE_WRITE',
      file: '/proc/no-such-dir-for-outfit/budget-ledger.json',
    });
  });

  it('an abort mid-request keeps the charge (it may have been processed)', async () => {
    const ac = new AbortController();
    const r = await rig({}, [
      () => {
        ac.abort();
        return Promise.reject(new AbortedError('aborted'));
      },
    ]);
    const d = r.config.displays[0]!;
    const [out] = await r.run(r.governor.fetch(d, 'schedule', null, ac.signal));
    expect(out).toMatchObject({ kind: 'failed', error: { code: 'E_ABORTED' } });
    expect(r.governor.status().spentToday).toBe(3);
  });
});

describe('Governor: failures', () => {
  it('429: refunds, waits for Retry-After, retries', async () => {
    const r = await rig({}, [new RateLimitedError('429', 30_000, { status: 429 })]);
    expect((await one(r)).kind).toBe('fresh');
    expect(r.fake.calls.map((c) => c.mono)).toEqual([0, 30_000]);
    expect(r.governor.status().spentToday).toBe(3);
  });

  it('429 with a long Retry-After: deferred, and no request before it even after a restart', async () => {
    const r = await rig({}, [new RateLimitedError('429', 600_000, { status: 429 })]);
    const out = await one(r);
    expect(out).toMatchObject({ kind: 'deferred', until: new Date(START + 600_000) });
    const again = await rig({}, [], { dir: r.dir, clock: r.clock });
    expect(await one(again)).toMatchObject({ kind: 'deferred', until: new Date(START + 600_000) });
    expect(again.fake.calls).toHaveLength(0);
    expect(r.governor.status().spentToday).toBe(0);
  });

  it('5xx: sent once, counted as unknown, not sent again in the cycle; then a cycle backoff', async () => {
    const r = await rig({}, [
      new ServiceError('503', { status: 503 }),
      new TimeoutError('t'),
      new ServiceError('500', { status: 500 }),
    ]);
    const out = await one(r);
    expect(out.kind).toBe('failed');
    expect(r.fake.calls.map((c) => c.mono)).toEqual([0]);
    expect(r.governor.status()).toMatchObject({ spentToday: 3, unknownToday: 3, chargedToday: 0 });
    const next = await one(r);
    expect(next).toMatchObject({ kind: 'deferred' });
    expect((next as { reason: string }).reason).toMatch(/^backing off after failed requests/);
    expect(r.fake.calls).toHaveLength(1);
  });

  it('401: not retried, refunded, no request until restart', async () => {
    const r = await rig({}, [new KeyRejectedError('401 invalid API key', { status: 401 })]);
    expect(await one(r)).toMatchObject({ kind: 'failed', error: { code: 'E_KEY_REJECTED' } });
    expect(await one(r)).toMatchObject({ kind: 'failed', error: { code: 'E_KEY_REJECTED' } });
    expect(r.fake.calls).toHaveLength(1);
    expect(r.governor.status()).toMatchObject({ spentToday: 0 });
    expect(r.governor.status().warnings.some((w) => w.startsWith('W_KEY_REJECTED:'))).toBe(true);
  });

  it('402: the account is out of credits: asked again after an hour, not before; a top-up recovers the same day', async () => {
    const r = await rig({}, [
      new CreditsExhaustedError('402 insufficient credits', { status: 402 }),
      new CreditsExhaustedError('402', { status: 402 }),
    ]);
    expect(await one(r)).toMatchObject({
      kind: 'budget_exhausted',
      scope: 'credits',
      until: new Date(START + 3_600_000),
    });
    r.clock.advance(30 * 60_000);
    expect(await one(r)).toMatchObject({
      kind: 'budget_exhausted',
      scope: 'credits',
      until: new Date(START + 3_600_000),
    });
    expect(r.fake.calls).toHaveLength(1);
    r.clock.advance(30 * 60_000);
    expect(await one(r)).toMatchObject({
      kind: 'budget_exhausted',
      scope: 'credits',
      until: new Date(START + 2 * 3_600_000),
    });
    expect(r.fake.calls).toHaveLength(2);
    expect(r.governor.status()).toMatchObject({
      spentToday: 0,
      refusedToday: 2,
      creditsOut: { since: new Date(START) },
    });
    r.clock.advance(3_600_000); // topped up meanwhile
    expect((await one(r)).kind).toBe('fresh');
    expect(r.governor.status()).toMatchObject({ creditsOut: null, chargedToday: 3 });
    expect(r.governor.status().warnings.some((w) => w.startsWith('W_CREDITS_EXHAUSTED'))).toBe(false);
  });

  it('402: a restart or reload (SIGHUP) and the refresh button ask the empty account again at once', async () => {
    const raw = { budget: { credits_per_day: 200, refresh_reserve_credits: 9 } };
    const r = await rig(raw, [
      new CreditsExhaustedError('402', { status: 402 }),
      new CreditsExhaustedError('402', { status: 402 }),
    ]);
    expect(await one(r)).toMatchObject({ kind: 'budget_exhausted', scope: 'credits' });
    expect(await one(r, 'refresh')).toMatchObject({ kind: 'budget_exhausted', scope: 'credits' });
    expect(r.fake.calls).toHaveLength(2);
    const again = await rig(raw, [], { dir: r.dir, clock: r.clock });
    expect((await one(again)).kind).toBe('fresh');
    expect(again.fake.calls).toHaveLength(1);
    expect((await again.ledger()).credits_out).toBeNull();
  });

  it('other 4xx: refunded, not retried', async () => {
    const r = await rig({}, [new HttpStatusError('400', { status: 400 })]);
    expect(await one(r)).toMatchObject({ kind: 'failed', error: { code: 'E_HTTP' } });
    expect(r.fake.calls).toHaveLength(1);
    expect(r.governor.status().spentToday).toBe(0);
  });
});

describe('Governor: one rate limiter for all displays', () => {
  it('never sends more than the limit less its margin in any 60 s, and honours X-RateLimit-Remaining', async () => {
    const displays = Array.from({ length: 12 }, (_, i) => ({ id: `d${i}`, lat: 50, lon: 10, schedule: '0 * * * *' }));
    const r = await rig({ budget: { credits_per_day: 10_000, rate_limit_per_minute: 10 }, displays });
    const outs = await r.run(...displays.map((d) => r.fetch('schedule', d.id)));
    expect(outs.every((o) => o.kind === 'fresh')).toBe(true);
    const monos = r.fake.calls.map((c) => c.mono);
    expect(monos.filter((m) => m < 60_000)).toHaveLength(9); // 10 less a 10 % margin
    expect(monos.filter((m) => m >= 60_000)).toHaveLength(3);
    r.fake.setRateLimit({ limit: 10, remaining: 0, observedAt: r.clock.now() });
    r.clock.advance(120_000);
    const before = r.fake.calls.length;
    await r.run(r.fetch('schedule', 'd0'));
    expect(r.fake.calls.length).toBe(before + 1);
    r.fake.setRateLimit({ limit: 10, remaining: 0, observedAt: r.clock.now() + 1 });
    await r.run(r.fetch('schedule', 'd1'));
    expect(r.fake.calls.at(-1)!.mono - r.fake.calls.at(-2)!.mono).toBe(60_000);
  });
});

describe('Governor: change-aware mode', () => {
  const last = (weather = COOL_WEATHER, ageMin = 30): StoredRecommendation =>
    rec({ weather, fetchedAt: new Date(START - ageMin * 60_000).toISOString() });
  const cfg = {
    budget: { credits_per_day: 100, refresh_reserve_credits: 10 },
    displays: [
      { id: 'hall', lat: 50, lon: 10, schedule: '*/30 * * * *', change_aware: { temp_delta: 3, max_age_minutes: 120 } },
    ],
  };

  it('keeps the outfit when the weather did not change enough (1 credit)', async () => {
    const r = await rig(cfg, [{ ...COOL_WEATHER, temp: 13.5 }]);
    expect(await one(r, 'schedule', last())).toMatchObject({ kind: 'unchanged' });
    expect(r.fake.calls.map((c) => c.kind)).toEqual(['weather']);
    expect(r.governor.status().spentToday).toBe(1);
  });

  it('buys when it did (rain crossing the threshold), or when the outfit is too old, or on refresh', async () => {
    const r = await rig(cfg, [{ ...COOL_WEATHER, rain_chance_pct: 60 }]);
    expect((await one(r, 'schedule', last())).kind).toBe('fresh');
    expect(r.fake.calls.map((c) => c.kind)).toEqual(['weather', 'recweather']);
    const o = await one(r, 'schedule', last(COOL_WEATHER, 130));
    expect(o.kind).toBe('fresh');
    expect((await one(r, 'refresh', last())).kind).toBe('fresh');
    expect(r.fake.calls.map((c) => c.kind)).toEqual(['weather', 'recweather', 'recweather', 'recweather']);
  });
});

describe('Governor: the clock', () => {
  it('a clock before the build date spends only what the last known day has left, and carries it forward', async () => {
    const r = await rig({ budget: { credits_per_day: 9 } });
    await one(r);
    r.clock.setSystemTime(Date.UTC(2001, 0, 1));
    expect((await one(r)).kind).toBe('fresh');
    expect((await one(r)).kind).toBe('fresh');
    expect(await one(r)).toMatchObject({ kind: 'deferred' }); // 9 spent in the last known day
    expect(r.governor.status().warnings.some((w) => w.startsWith('W_CLOCK_UNTRUSTED: the clock (2001-01-01'))).toBe(
      true,
    );
    r.clock.setSystemTime(berlin('2027-01-12T08:00:00')); // NTP: it is the next day
    expect(r.governor.status().spentToday).toBe(6); // what was spent while the clock was wrong is carried
    const o = await one(r);
    expect(o.kind).toBe('fresh');
    expect(await one(r)).toMatchObject({ kind: 'budget_exhausted', scope: 'day' });
  });

  it('a clock stepped back before midnight and put right after it: the true day stays within budget', async () => {
    const start = berlin('2027-01-11T23:50:00');
    const clock = new FakeClock(start);
    const trueDay12 = berlin('2027-01-12T00:00:00');
    const r = await rig({ budget: { credits_per_day: 9 } }, [], { clock });
    await one(r); // true 23:50, day 11
    clock.setSystemTime(clock.now() - 2 * 3_600_000); // the device says 21:50
    clock.advance(40 * 60_000); // true 00:30 on day 12, the device says 22:30 on day 11
    await one(r);
    await one(r);
    clock.advance(30 * 60_000);
    clock.setSystemTime(berlin('2027-01-12T01:00:00')); // NTP
    for (let i = 0; i < 5; i++) await one(r);
    const trueTime = (mono: number): number => start + mono;
    const onDay12 = r.fake.calls.filter((c) => trueTime(c.mono) >= trueDay12);
    expect(onDay12.length * 3).toBeLessThanOrEqual(9);
    expect(onDay12).toHaveLength(3);
  });

  it('a clock stepped back across midnight never reopens the day', async () => {
    const clock = new FakeClock(berlin('2027-01-12T00:10:00'));
    const r = await rig({ budget: { credits_per_day: 6 } }, [], { clock });
    await one(r);
    await one(r);
    clock.setSystemTime(berlin('2027-01-11T23:00:00'));
    expect((await one(r)).kind).not.toBe('fresh');
    expect(r.fake.calls).toHaveLength(2);
  });
});
