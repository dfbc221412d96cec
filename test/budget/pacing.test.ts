import { describe, expect, it } from 'vitest';
import { FakeClock } from '../helpers/fake-clock.js';
import { Governor } from '../../src/budget/governor.js';
import { formatPlan, planConfig } from '../../src/budget/planner.js';
import { Scheduler } from '../../src/budget/scheduler.js';
import { fakeClient } from './fake-client.js';
import { berlin, makeConfig, stateDir, turn } from './helpers.js';

const MIN = 60_000;
const INTERVAL = 15 * MIN;
// 64 ticks a day (06:00-21:45, every 15 min) at 3 credits: 192 credits against 48: four times the budget.
const RAW = { budget: { credits_per_day: 48 }, displays: [{ id: 'hall', lat: 50, lon: 10, schedule: '*/15 6-21 * * *' }] };

/** One simulated day of the real Scheduler and Governor; the frame's age (since its last answer) at every tick time. */
async function simulateDay(pace?: number): Promise<{ maxAge: number; spent: number; answers: number }> {
  const clock = new FakeClock(berlin('2027-01-11T00:00:00'));
  const config = makeConfig(RAW);
  const { client } = fakeClient(clock);
  const governor = new Governor({ config, stateDir: await stateDir(), client, clock, random: () => 0.5 });
  await governor.load();
  let inflight = 0;
  let lastAnswer: number | null = null;
  const scheduler = new Scheduler({
    config,
    clock,
    ...(pace !== undefined && { pace }),
    onTick: async (id) => {
      inflight++;
      try {
        const out = await governor.fetch(config.displays.find((d) => d.id === id)!, 'schedule', null);
        if (out.kind === 'fresh') lastAnswer = clock.now();
      } finally {
        inflight--;
      }
    },
  });
  scheduler.start();
  const end = berlin('2027-01-11T23:59:00');
  let maxAge = 0;
  let answers = 0;
  let seen: number | null = null;
  while (clock.now() < end) {
    await turn();
    while (inflight > 0) await new Promise((r) => setTimeout(r, 1)); // the ledger's real disk writes
    if (lastAnswer !== seen) {
      answers++;
      seen = lastAnswer;
    }
    const t = clock.now();
    const local = new Date(t).toLocaleTimeString('en-GB', { timeZone: 'Europe/Berlin', hour12: false });
    // The active day: from the first tick's answer to the end of the last tick's interval (22:00).
    if (lastAnswer !== null && local >= '06:00:00' && local <= '22:00:00') maxAge = Math.max(maxAge, t - lastAnswer);
    if (clock.runNext() === false) break;
  }
  await scheduler.stop();
  return { maxAge, spent: governor.status().spentToday, answers };
}

describe('Pacing a schedule over the budget', () => {
  it('thins the ticks evenly across the active day: the frame is never older than about four intervals', async () => {
    const paced = await simulateDay();
    expect(paced.spent).toBeLessThanOrEqual(48);
    expect(paced.answers).toBe(16);
    expect(paced.maxAge).toBeLessThanOrEqual(4 * INTERVAL);
    // Unpaced (what it did before): the day's credits go in the first four hours, then the frame ages for twelve.
    const burst = await simulateDay(1);
    expect(burst.spent).toBeLessThanOrEqual(48);
    expect(burst.maxAge).toBeGreaterThan(10 * 60 * MIN);
  });

  it('plan and the start-up warning say which share of the ticks runs', () => {
    const report = planConfig(makeConfig(RAW), { now: berlin('2027-01-11T00:00:00') });
    expect(report.pace).toBe(0.25);
    expect(formatPlan(report)).toMatch(/OVER BUDGET: the ticks are thinned evenly across the day .*1 tick in 4/);
    expect(report.warnings[0]).toMatch(/^W_OVER_BUDGET: .*thinned evenly across the day: 1 tick in 4 runs/);
  });
});
