import { describe, expect, it } from 'vitest';
import { FakeClock } from '../helpers/fake-clock.js';
import { Governor } from '../../src/budget/governor.js';
import { formatPlan } from '../../src/budget/plan-format.js';
import { planConfig } from '../../src/budget/planner.js';
import { Scheduler } from '../../src/budget/scheduler.js';
import { fakeClient } from './fake-client.js';
import { berlin, makeConfig, stateDir, turn } from './helpers.js';

const MIN = 60_000;
const INTERVAL = 15 * MIN;
// 64 ticks a day (06:00-21:45, every 15 min) at 3 credits: 192 credits against 48: four times the budget.
const RAW = {
  budget: { credits_per_day: 48 },
  displays: [{ id: 'hall', lat: 50, lon: 10, schedule: '*/15 6-21 * * *' }],
};

/**
 * One simulated day of the real Scheduler and Governor; the frame's age (since its last answer) at every tick time.
 * `schedules`: what the scheduler runs (default: what the daemon resolves, paced); `restartAt`: a restart of both at
 * that local time (a new process on the same state folder, as systemd would start it).
 */
async function simulateDay(
  opts: { schedules?: Map<string, string>; restartAt?: string } = {},
): Promise<{ maxAge: number; spent: number; answers: number; buys: number[] }> {
  const clock = new FakeClock(berlin('2027-01-11T00:00:00'));
  const config = makeConfig(RAW);
  const { client } = fakeClient(clock);
  const dir = await stateDir();
  let inflight = 0;
  let lastAnswer: number | null = null;
  const buys: number[] = [];
  const boot = async (): Promise<{ governor: Governor; scheduler: Scheduler }> => {
    const governor = new Governor({ config, stateDir: dir, client, clock, random: () => 0.5 });
    await governor.load();
    const scheduler = new Scheduler({
      config,
      clock,
      ...(opts.schedules && { schedules: opts.schedules }),
      // The answer on show outlives a restart (the last good store).
      lastAnswerAt: () => lastAnswer,
      onTick: async (id) => {
        inflight++;
        try {
          const out = await governor.fetch(
            config.displays.find((d) => d.id === id)!,
            'schedule',
            null,
          );
          if (out.kind === 'fresh') {
            lastAnswer = clock.now();
            buys.push(lastAnswer);
          }
        } finally {
          inflight--;
        }
      },
    });
    scheduler.start();
    return { governor, scheduler };
  };
  let running = await boot();
  let restartAt = opts.restartAt === undefined ? null : berlin(`2027-01-11T${opts.restartAt}`);
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
    if (restartAt !== null && t >= restartAt) {
      restartAt = null;
      await running.scheduler.stop();
      await running.governor.flush();
      running = await boot();
    }
    const next = clock.msToNextTimer();
    if (restartAt !== null && next !== null && t + next > restartAt) {
      clock.advance(restartAt - t);
      continue;
    }
    if (clock.runNext() === false) break;
  }
  await running.scheduler.stop();
  return { maxAge, spent: running.governor.status().spentToday, answers, buys };
}

/** The hour (local, "HH") of each instant. */
const hours = (ts: number[]): string[] =>
  ts.map((t) => new Date(t).toLocaleTimeString('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', hour12: false }));

describe('Pacing a schedule over the budget', () => {
  it('runs the densest schedule that fits: on the hour all day, the frame never older than four intervals', async () => {
    const paced = await simulateDay();
    expect(paced.spent).toBeLessThanOrEqual(48);
    expect(paced.answers).toBe(16);
    expect(paced.maxAge).toBeLessThanOrEqual(4 * INTERVAL);
    expect(hours(paced.buys)).toEqual([
      '06',
      '07',
      '08',
      '09',
      '10',
      '11',
      '12',
      '13',
      '14',
      '15',
      '16',
      '17',
      '18',
      '19',
      '20',
      '21',
    ]);
    // Unpaced (every configured tick): the day's credits go in the first four hours, then the frame ages for twelve.
    const burst = await simulateDay({ schedules: new Map([['hall', '*/15 6-21 * * *']]) });
    expect(burst.spent).toBeLessThanOrEqual(48);
    expect(burst.maxAge).toBeGreaterThan(10 * 60 * MIN);
  });

  it("a restart seconds after a purchase neither buys again nor skips a slot: the slots are the clock's", async () => {
    const restarted = await simulateDay({ restartAt: '10:00:05' });
    expect(hours(restarted.buys)).toEqual([
      '06',
      '07',
      '08',
      '09',
      '10',
      '11',
      '12',
      '13',
      '14',
      '15',
      '16',
      '17',
      '18',
      '19',
      '20',
      '21',
    ]);
    expect(restarted.spent).toBe(48);
  });

  it('plan and the start-up warning name the schedules that run', () => {
    const report = planConfig(makeConfig(RAW), { now: berlin('2027-01-11T00:00:00') });
    expect(report.paced).toBe(true);
    expect(report.runs).toEqual(new Map([['hall', '0 6-21 * * *']]));
    expect(formatPlan(report)).toMatch(
      /OVER BUDGET: the daemon runs the densest schedules that fit instead[^\n]*\n {2}hall: schedule: "0 6-21 \* \* \*"/,
    );
    expect(report.warnings[0]).toMatch(
      /^W_OVER_BUDGET: .*densest schedules that fit: hall: "0 6-21 \* \* \*"; the daemon runs these instead, so the credits last the day$/,
    );
    // Without pacing, every configured tick runs (the governor caps the spending), and the plan says so.
    const unpaced = planConfig(makeConfig({ ...RAW, budget: { ...RAW.budget, pace_over_budget: false } }), {
      now: berlin('2027-01-11T00:00:00'),
    });
    expect(unpaced.runs).toEqual(new Map([['hall', '*/15 6-21 * * *']]));
    expect(formatPlan(unpaced)).toMatch(/every tick runs until the budget is spent/);
  });
});
