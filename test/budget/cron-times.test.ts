import fc from 'fast-check';
import { createTask } from 'node-cron';
import { describe, expect, it } from 'vitest';
import { CronTimes, quietStretch } from '../../src/budget/cron-times.js';
import { addDays, localParts, offsetAt, startOfDay, wallOf, type LocalDate } from '../../src/time/zoned-time.js';
import { BERLIN, berlin } from './helpers.js';

const HOUR = 3_600_000;

// Day and month arithmetic over zoned-time's primitives, for checking them across DST changes (nothing in src/
// needs these; they lived there for the tests only).
/** Every instant whose local wall time is `wall` (0, 1 or 2 of them), ascending. */
function wallToInstants(wall: number, tz: string): number[] {
  const offsets = new Set([offsetAt(wall - 36 * HOUR, tz), offsetAt(wall, tz), offsetAt(wall + 36 * HOUR, tz)]);
  const out: number[] = [];
  for (const o of offsets) {
    const t = wall - o;
    if (offsetAt(t, tz) === o && !out.includes(t)) out.push(t);
  }
  return out.sort((a, b) => a - b);
}

/** The first instant of the local day after the one holding `t`. */
function nextDayStart(t: number, tz: string): number {
  return startOfDay(addDays(localParts(t, tz), 1), tz);
}

/** The first instant of the local month after the one holding `t`. */
function nextMonthStart(t: number, tz: string): number {
  const p = localParts(t, tz);
  const next = p.month === 12 ? { year: p.year + 1, month: 1, day: 1 } : { year: p.year, month: p.month + 1, day: 1 };
  return startOfDay(next, tz);
}

/** Length of local date `d` in ms: 24 h, or 23 h / 25 h on a daylight-saving change. */
function dayLength(d: LocalDate, tz: string): number {
  return startOfDay(addDays(d, 1), tz) - startOfDay(d, tz);
}

const d = (s: string): LocalDate => {
  const [year, month, day] = s.split('-').map(Number) as [number, number, number];
  return { year, month, day };
};

describe('zoned time', () => {
  it('knows the length of daylight-saving days', () => {
    expect(dayLength(d('2027-03-28'), BERLIN)).toBe(23 * HOUR);
    expect(dayLength(d('2026-10-25'), BERLIN)).toBe(25 * HOUR);
    expect(dayLength(d('2027-01-10'), BERLIN)).toBe(24 * HOUR);
    expect(dayLength(d('2026-10-04'), 'Australia/Lord_Howe')).toBe(23.5 * HOUR);
  });

  it('maps wall times to 0, 1 or 2 instants', () => {
    expect(wallToInstants(wallOf(d('2027-03-28'), 2, 30), BERLIN)).toEqual([]);
    expect(wallToInstants(wallOf(d('2026-10-25'), 2, 30), BERLIN)).toEqual([
      Date.parse('2026-10-25T00:30:00Z'),
      Date.parse('2026-10-25T01:30:00Z'),
    ]);
    expect(wallToInstants(wallOf(d('2027-01-10'), 12), BERLIN)).toEqual([Date.parse('2027-01-10T11:00:00Z')]);
  });

  it('finds day and month starts, also where midnight is skipped', () => {
    expect(startOfDay(d('2027-03-28'), BERLIN)).toBe(Date.parse('2027-03-27T23:00:00Z'));
    expect(nextDayStart(Date.parse('2027-03-28T12:00:00Z'), BERLIN)).toBe(Date.parse('2027-03-28T22:00:00Z'));
    expect(nextMonthStart(Date.parse('2026-12-31T22:59:59Z'), BERLIN)).toBe(Date.parse('2026-12-31T23:00:00Z'));
    // Santiago springs forward at midnight: 2026-09-06 begins at 01:00 local.
    const s = startOfDay(d('2026-09-06'), 'America/Santiago');
    expect(localParts(s, 'America/Santiago')).toMatchObject({ day: 6, hour: 1, minute: 0 });
    expect(offsetAt(s - 1000, 'America/Santiago')).not.toBe(offsetAt(s, 'America/Santiago'));
  });
});

