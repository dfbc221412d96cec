import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { activeHourList, candidateSchedules, hourField } from '../../src/budget/auto-schedule.js';
import { tickCost } from '../../src/budget/change-aware.js';
import { formatPlan } from '../../src/budget/plan-format.js';
import { overBudget, planConfig, resolveSchedules } from '../../src/budget/planner.js';
import { parseConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { makeConfig } from './helpers.js';

const NOW = Date.UTC(2026, 10, 21, 12); // the horizon: 2026-11 to 2027-10
const display = (id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  lat: 52.52,
  lon: 13.405,
  ...extra,
});

function exampleConfig(): Config {
  const r = parseConfig(parse(readFileSync('config/example.yaml', 'utf8')));
  if (!r.ok) throw new Error(r.problems.join('\n'));
  return r.config;
}

describe('planConfig on config/example.yaml (parsed by parseConfig)', () => {
  const report = planConfig(exampleConfig(), { now: NOW });
  const text = formatPlan(report);

  it('counts the fixed schedule exactly and derives the auto one', () => {
    const hallway = report.displays.find((d) => d.id === 'hallway')!;
    expect(hallway.calls.maxDay).toBe(34);
    expect(hallway.credits.maxDay).toBe(102);
    expect(hallway.calls.maxMonth).toBe(34 * 31);
    expect(hallway.credits.months[report.months.indexOf('2027-02')]).toBe(102 * 28);
    const kitchen = report.displays.find((d) => d.id === 'kitchen')!;
    expect(kitchen.configured).toBe('auto');
    expect(kitchen.schedule).toBe('0 6-22 * * *');
    expect(report.months).toEqual([
      '2026-11',
      '2026-12',
      ...Array.from({ length: 10 }, (_, i) => `2027-${String(i + 1).padStart(2, '0')}`),
    ]);
    expect(overBudget(report)).toBe(false);
    expect(report.warnings).toEqual([]);
  });

  it('prints the table the plan command shows', () => {
    expect(text).toContain('hallway  */30 6-22 * * *');
    expect(text).toContain('kitchen  auto → 0 6-22 * * *');
    expect(text).toMatch(/^total\s+51\s+51\s+153\s+153\s+1581\s+4743 \(2026-12\)$/m);
    expect(text).toMatch(/^budget\s+\(minus 15\/day refresh reserve\)\s+185\s+5535/m);
    expect(text).toContain('Within budget');
  });

  it('matches resolveSchedules', () => {
    expect(resolveSchedules(exampleConfig(), { now: NOW })).toEqual(
      new Map([
        ['hallway', '*/30 6-22 * * *'],
        ['kitchen', '0 6-22 * * *'],
      ]),
    );
  });
});

