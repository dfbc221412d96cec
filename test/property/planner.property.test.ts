import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENDPOINT_CREDITS } from '../../src/budget/change-aware.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { dailyCounts, horizonFrom } from '../../src/budget/plan-horizon.js';
import { planConfig } from '../../src/budget/planner.js';
import type { Figures } from '../../src/budget/plan-report.js';
import { Scheduler } from '../../src/budget/scheduler.js';
import { dateKey } from '../../src/time/zoned-time.js';
import type { Config } from '../../src/config/schema.js';
import { makeConfig, turn } from '../budget/helpers.js';
import { runs, timeout } from './arbitraries.js';
import { cronArb, localDateKey, ZoneScan, ZONES } from './cron-oracle.js';

/**
 * The planner's credit totals equal what the same schedules spend:
 *  1. against node-cron's own matcher, minute by minute over the planner's whole horizon (12 calendar months): every
 *     day's and every month's credits, the heaviest day and the typical day, per display and in total;
 *  2. against the real Scheduler on a FakeClock, over three days around a daylight-saving change (or anywhere):
 *     ticks × credits a tick, per local day, for fixed and automatic schedules.
 * Random cron expressions (node-cron's field grammar), random zones (with and without daylight saving) and start
 * dates; fast-check prints the seed of a failure.
 */

const DAY = 86_400_000;
type Endpoint = keyof typeof ENDPOINT_CREDITS;

interface DisplaySpec {
  schedule: string;
  endpoint: Endpoint;
}

function configOf(tz: string, displays: DisplaySpec[], extra: Record<string, unknown>[] = []): Config {
  return makeConfig({
    timezone: tz,
    budget: { credits_per_day: 1_000_000_000, credits_per_month: 1_000_000_000 },
    displays: [
      ...displays.map((d, i) => ({ id: `d${i}`, lat: 52.52, lon: 13.405, schedule: d.schedule, endpoint: d.endpoint })),
      ...extra.map((d, i) => ({ id: `auto${i}`, lat: 48.1, lon: 11.6, ...d })),
    ],
  });
}

const endpointArb = fc.constantFrom<Endpoint>('recweather', 'recommend');
const displaysArb = (sparse: boolean): fc.Arbitrary<DisplaySpec[]> =>
  fc.array(fc.record({ schedule: cronArb({ sparse }), endpoint: endpointArb }), { minLength: 1, maxLength: 3 });
const nowArb = fc
  .date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2028-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.getTime());

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The same figures the planner reports, from per-day credits of the oracle. */
function expectFigures(actual: Figures, perDay: number[], dayKeys: string[], months: string[], what: string): void {
  const perMonth = months.map((m) => perDay.reduce((s, c, i) => (dayKeys[i]!.startsWith(m) ? s + c : s), 0));
  expect(actual.months, `${what}: credits per month`).toEqual(perMonth);
  const maxDay = Math.max(...perDay);
  expect(actual.maxDay, `${what}: heaviest day`).toBe(maxDay);
  expect(actual.maxDayDate, `${what}: date of the heaviest day`).toBe(dayKeys[perDay.indexOf(maxDay)]);
  expect(actual.typicalDay, `${what}: typical day`).toBe(median(perDay));
  expect(actual.maxMonth, `${what}: heaviest month`).toBe(Math.max(...perMonth));
}

