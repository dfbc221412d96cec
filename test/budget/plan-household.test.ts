import { describe, expect, it } from 'vitest';
import { formatPlan } from '../../src/budget/plan-format.js';
import { overBudget, planConfig } from '../../src/budget/planner.js';
import { makeConfig } from './helpers.js';

/** `plan` counts purchases, not people: one per distinct request a slot, shared by displays on one schedule. */

const NOW = Date.UTC(2026, 10, 21, 12); // the horizon: 2026-11 to 2027-10
const PEOPLE = [
  { id: 'anna', name: 'Anna', gender: 'female' },
  { id: 'ben', name: 'Ben', gender: 'male' },
  { id: 'cleo', name: 'Cleo', gender: 'female' },
];
const at = (id: string, extra: Record<string, unknown>): Record<string, unknown> => ({
  id,
  lat: 52.52,
  lon: 13.405,
  ...extra,
});

describe('plan of a household', () => {
  it('a display costs one purchase per distinct request of its people; displays on one schedule share them', () => {
    const r = planConfig(
      makeConfig({
        budget: { credits_per_day: 300 },
        people: PEOPLE,
        displays: [
          // Anna and Cleo ask the same: two requests a slot (female, male), 16 slots a day, 3 credits each.
          at('hallway', { schedule: '0 6-21 * * *', people: ['anna', 'ben', 'cleo'] }),
          // Anna's request is the hallway's, on the same schedule: nothing of its own.
          at('kitchen', { schedule: '0 6-21 * * *', people: ['anna'] }),
          // Ben's on another schedule: bought for its own slots.
          at('study', { schedule: '30 6-21 * * *', people: ['ben'] }),
          at('porch', { schedule: '0 6-21 * * *' }),
        ],
      }),
      { now: NOW },
    );
    const by = new Map(r.displays.map((d) => [d.id, d]));
    expect(by.get('hallway')?.purchases).toEqual({
      people: ['anna', 'ben', 'cleo'],
      requests: 2,
      purchases: 2,
      sharesWith: [],
    });
    expect(by.get('kitchen')?.purchases).toMatchObject({ requests: 1, purchases: 0, sharesWith: ['hallway'] });
    expect(by.get('study')?.purchases).toMatchObject({ requests: 1, purchases: 1, sharesWith: [] });
    expect(by.get('porch')?.purchases).toMatchObject({ people: null, purchases: 1 });
    expect(by.get('hallway')?.credits.maxDay).toBe(16 * 2 * 3);
    expect(by.get('kitchen')?.credits.maxDay).toBe(0);
    expect(by.get('study')?.calls.maxDay).toBe(16);
    expect(r.household?.displays).toEqual(['hallway', 'kitchen', 'study']);
    expect(r.household?.credits.maxDay).toBe(16 * 3 * 3);
    expect(r.household?.credits.maxMonth).toBe(31 * 16 * 3 * 3);
    expect(r.total.credits.maxDay).toBe(16 * 4 * 3);
    const text = formatPlan(r);
    expect(text).toContain('Household (one purchase per distinct request a slot');
    expect(text).toContain('  hallway: anna, ben, cleo: 2 purchases a slot (2 distinct requests)');
    expect(text).toContain('  kitchen: anna: 0 purchases a slot (1 distinct request, 1 shared with hallway)');
    expect(text).toContain('  the household: 144 credits/day typ, 144 max');
    expect(text).toContain('4464 credits/month max');
  });

  it('is over budget by its purchases, where the same display of one person would fit', () => {
    const config = (people: string[]): ReturnType<typeof makeConfig> =>
      makeConfig({
        budget: { credits_per_day: 60, refresh_reserve_credits: 0 },
        people: PEOPLE,
        displays: [at('hallway', { schedule: '0 6-21 * * *', people })],
      });
    expect(overBudget(planConfig(config(['anna', 'cleo']), { now: NOW }))).toBe(false);
    const two = planConfig(config(['anna', 'ben']), { now: NOW });
    expect(overBudget(two)).toBe(true);
    expect(two.warnings[0]).toMatch(/^W_OVER_BUDGET: the schedules need up to 96 credits a day/);
  });
});
