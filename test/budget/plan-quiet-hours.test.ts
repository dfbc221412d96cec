import { describe, expect, it } from 'vitest';
import { planConfig } from '../../src/budget/planner.js';
import { makeConfig } from './helpers.js';

const NOW = Date.UTC(2026, 10, 21, 12); // the horizon: 2026-11 to 2027-10

/** `plan` counts no purchase in quiet hours: the daemon makes none there (src/budget/scheduler.ts, held ticks). */
describe('plan and quiet hours', () => {
  const display = { id: 'hall', lat: 52.52, lon: 13.405, schedule: '*/30 * * * *' };

  it('counts the half-hour schedule outside 22:30-06:30 only: 32 a day, not 48', () => {
    const plain = planConfig(makeConfig({ displays: [display] }), { now: NOW });
    const quiet = planConfig(makeConfig({ displays: [display], quiet_hours: '22:30-06:30' }), { now: NOW });
    expect(plain.displays[0]!.calls.typicalDay).toBe(48);
    expect(quiet.displays[0]!.calls.typicalDay).toBe(32);
    expect(quiet.displays[0]!.calls.maxMonth).toBe(32 * 31);
  });

  it("takes a display's own quiet hours over the top-level ones, also on a daylight-saving day", () => {
    const own = planConfig(
      makeConfig({ displays: [{ ...display, quiet_hours: '00:00-12:00' }], quiet_hours: '22:30-06:30' }),
      { now: NOW },
    );
    expect(own.displays[0]!.calls.typicalDay).toBe(24);
    // 2027-03-28, 02:00-03:00 skipped: in the quiet morning, so the day still counts 24.
    const i = own.months.indexOf('2027-03');
    expect(own.displays[0]!.calls.months[i]).toBe(24 * 31);
  });

  it('lets an auto schedule buy more often by day with the nights free, within the same budget', () => {
    const auto = { id: 'hall', lat: 52.52, lon: 13.405, schedule: 'auto' };
    const budget = { credits_per_day: 50 };
    const day = planConfig(makeConfig({ budget, displays: [auto] }), { now: NOW });
    const quiet = planConfig(makeConfig({ budget, displays: [auto], quiet_hours: '22:00-07:00' }), { now: NOW });
    expect(quiet.displays[0]!.credits.maxDay).toBeLessThanOrEqual(50);
    expect([day.displays[0]!.schedule, quiet.displays[0]!.schedule]).toEqual(['0 0-22/2 * * *', '0 * * * *']);
    expect(quiet.displays[0]!.calls.typicalDay).toBeGreaterThanOrEqual(day.displays[0]!.calls.typicalDay);
  });
});
