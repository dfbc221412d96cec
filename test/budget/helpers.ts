import { mkdtemp } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import type { Clock } from '../../src/time/clock.js';
import type { FakeClock } from '../helpers/fake-clock.js';
import { dateKey, localParts, monthKeyOf } from '../../src/time/zoned-time.js';

/** Shared helpers of the budget tests. */

export const BERLIN = 'Europe/Berlin';

/** A config through the real parser (defaults applied), from a partial raw config. */
export function makeConfig(raw: Record<string, unknown> = {}): Config {
  const r = parseConfig({
    api: { base_url: 'https://outfit.example/v1' },
    budget: { credits_per_day: 200 },
    timezone: BERLIN,
    displays: [{ id: 'hallway', lat: 52.52, lon: 13.405, schedule: '*/30 6-22 * * *' }],
    ...raw,
  });
  if (!r.ok) throw new Error(`bad test config:\n${r.problems.join('\n')}`);
  return r.config;
}

/** A fresh state folder (on tmpfs when there is one: the month-long test writes the ledger thousands of times). */
export async function stateDir(): Promise<string> {
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  return mkdtemp(path.join(base, 'outfit-budget-'));
}

/** Berlin local time → instant, for readable tests ("2027-03-28T01:30" local). */
export function berlin(local: string): number {
  const guess = Date.parse(`${local}Z`);
  for (const off of [1, 2]) {
    const t = guess - off * 3_600_000;
    const back = new Intl.DateTimeFormat('sv-SE', { timeZone: BERLIN, dateStyle: 'short', timeStyle: 'medium' }).format(
      t,
    );
    if (back.replace(' ', 'T').startsWith(local)) return t;
  }
  throw new Error(`no such Berlin time: ${local}`);
}

/** Deterministic PRNG (mulberry32): the simulated service's own. */
export { seededRandom as prng } from '../../src/service-sim/weather.js';

/** A sleep on a clock (a FakeClock's view) whose pending sleeps can all be ended at once (a simulated crash). */
export function cancellableSleep(clock: Clock): { sleep: (ms: number) => Promise<void>; cancelAll: () => void } {
  const pending = new Map<unknown, () => void>();
  return {
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        const h = clock.setTimeout(() => {
          pending.delete(h);
          resolve();
        }, ms);
        pending.set(h, resolve);
      }),
    cancelAll: () => {
      for (const [h, resolve] of pending) {
        clock.clearTimeout(h);
        resolve();
      }
      pending.clear();
    },
  };
}

export const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * Runs fake time until every promise settles: whenever all unsettled ones are blocked on timers of `timers`
 * (a FakeClock's view), the next timer fires; otherwise real I/O (the ledger's writes) gets a turn.
 */
export async function drive<T>(clock: FakeClock, timers: () => number, promises: Array<Promise<T>>): Promise<T[]> {
  let unsettled = promises.length;
  const results = Promise.allSettled(promises.map((p) => p.finally(() => unsettled--)));
  for (let i = 0; unsettled > 0; i++) {
    await turn();
    if (unsettled > 0 && unsettled <= timers()) {
      await turn();
      if (unsettled > 0 && unsettled <= timers()) clock.runNext();
    }
    if (i % 20 === 19) await new Promise((r) => setTimeout(r, 1));
    if (i > 100_000) throw new Error('drive: never settled');
  }
  return (await results).map((r) => {
    if (r.status === 'rejected') throw r.reason;
    return r.value;
  });
}

/** Credits the service charged, per local day and per local month in `tz`, from its own request records. */
export function chargedPerPeriod(
  requests: ReadonlyArray<{ time: number; creditsCharged: number }>,
  tz: string,
): { perDay: Map<string, number>; perMonth: Map<string, number> } {
  const perDay = new Map<string, number>();
  const perMonth = new Map<string, number>();
  for (const r of requests) {
    const p = localParts(r.time, tz);
    perDay.set(dateKey(p), (perDay.get(dateKey(p)) ?? 0) + r.creditsCharged);
    perMonth.set(monthKeyOf(p), (perMonth.get(monthKeyOf(p)) ?? 0) + r.creditsCharged);
  }
  return { perDay, perMonth };
}