describe('planner credits = a simulation of the same schedules', () => {
  it('(the oracle itself counts daylight-saving days right)', () => {
    const spring = new ZoneScan('Europe/Berlin', Date.UTC(2027, 2, 27), Date.UTC(2027, 2, 30));
    expect(spring.count('30 2 * * *')).toEqual(
      new Map([
        ['2027-03-27', 1],
        ['2027-03-29', 1],
      ]),
    );
    expect(spring.count('*/20 * * * * *').get('2027-03-28')).toBe(23 * 60 * 3);
    const fall = new ZoneScan('Europe/Berlin', Date.UTC(2027, 9, 30), Date.UTC(2027, 10, 2));
    expect(fall.count('30 2 * * *').get('2027-10-31')).toBe(2);
    expect(fall.count('0 12 * * sun').get('2027-10-31')).toBe(1);
    expect(fall.count('0 12 L * *')).toEqual(new Map([['2027-10-31', 1]]));
    const lordHowe = new ZoneScan('Australia/Lord_Howe', Date.UTC(2027, 0, 1), Date.UTC(2028, 0, 1));
    expect(lordHowe.transitions).toHaveLength(2);
    const halfHours = lordHowe.count('15,45 1,2 * * *');
    // 02:00 → 02:30 skips 02:15; 02:00 → 01:30 repeats 01:45.
    expect([...new Set(halfHours.values())].sort()).toEqual([3, 4, 5]);
  });

  it(
    'per day and per month over the whole horizon, against node-cron matched minute by minute',
    () => {
      fc.assert(
        fc.property(fc.constantFrom(...ZONES), nowArb, displaysArb(false), (tz, now, displays) => {
          const config = configOf(tz, displays);
          const plan = planConfig(config, { now });
          const h = horizonFrom(now, tz);
          const dayKeys = h.days.map(dateKey);
          const first = dayKeys[0]!;
          const last = dayKeys.at(-1)!;
          // Every instant whose local date lies in the horizon (offsets are within ±14 h).
          const from = Date.parse(`${first}T00:00:00Z`) - 15 * 3_600_000;
          const to = Date.parse(`${last}T00:00:00Z`) + DAY + 15 * 3_600_000;
          const scan = new ZoneScan(tz, from, to);
          const total = dayKeys.map(() => 0);
          displays.forEach((d, i) => {
            const brute = scan.count(d.schedule);
            const cost = ENDPOINT_CREDITS[d.endpoint];
            const perDay = dayKeys.map((k) => (brute.get(k) ?? 0) * cost);
            perDay.forEach((c, k) => (total[k]! += c));
            const p = plan.displays[i]!;
            expect(p.schedule).toBe(d.schedule);
            // Every single day, not only the figures the report shows.
            const planned = Array.from(dailyCounts(h, d.schedule), (n) => n * cost);
            const wrong = dayKeys.filter((_, k) => planned[k] !== perDay[k]).slice(0, 5);
            expect(
              wrong.map((k) => `${k}: planned ${planned[dayKeys.indexOf(k)]}, fired ${perDay[dayKeys.indexOf(k)]}`),
              `"${d.schedule}" in ${tz}`,
            ).toEqual([]);
            expectFigures(p.credits, perDay, dayKeys, plan.months, `"${d.schedule}" in ${tz}`);
            expectFigures(
              p.calls,
              perDay.map((c) => c / cost),
              dayKeys,
              plan.months,
              `calls of "${d.schedule}" in ${tz}`,
            );
          });
          expectFigures(plan.total.credits, total, dayKeys, plan.months, `total in ${tz}`);
        }),
        { numRuns: runs(60) },
      );
    },
    timeout(60_000),
  );

  it(
    'per day, against the real Scheduler ticking on a FakeClock (ticks × credits), daylight-saving days included',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...ZONES),
          nowArb,
          displaysArb(true),
          fc.option(
            fc.record({
              active_hours: fc.constantFrom('06:00-23:00', '00:00-04:00', '22:00-06:00', '01:30-03:30'),
              endpoint: endpointArb,
              budget: fc.integer({ min: 20, max: 400 }),
            }),
            { nil: undefined },
          ),
          fc.boolean(),
          fc.nat(),
          async (tz, now, displays, auto, nearDst, pick) => {
            const extra =
              auto === undefined
                ? []
                : [{ schedule: 'auto', active_hours: auto.active_hours, endpoint: auto.endpoint }];
            let config = configOf(tz, displays, extra);
            if (auto !== undefined)
              config = {
                ...config,
                budget: { ...config.budget, credits_per_day: auto.budget, credits_per_month: undefined },
              };
            // Start: anywhere in the plan's first months, or up to a day and a half before a change of UTC offset.
            const transitions = new ZoneScan(tz, now, now + 300 * DAY).transitions;
            const start =
              nearDst && transitions.length > 0
                ? transitions[pick % transitions.length]! - (pick % 36) * 3_600_000 - 1
                : now + (pick % 200) * 3_600_000;
            const plan = planConfig(config, { now: start });
            const h = horizonFrom(start, tz);
            const keys = h.days.map(dateKey);

            const clock = new FakeClock(start);
            const ticks: Array<{ id: string; at: number }> = [];
            const scheduler = new Scheduler({
              config,
              clock,
              // Every tick of the calendar: pacing an over-budget schedule is test/budget/pacing.test.ts's subject.
              schedules: new Map(plan.displays.map((d) => [d.id, d.schedule])),
              onTick: (id, at) => {
                ticks.push({ id, at: at.getTime() });
                return Promise.resolve();
              },
            });
            scheduler.start();
            const end = 3 * DAY;
            while (clock.monotonic() < end) {
              const ms = clock.msToNextTimer();
              if (ms === null || clock.monotonic() + ms > end) break;
              clock.runNext();
              await turn();
            }
            await scheduler.stop();

            // Whole local days inside the run: after the first local date and before the last.
            const firstDay = localDateKey(tz, start);
            const lastDay = localDateKey(tz, start + end);
            const inside = keys.filter((k) => k > firstDay && k < lastDay);
            expect(inside.length).toBeGreaterThanOrEqual(1);
            const totalPlanned = inside.map(() => 0);
            const totalSpent = inside.map(() => 0);
            config.displays.forEach((d, i) => {
              const p = plan.displays[i]!;
              const cost = ENDPOINT_CREDITS[d.endpoint];
              const counts = dailyCounts(h, p.schedule);
              inside.forEach((k, j) => {
                const planned = (counts[keys.indexOf(k)] ?? 0) * cost;
                const spent = ticks.filter((t) => t.id === d.id && localDateKey(tz, t.at) === k).length * cost;
                expect(spent, `${d.id} "${p.schedule}" (${d.schedule}) in ${tz} on ${k}`).toBe(planned);
                totalPlanned[j]! += planned;
                totalSpent[j]! += spent;
              });
            });
            expect(totalSpent).toEqual(totalPlanned);
            // No tick twice, and none scheduled before the start.
            expect(new Set(ticks.map((t) => `${t.id}@${t.at}`)).size).toBe(ticks.length);
            expect(ticks.every((t) => t.at > start)).toBe(true);
          },
        ),
        { numRuns: runs(30) },
      );
    },
    timeout(60_000),
  );
});