describe('CronTimes', () => {
  it('counts a 23-hour and a 25-hour day exactly', () => {
    const every30 = new CronTimes('*/30 * * * *', BERLIN);
    expect(every30.countOnDay(d('2027-03-28'))).toBe(46);
    expect(every30.countOnDay(d('2026-10-25'))).toBe(50);
    expect(every30.countOnDay(d('2027-01-10'))).toBe(48);
    const at230 = new CronTimes('30 2 * * *', BERLIN);
    expect(at230.countOnDay(d('2027-03-28'))).toBe(0); // skipped hour
    expect(at230.countOnDay(d('2026-10-25'))).toBe(2); // repeated hour
    expect(new CronTimes('*/20 6-22 * * *', BERLIN).countOnDay(d('2027-03-28'))).toBe(51);
  });

  it('handles day-of-month AND day-of-week, L, W and # like node-cron', () => {
    expect(new CronTimes('0 9 * * 1-5', BERLIN).countOnDay(d('2027-01-09'))).toBe(0); // Saturday
    expect(new CronTimes('0 9 * * 1-5', BERLIN).countOnDay(d('2027-01-11'))).toBe(1);
    expect(new CronTimes('0 0 L * *', BERLIN).countOnDay(d('2027-02-28'))).toBe(1);
    expect(new CronTimes('0 0 13 * 5', BERLIN).countOnDay(d('2026-11-13'))).toBe(1); // Friday the 13th
    expect(new CronTimes('0 0 13 * 5', BERLIN).countOnDay(d('2027-01-13'))).toBe(0); // a Wednesday
    expect(new CronTimes('0 0 * * 1#2', BERLIN).countOnDay(d('2027-01-11'))).toBe(1);
    expect(new CronTimes('0 0 * * 5L', BERLIN).countOnDay(d('2027-01-29'))).toBe(1);
    expect(new CronTimes('0 0 LW * *', BERLIN).countOnDay(d('2027-01-29'))).toBe(1); // Jan 31 2027 is a Sunday
  });

  it('supports the optional seconds field', () => {
    const c = new CronTimes('*/15 0 12 * * *', BERLIN);
    expect(c.countOnDay(d('2027-01-10'))).toBe(4);
    expect(c.perMinute()).toBe(4);
    expect(c.minGapMs()).toBe(15_000);
  });

  it('finds the next and the latest run across a daylight-saving change', () => {
    const c = new CronTimes('30 2 * * *', BERLIN);
    expect(c.nextAfter(berlin('2027-03-27T03:00:00'))).toBe(berlin('2027-03-29T02:30:00'));
    const first = c.nextAfter(berlin('2026-10-24T03:00:00'))!;
    expect(first).toBe(Date.parse('2026-10-25T00:30:00Z'));
    expect(c.nextAfter(first)).toBe(Date.parse('2026-10-25T01:30:00Z'));
    expect(c.lastAtOrBefore(Date.parse('2026-10-25T05:00:00Z'), 0)).toBe(Date.parse('2026-10-25T01:30:00Z'));
    expect(new CronTimes('0 0 29 2 1', BERLIN).nextAfter(Date.UTC(2026, 10, 1))).toBeNull(); // next: 2044
  });

  it('rejects an invalid expression naming the field', () => {
    expect(() => new CronTimes('61 * * * *', BERLIN)).toThrow(/not a valid cron expression "61 \* \* \* \*"/);
  });

  const zones = [
    'Europe/Berlin',
    'America/New_York',
    'Australia/Lord_Howe',
    'America/Santiago',
    'Pacific/Chatham',
    'Asia/Kolkata',
    'UTC',
  ];
  /** Days on which the zone's offset changes in 2026-2027, and the days around them. */
  const transitionDays = (tz: string): LocalDate[] => {
    const out: LocalDate[] = [];
    for (let day = d('2026-01-01'); day.year < 2028; day = addDays(day, 1)) {
      if (dayLength(day, tz) !== 24 * HOUR) out.push(addDays(day, -1), day, addDays(day, 1));
    }
    return out.length > 0 ? out : [d('2026-06-01')];
  };
  const minuteField = fc.oneof(
    fc.constantFrom('*', '*/5', '*/7', '0', '30', '15,45', '0-10'),
    fc.integer({ min: 0, max: 59 }).map(String),
  );
  const hourField = fc.constantFrom('*', '0-3', '1,2,3', '2', '*/2', '6-22', '23', '0', '22-23', '1-4/3');
  const dayFields = fc.constantFrom('* * *', '* * 0', '1,15 * *', 'L * *', '* 3,4,9,10 *', '* * 1-5');

  it('fires at exactly the instants node-cron itself matches (brute force over daylight-saving days)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...zones),
        minuteField,
        hourField,
        dayFields,
        fc.nat(),
        async (tz, min, hour, days, pick) => {
          const expr = `${min} ${hour} ${days}`;
          const candidates = transitionDays(tz);
          const day = candidates[pick % candidates.length]!;
          const ours = new CronTimes(expr, tz).instantsOnDay(day);
          const task = createTask(expr, () => undefined, { timezone: tz });
          const theirs: number[] = [];
          const start = startOfDay(day, tz);
          const end = startOfDay(addDays(day, 1), tz);
          for (let t = start; t < end; t += 60_000) if (task.match(new Date(t))) theirs.push(t);
          await task.destroy();
          expect(ours).toEqual(theirs);
          expect(new CronTimes(expr, tz).countOnDay(day)).toBe(theirs.length);
        },
      ),
      { numRuns: 40, seed: 7 },
    );
  }, 60_000);
});

describe('quietStretch: schedules that fire less than once a year', () => {
  const from = Date.UTC(2026, 10, 28, 12);
  it('February 29 goes years without firing; January 1 never more than a year', () => {
    expect(quietStretch(new CronTimes('0 0 29 2 *', BERLIN), from)).toEqual({
      days: 1460,
      firstDates: ['2028-02-29', '2032-02-29'],
    });
    expect(quietStretch(new CronTimes('0 7 1 1 *', BERLIN), from).days).toBeLessThanOrEqual(366);
    expect(quietStretch(new CronTimes('*/10 * * * *', BERLIN), from).days).toBe(0);
  });

  it('a time the spring-forward change skips does not fire that day: 02:30 on March 29 misses 2037 in Berlin, not in UTC', () => {
    const from2036 = Date.UTC(2036, 3, 1);
    const berlinQuiet = quietStretch(new CronTimes('30 2 29 3 *', BERLIN), from2036);
    expect(berlinQuiet.days).toBeGreaterThan(366);
    expect(berlinQuiet.firstDates[0]).toBe('2038-03-29');
    expect(quietStretch(new CronTimes('30 2 29 3 *', 'UTC'), from2036)).toMatchObject({
      firstDates: ['2037-03-29', '2038-03-29'],
    });
  });
});
