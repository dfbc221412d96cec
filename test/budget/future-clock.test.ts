import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '../../src/api/errors.js';
import { LEDGER_FILE } from '../../src/budget/ledger.js';
import { emptyState } from '../../src/budget/ledger-state.js';
import { toFile } from '../../src/budget/ledger-file.js';
import { BERLIN, berlin, stateDir } from './helpers.js';
import { one, rig, START } from './governor-rig.js';

/**
 * Times from the future (issue: a ledger dated 2099 never returned to real time, and a Retry-After stored for 2099
 * blocked silently for an hour): recognised, said with W_LEDGER_FUTURE, and recovered from.
 */

const HOUR = 3_600_000;
const FUTURE = Date.UTC(2099, 0, 1, 9);

/** A state folder holding a ledger written at `at` (its day, month and last trusted time), with `spent` credits. */
async function plantedLedger(at: number, spent: number, extra: { rateBlockedUntil?: number } = {}): Promise<string> {
  const dir = await stateDir();
  await mkdir(dir, { recursive: true });
  const s = {
    ...emptyState(at, BERLIN),
    daySpent: spent,
    monthSpent: spent,
    dayCharged: spent,
    monthCharged: spent,
    highWater: at,
    ...extra,
  };
  await writeFile(path.join(dir, LEDGER_FILE), JSON.stringify(toFile(s, BERLIN)));
  return dir;
}

const futureWarnings = (warnings: string[]): string[] => warnings.filter((w) => w.startsWith('W_LEDGER_FUTURE'));

describe('a budget ledger from the future', () => {
  it("with NTP: moved to the clock's day at once, its spending counted there, and the next day is a normal day", async () => {
    const dir = await plantedLedger(FUTURE, 15);
    const r = await rig({ budget: { credits_per_day: 30 } }, [], { dir, syncStamp: () => 1 });
    expect((await one(r)).kind).toBe('fresh');
    const status = r.governor.status();
    expect(status.spentToday).toBe(18); // the future day's 15, counted as spent today, and today's 3
    expect(futureWarnings(status.warnings)).toHaveLength(1);
    expect(futureWarnings(status.warnings)[0]).toContain('2099-01-01');
    expect(await r.ledger()).toMatchObject({ day: '2027-01-11', month: '2027-01', day_spent: 18 });

    r.clock.advance(24 * HOUR); // the next day opens as any day does
    expect((await one(r)).kind).toBe('fresh');
    expect(r.governor.status().spentToday).toBe(3);
    expect(await r.ledger()).toMatchObject({ day: '2027-01-12', day_spent: 3 });
  });

  it('without NTP: the clock is distrusted (budget windows hold), then believed after 25 steady hours', async () => {
    const dir = await plantedLedger(FUTURE, 6);
    const r = await rig({ budget: { credits_per_day: 12 } }, [], { dir });
    expect((await one(r)).kind).toBe('fresh'); // within the 25-hour window: 6 seeded + 3
    expect(r.governor.status().warnings.some((w) => w.startsWith('W_CLOCK_UNTRUSTED'))).toBe(true);
    expect((await one(r)).kind).toBe('fresh');
    expect(await one(r)).toMatchObject({ kind: 'deferred' }); // 12 in the window
    expect(r.fake.calls).toHaveLength(2);

    r.clock.advance(24 * HOUR);
    expect(await one(r)).toMatchObject({ kind: 'deferred' }); // the seed and both buys still in the window
    r.clock.advance(HOUR + 60_000);
    // Believed: the ledger moves to the clock's day, counting all its day held (12) as spent today, so today's
    // budget is used up until midnight, and then days run as they should.
    expect(await one(r)).toMatchObject({
      kind: 'budget_exhausted',
      scope: 'day',
      until: new Date(berlin('2027-01-13T00:00:00')),
    });
    const status = r.governor.status();
    expect(status.warnings.some((w) => w.startsWith('W_CLOCK_UNTRUSTED'))).toBe(false);
    expect(futureWarnings(status.warnings)).toHaveLength(1);
    await r.governor.flush();
    const ledger = await r.ledger();
    expect(ledger).toMatchObject({ day: '2027-01-12', month: '2027-01', day_spent: 12 });
    expect(ledger.high_water).toBeLessThan(FUTURE);
    r.clock.setSystemTime(berlin('2027-01-13T07:00:00'));

    // Kept across a restart: the next process does not distrust the clock again.
    const again = await rig({ budget: { credits_per_day: 12 } }, [], { dir, clock: r.clock });
    expect((await one(again)).kind).toBe('fresh');
    expect(again.governor.status().warnings.some((w) => w.startsWith('W_CLOCK_UNTRUSTED'))).toBe(false);
  });

  it('a clock stepped back by hours is still waited for (not from the future)', async () => {
    const dir = await plantedLedger(START + 3 * HOUR, 0);
    const r = await rig({}, [], { dir });
    await one(r);
    expect(r.governor.status().warnings.some((w) => w.startsWith('W_CLOCK_UNTRUSTED'))).toBe(true);
    r.clock.advance(26 * HOUR);
    await one(r);
    expect(r.governor.status().warnings.some((w) => w.startsWith('W_CLOCK_UNTRUSTED'))).toBe(false); // past it
    expect(futureWarnings(r.governor.status().warnings)).toEqual([]);
    expect(await r.ledger()).toMatchObject({ day: '2027-01-12' });
  });
});

describe('a Retry-After from the future', () => {
  it('a stored wait until 2099 is not honoured: the first tick buys, and W_LEDGER_FUTURE says why', async () => {
    const dir = await plantedLedger(START - HOUR, 0, { rateBlockedUntil: FUTURE });
    const r = await rig({}, [], { dir });
    expect((await one(r)).kind).toBe('fresh');
    expect(r.fake.calls).toHaveLength(1);
    expect(futureWarnings(r.governor.status().warnings)).toHaveLength(1);
    expect((await r.ledger()).rate_blocked_until).toBeNull();
  });

  it('a 429 asking for ten days is honoured for an hour at most, also after a restart', async () => {
    const r = await rig({}, [new RateLimitedError('429', 10 * 24 * HOUR, { status: 429 })]);
    expect(await one(r)).toMatchObject({ kind: 'deferred', until: new Date(START + HOUR) });
    const again = await rig({}, [], { dir: r.dir, clock: r.clock });
    expect(await one(again)).toMatchObject({ kind: 'deferred', until: new Date(START + HOUR) });
    r.clock.advance(HOUR);
    expect((await one(again)).kind).toBe('fresh');
    expect(berlin('2027-01-11T11:00:00')).toBe(START + HOUR);
  });
});