describe('planConfig', () => {
  it('enumerates daylight-saving days: 23 and 25 hourly ticks', () => {
    const r = planConfig(
      makeConfig({ budget: { credits_per_day: 100 }, displays: [display('a', { schedule: '0 * * * *' })] }),
      { now: NOW },
    );
    const a = r.displays[0]!;
    expect(a.calls.maxDay).toBe(25);
    expect(a.calls.maxDayDate).toBe('2027-10-31');
    expect(a.calls.typicalDay).toBe(24);
    expect(a.calls.months[r.months.indexOf('2027-03')]).toBe(31 * 24 - 1);
    expect(a.calls.months[r.months.indexOf('2027-10')]).toBe(31 * 24 + 1);
    expect(a.credits.maxDay).toBe(75);
    expect(r.overDay).toBe(false);
  });

  it('is over budget when the worst day exceeds, and proposes the densest schedules that fit', () => {
    const config = makeConfig({
      budget: { credits_per_day: 120, refresh_reserve_credits: 6 },
      displays: [
        display('a', { schedule: '*/10 6-22 * * *' }),
        display('b', { schedule: '*/15 * * * *', endpoint: 'recommend' }),
      ],
    });
    const r = planConfig(config, { now: NOW });
    expect(overBudget(r)).toBe(true);
    expect(r.proposal).not.toBeNull();
    const fixed = makeConfig({
      ...config,
      displays: config.displays.map((d) => ({ ...d, schedule: r.proposal!.get(d.id)! })),
    });
    const again = planConfig(fixed, { now: NOW });
    expect(overBudget(again)).toBe(false);
    expect(again.total.credits.maxDay).toBeLessThanOrEqual(114);
    expect(r.warnings[0]).toMatch(
      /^W_OVER_BUDGET: the schedules need up to \d+ credits a day \(\d{4}-\d{2}-\d{2}\) against 114 a day/,
    );
    expect(r.warnings[0]).toContain('densest schedules that fit: a: "');
    const text = formatPlan(r);
    expect(text).toContain('OVER BUDGET');
    expect(text).toContain(`  a: schedule: "${r.proposal!.get('a')!}"`);
  });

  it('checks a monthly budget against each month, less the reserve of each day', () => {
    const config = makeConfig({
      budget: { credits_per_month: 3000, refresh_reserve_credits: 2 },
      displays: [display('a', { schedule: '0 6-22/2 * * *' })], // 9 a day, 27 credits
    });
    const r = planConfig(config, { now: NOW });
    expect(r.budget.monthAllowance?.[r.months.indexOf('2027-02')]).toBe(3000 - 2 * 28);
    expect(r.total.credits.maxMonth).toBe(27 * 31);
    expect(overBudget(r)).toBe(false);
    const tight = planConfig(
      makeConfig({ ...config, budget: { credits_per_month: 27 * 31 + 2 * 31 - 1, refresh_reserve_credits: 2 } }),
      { now: NOW },
    );
    expect(tight.overMonth).toBe(true);
    expect(tight.overDay).toBe(false);
  });

  it('derives the densest auto schedule: the next denser one would not fit', () => {
    const config = makeConfig({
      budget: { credits_per_day: 150 },
      displays: [display('a', { schedule: 'auto', active_hours: '06:00-23:00' })],
    });
    const chosen = resolveSchedules(config, { now: NOW }).get('a')!;
    const cands = candidateSchedules(activeHourList('06:00-23:00'));
    expect(
      planConfig(makeConfig({ ...config, displays: [display('a', { schedule: chosen })] }), { now: NOW }).overDay,
    ).toBe(false);
    const denser = cands[cands.indexOf(chosen) - 1]!;
    expect(
      planConfig(makeConfig({ ...config, displays: [display('a', { schedule: denser })] }), { now: NOW }).overDay,
    ).toBe(true);
    expect(chosen).toBe('*/30 6-22 * * *'); // 34 ticks = 102 credits; every 20 min would be 153
  });

  it('shares the budget fairly between auto displays, after the fixed ones', () => {
    const config = makeConfig({
      budget: { credits_per_day: 300 },
      displays: [
        display('fixed', { schedule: '0 8,12,18 * * *' }),
        display('a', { schedule: 'auto' }),
        display('b', { schedule: 'auto', endpoint: 'recommend' }),
      ],
    });
    const r = planConfig(config, { now: NOW });
    expect(overBudget(r)).toBe(false);
    const a = r.displays[1]!;
    const b = r.displays[2]!;
    expect(Math.abs(a.calls.typicalDay - b.calls.typicalDay)).toBeLessThanOrEqual(
      Math.max(a.calls.typicalDay, b.calls.typicalDay) / 2,
    );
    expect(r.total.credits.maxDay).toBeGreaterThan(200);
  });

  it('accounts for change-aware displays: worst case and the expected saving', () => {
    const config = makeConfig({
      budget: { credits_per_day: 300, weather_credit_cost: 1 },
      displays: [
        display('a', { schedule: '*/30 6-22 * * *', change_aware: { max_age_minutes: 180, expected_change_pct: 25 } }),
      ],
    });
    const r = planConfig(config, { now: NOW });
    const a = r.displays[0]!;
    expect(a.calls.maxDay).toBe(68);
    expect(a.credits.maxDay).toBe(34 * 4);
    expect(a.expectedCredits!.maxDay).toBeLessThan(a.plainCredits!.maxDay);
    expect(formatPlan(r)).toMatch(/a: expected ~[\d.]+ credits\/day, .*expected saving ~\d+ credits\/month \(\d+%\)/);
    // Closed form: k = 6 ticks to the maximum age, p = 0.25.
    const c = tickCost(config.displays[0]!, config, 30 * 60_000);
    const q = 0.75;
    const cycle = (1 - q ** 6) / 0.25;
    expect(c.creditsExpected).toBeCloseTo((3 + ((1 - q ** 5) / 0.25) * 1) / cycle, 10);
  });

  it('warns when schedules can put more requests in one minute than the rate limit', () => {
    const r = planConfig(
      makeConfig({
        budget: { credits_per_day: 100000, rate_limit_per_minute: 2 },
        displays: [display('a', { schedule: '*/10 * * * * *' })],
      }),
      { now: NOW },
    );
    expect(r.warnings.some((w) => w.startsWith('W_RATE_PEAK: up to 6 requests'))).toBe(true);
  });
});

describe('auto schedule candidates', () => {
  it('turns active_hours into whole hours, rounded inward, wrapping midnight', () => {
    expect(activeHourList('06:00-23:00')).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22]);
    expect(activeHourList('06:30-22:15')).toEqual([7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
    expect(activeHourList('22:00-06:00')).toEqual([22, 23, 0, 1, 2, 3, 4, 5]);
    expect(activeHourList(undefined)).toHaveLength(24);
    expect(hourField([22, 23, 0, 1, 2, 3, 4, 5])).toBe('22,23,0-5');
    expect(hourField([6, 10, 14, 18, 22])).toBe('6-22/4');
    expect(hourField([6, 12])).toBe('6,12');
    expect(hourField(activeHourList(undefined))).toBe('*');
  });

  it('lists clock-aligned schedules, densest first', () => {
    const c = candidateSchedules([6, 7, 8]);
    expect(c[0]).toBe('* 6-8 * * *');
    expect(c).toContain('*/15 6-8 * * *');
    expect(c).toContain('0 6-8 * * *');
    expect(c).toContain('0 6,8 * * *');
    expect(candidateSchedules(activeHourList(undefined))).toContain('0 0-22/2 * * *');
    expect(c.at(-1)).toBe('0 6 * * 1');
  });
});
