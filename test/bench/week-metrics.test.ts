import { describe, expect, it } from 'vitest';
import { CronTimes } from '../../src/budget/cron-times.js';
import { isFresh, parseWindow, slotOf, weekFigures, type Sample } from './week-metrics.js';

/** The week-under-faults figures (npm run bench -- --only week), on hand-made walls. */

const TZ = 'Europe/Berlin';
const MIN = 60_000;
/** Monday 23 November 2026, 00:00 in Berlin (UTC+1). */
const MON = Date.UTC(2026, 10, 22, 23, 0);
const local = (h: number, m = 0, day = 0): number => MON + day * 86_400_000 + h * 3_600_000 + m * MIN;
const daily = new CronTimes('0 7 * * *', TZ);
const hourly = new CronTimes('0 * * * *', TZ);

/** A sample a minute over [from, to), the wall showing what `shown(t)` says. */
function wall(from: number, to: number, shown: (t: number) => number | null): Sample[] {
  const out: Sample[] = [];
  for (let t = from; t < to; t += MIN) out.push({ at: t, fetchedAt: shown(t) });
  return out;
}

describe('slots and freshness', () => {
  it('a time belongs to the latest slot at or before it', () => {
    expect(slotOf(daily, local(6, 59))).toBe(local(7, 0, -1));
    expect(slotOf(daily, local(7, 0))).toBe(local(7, 0));
    expect(slotOf(hourly, local(9, 59))).toBe(local(9));
  });

  it('an answer keeps the promise until its next slot plus the grace', () => {
    const grace = 5 * MIN;
    const bought = local(7, 0, -1);
    expect(isFresh(daily, grace, local(7, 4), bought)).toBe(true);
    expect(isFresh(daily, grace, local(7, 5), bought)).toBe(false);
    expect(isFresh(daily, grace, local(7, 5), local(7, 1))).toBe(true);
    // A daily answer bought late in the day (a retry) is fresh until the next morning's slot.
    expect(isFresh(daily, grace, local(23, 0), local(21, 0))).toBe(true);
    expect(isFresh(daily, grace, local(8, 0), null)).toBe(false);
  });
});

describe('weekFigures', () => {
  const base = { cron: hourly, timezone: TZ, graceMs: 5 * MIN, window: parseWindow('00:00-24:00') };

  it('counts stale minutes inside and outside a fault, and the minutes after its end', () => {
    // Hourly; the 10:00 purchase failed during a fault 10:00-10:20 and was bought at 10:30.
    const samples = wall(local(8), local(12), (t) =>
      t >= local(11) ? local(11) : t >= local(10, 30) ? local(10, 30) : t >= local(9) ? local(9) : local(8),
    );
    const f = weekFigures({
      ...base,
      samples,
      faults: [{ label: 'outage', start: local(10), end: local(10, 20), boundMin: 30 }],
      purchases: [local(8), local(9), local(10, 30), local(11)].map((at) => ({ at, credits: 3 })),
      errorHits: [],
    });
    // Stale 10:05-10:29 (25 min): 15 of them within the fault, 10 after it.
    expect(f.staleOutside).toBe(10);
    expect(f.afterFault).toEqual([{ label: 'outage', staleMin: 10, boundMin: 30 }]);
    expect(f.staleStretches).toEqual([{ from: local(10, 20), minutes: 10 }]);
    expect(f.freshnessAll).toBeCloseTo((100 * (240 - 25)) / 240, 6);
    expect(f.freshnessOutside).toBeCloseTo((100 * (220 - 10)) / 220, 6);
  });

  it('a purchase beyond the first for a slot is waste; one replaced within half an interval is short-lived', () => {
    const f = weekFigures({
      ...base,
      samples: wall(local(10), local(12), () => local(10)),
      faults: [],
      purchases: [local(10), local(11), local(11, 2), local(11, 40)].map((at) => ({ at, credits: 3 })),
      errorHits: [],
    });
    expect(f.purchases).toBe(4);
    expect(f.credits).toBe(12);
    expect(f.twiceForSlot).toBe(2);
    expect(f.wastedCredits).toBe(6);
    // 11:00 was replaced two minutes later; 10:00 lasted an hour, 11:02 38 minutes, 11:40 was the last.
    expect(f.shortLived).toBe(1);
  });

  it('an error hit counts the stale active minutes until a newer answer is on show', () => {
    // The 09:00 purchase failed; nothing until the 10:00 slot's answer.
    const samples = wall(local(8), local(11), (t) => (t >= local(10) ? local(10) : local(8)));
    const f = weekFigures({ ...base, samples, faults: [], purchases: [], errorHits: [local(9)] });
    expect(f.errors).toEqual({ hits: 1, maxStaleMin: 55 });
    // Outside the counted hours, nothing counts.
    const night = weekFigures({
      ...base,
      window: parseWindow('11:00-22:00'),
      samples,
      faults: [],
      purchases: [],
      errorHits: [local(9)],
    });
    expect(night.errors.maxStaleMin).toBe(0);
    expect(night.freshnessAll).toBe(100);
  });

  it('a fault the wall never recovers from within the samples says so', () => {
    const f = weekFigures({
      ...base,
      samples: wall(local(8), local(12), () => local(8)),
      faults: [{ label: 'off', start: local(9), end: local(10), boundMin: 0 }],
      purchases: [],
      errorHits: [],
    });
    expect(f.afterFault[0]?.staleMin).toBeNull();
  });
});
