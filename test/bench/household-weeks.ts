import { parseArgs } from 'node:util';
import { CronTimes } from '../../src/budget/cron-times.js';
import { tickCost } from '../../src/budget/change-aware.js';
import { resolveSchedules } from '../../src/budget/planner.js';
import { Scheduler } from '../../src/budget/scheduler.js';
import { parseConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { HouseholdGate } from '../../src/household/household-gate.js';
import { PresenceBook } from '../../src/household/presence-book.js';
import { VirtualClock } from '../../src/time/virtual-clock.js';
import { inQuietHours, parseQuietHours } from '../../src/time/quiet-hours.js';
import type { Bench } from './bench.js';

/**
 * Four simulated weeks of a household (docs/guides/household.md, "Bought when someone will see it"), through the real
 * Scheduler held by the real HouseholdGate and PresenceBook on a virtual clock; the purchase itself is a counter (what
 * is measured is when purchases are made, not how). Against the same household on today's fixed schedule.
 *
 * The household (Europe/Berlin, from Monday 4 January 2027, UTC+1 throughout): Anna and Ben; on work days (Monday to
 * Friday) both leave at 07:40 (`leaves: ["1-5 07:40"]`) and are away 08:00-17:30; the third week is a holiday, everyone
 * away from its Monday 00:00 to its Sunday 17:30; quiet hours 22:30-06:30. Someone at home and awake (outside the
 * quiet hours) looks at the frame every 10 minutes, at :05, :15, … (off the slots, so a look never ties with a
 * purchase); a look at a frame older than the schedule's period (30 minutes) is a stale moment.
 *
 * Today: `*\/30 6-22 * * *` (34 a day), presence and quiet hours ignored. The household: `schedule: auto` within the
 * same budget (34 purchases' worth a day), quiet hours counted by the planner, held by quiet hours and presence, an
 * arrival buying at once, a purchase 15 minutes before each departure.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const WEEKS = 4;
const TZ = 'Europe/Berlin';
/** Monday 4 January 2027, 00:00 in Berlin (UTC+1). */
const START = Date.UTC(2027, 0, 3, 23, 0);
const QUIET = '22:30-06:30';
const FIXED = '*/30 6-22 * * *';
const LOOK_EVERY_MS = 10 * MIN;
const LOOK_OFFSET_MS = 5 * MIN;

export interface HouseholdResult {
  name: string;
  /** The schedule that ran (auto resolved). */
  schedule: string;
  purchases: number;
  creditsPerDay: number;
  looks: number;
  staleLooks: number;
  /** Stale looks per look, %. */
  stalePct: number;
}

export interface HouseholdFigures {
  today: HouseholdResult;
  household: HouseholdResult;
  /** Fewer credits than today, %. */
  reductionPct: number;
}

function config(household: boolean, creditsPerDay: number): Config {
  const person = (id: string, name: string): Record<string, unknown> => ({
    id,
    name,
    presence_topic: `homeassistant/person/${id}/state`,
    leaves: ['1-5 07:40'],
  });
  const r = parseConfig({
    api: { base_url: 'simulated' },
    budget: { credits_per_day: creditsPerDay },
    timezone: TZ,
    people: [person('anna', 'Anna'), person('ben', 'Ben')],
    ...(household && { quiet_hours: QUIET }),
    displays: [
      {
        id: 'hallway',
        lat: 52.52,
        lon: 13.405,
        schedule: household ? 'auto' : FIXED,
        ...(household && { people: ['anna', 'ben'] }),
      },
    ],
  });
  if (!r.ok) throw new Error(r.problems.join('\n'));
  return r.config;
}

/** Where the household is: [time, person, payload], in order. */
function presenceTrace(): Array<[number, string, string]> {
  const out: Array<[number, string, string]> = [];
  const both = (t: number, payload: string): void => {
    out.push([t, 'anna', payload], [t, 'ben', payload]);
  };
  for (let day = 0; day < WEEKS * 7; day++) {
    const week = Math.floor(day / 7);
    const weekday = day % 7; // 0 = Monday
    const base = START + day * DAY;
    if (week === 2) {
      if (weekday === 0) both(base, 'not_home');
      if (weekday === 6) both(base + 17.5 * HOUR, 'home');
      continue;
    }
    if (weekday < 5) {
      both(base + 8 * HOUR, 'not_home');
      both(base + 17.5 * HOUR, 'home');
    }
  }
  return out;
}

async function turn(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Runs the weeks for one case; `household` false is today's daemon (no gate). */
export async function runHousehold(household: boolean): Promise<HouseholdResult> {
  // A budget of today's schedule: 34 purchases a day at the display's price.
  const probe = config(false, 100_000);
  const price = tickCost(probe.displays[0]!, probe, new CronTimes(FIXED, TZ).minGapMs()).creditsWorst;
  const cfg = config(household, 34 * price);
  const clock = new VirtualClock(START);
  const presence = new PresenceBook({ personIds: ['anna', 'ben'], clock });
  // Both at home at the start (Monday 00:00).
  presence.record('anna', 'home');
  presence.record('ben', 'home');
  const gate = new HouseholdGate({ config: cfg, presence });
  const schedules = resolveSchedules(cfg, { now: START });
  const schedule = schedules.get('hallway') ?? FIXED;
  const periodMs = new CronTimes(schedule, TZ).minGapMs();
  let lastBought: number | null = START - 5 * MIN;
  let purchases = 0;
  const buy = (): void => {
    purchases++;
    lastBought = clock.now();
  };
  const scheduler = new Scheduler({
    config: cfg,
    clock,
    schedules,
    // The virtual clock never steps: the scheduler need not wake each minute to look for a jump.
    maxSleepMs: 6 * HOUR,
    onTick: () => {
      buy();
      return Promise.resolve();
    },
    lastAnswerAt: () => lastBought,
    ...(household && {
      hold: (id: string, at: number) => gate.hold(id, at),
      extraTimes: (id: string) => gate.departureTimes(id),
    }),
  });
  if (household)
    presence.onChange((change) => {
      const ctx = {
        periodMs: () => periodMs,
        lastAnswerAt: () => lastBought,
        nextRunAt: (id: string) => scheduler.nextRun(id)?.getTime() ?? null,
      };
      for (const id of gate.arrivalPurchases(change, clock.now(), ctx)) if (id) buy();
    });
  const quiet = parseQuietHours(QUIET);
  const end = START + WEEKS * 7 * DAY;
  const trace = presenceTrace();
  let looks = 0;
  let staleLooks = 0;
  let nextLook = START + LOOK_OFFSET_MS;
  scheduler.start();
  const advanceTo = async (t: number): Promise<void> => {
    for (;;) {
      await turn();
      const next = clock.msToNextTimer();
      if (next === null || clock.now() + next > t) break;
      clock.runNext();
    }
    clock.advance(Math.max(0, t - clock.now()));
    await turn();
  };
  while (nextLook < end || trace.length > 0) {
    const event = trace[0];
    if (event !== undefined && event[0] <= nextLook) {
      await advanceTo(event[0]);
      trace.shift();
      presence.record(event[1], event[2]);
      continue;
    }
    if (nextLook >= end) break;
    await advanceTo(nextLook);
    const someoneHome = presence.isHome('anna') || presence.isHome('ben');
    if (someoneHome && !inQuietHours(quiet, nextLook, TZ)) {
      looks++;
      if (lastBought === null || nextLook - lastBought > periodMs) staleLooks++;
    }
    nextLook += LOOK_EVERY_MS;
  }
  await scheduler.stop();
  return {
    name: household ? 'household' : 'today',
    schedule,
    purchases,
    creditsPerDay: (purchases * price) / (WEEKS * 7),
    looks,
    staleLooks,
    stalePct: looks === 0 ? 0 : (100 * staleLooks) / looks,
  };
}

export async function householdFigures(): Promise<HouseholdFigures> {
  const today = await runHousehold(false);
  const household = await runHousehold(true);
  return { today, household, reductionPct: 100 * (1 - household.creditsPerDay / today.creditsPerDay) };
}

export function householdText(f: HouseholdFigures): string {
  const line = (r: HouseholdResult): string =>
    `  ${r.name.padEnd(9)} ${r.schedule.padEnd(16)} ${r.purchases} purchases, ${r.creditsPerDay.toFixed(1)} credits/day; ` +
    `${r.staleLooks} of ${r.looks} looks at a frame older than 30 min (${r.stalePct.toFixed(2)} %)`;
  return [line(f.today), line(f.household), `  ${f.reductionPct.toFixed(1)} % fewer credits than today`].join('\n');
}

/** `npm run bench -- --only household`: the reduction, with both cases' figures under it. */
export function householdBenches(): Bench[] {
  let last: HouseholdFigures | null = null;
  return [
    {
      name: 'four weeks of a household: fewer credits than the fixed schedule',
      group: 'household',
      unit: '%',
      target: { min: 40 },
      runs: 1,
      async measure() {
        last = await householdFigures();
        if (last.household.staleLooks > last.today.staleLooks)
          throw new Error(`more stale moments than today:\n${householdText(last)}`);
        return last.reductionPct;
      },
      note: () => (last === null ? null : householdText(last)),
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { json: { type: 'boolean' } } });
  const f = await householdFigures();
  process.stdout.write(values.json ? JSON.stringify(f) : `${householdText(f)}\n`);
}
