import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ledger, LEDGER_FILE } from '../../src/budget/ledger.js';
import { mergeStates, type LedgerState } from '../../src/budget/ledger-state.js';
import { periodEnd } from '../../src/time/zoned-time.js';
import { BERLIN, berlin, stateDir } from './helpers.js';

const limits = { perDay: 100, perMonth: 2000 };
const NOW = berlin('2027-01-11T10:00:00');

async function fresh(dir?: string): Promise<{ ledger: Ledger; dir: string }> {
  const d = dir ?? (await stateDir());
  const ledger = new Ledger(d, BERLIN, limits);
  await ledger.load(NOW);
  return { ledger, dir: d };
}

const inode = async (file: string): Promise<number> => (await stat(file)).ino;

describe('Ledger', () => {
  it('persists every charge atomically and reads it back', async () => {
    const { ledger, dir } = await fresh();
    ledger.settle(NOW, true);
    const { persisted } = ledger.charge(3, false, true);
    await persisted;
    ledger.charge(2, true, true);
    await ledger.flush();
    const file = JSON.parse(await readFile(path.join(dir, LEDGER_FILE), 'utf8')) as Record<string, unknown>;
    expect(file).toMatchObject({
      version: 2,
      timezone: BERLIN,
      day: '2027-01-11',
      day_spent: 5,
      day_refresh_spent: 2,
      month: '2027-01',
      month_spent: 5,
    });
    expect(await readdir(dir)).toEqual([LEDGER_FILE]); // no temp file left
    const again = await fresh(dir);
    expect(again.ledger.state).toMatchObject({ daySpent: 5, monthSpent: 5, dayRefreshSpent: 2 });
  });

  it('keeps each display’s last purchase with the charge that paid it; a file without any still reads', async () => {
    const { ledger, dir } = await fresh();
    ledger.settle(NOW, true);
    const { receipt, persisted } = ledger.charge(3, false, true, NOW);
    await persisted;
    ledger.noteBought('hallway', NOW + 1000);
    await ledger.resolve(receipt, 'charged');
    const file = JSON.parse(await readFile(path.join(dir, LEDGER_FILE), 'utf8')) as Record<string, unknown>;
    expect(file.last_bought).toEqual({ hallway: NOW + 1000 });
    expect((await fresh(dir)).ledger.state.lastBought).toEqual({ hallway: NOW + 1000 });
    // A ledger written before last_bought was kept.
    delete file.last_bought;
    await writeFile(path.join(dir, LEDGER_FILE), JSON.stringify(file));
    expect((await fresh(dir)).ledger.state).toMatchObject({ daySpent: 3, lastBought: {} });
  });

  it('writes only when something changed', async () => {
    const { ledger, dir } = await fresh();
    ledger.settle(NOW, true);
    await ledger.charge(3, false, true).persisted;
    const before = await inode(path.join(dir, LEDGER_FILE));
    ledger.settle(NOW + 60_000, true);
    await ledger.flush();
    await ledger.setCreditsOut(null);
    expect(await inode(path.join(dir, LEDGER_FILE))).toBe(before);
  });

  it('moves to a new day and month, never back', async () => {
    const { ledger } = await fresh();
    ledger.settle(NOW, true);
    ledger.charge(40, false, true);
    ledger.settle(berlin('2027-01-12T00:00:00'), true);
    expect(ledger.state).toMatchObject({ day: '2027-01-12', daySpent: 0, month: '2027-01', monthSpent: 40 });
    ledger.charge(10, false, true);
    ledger.settle(berlin('2027-01-11T23:00:00'), true); // a clock stepped back
    expect(ledger.state).toMatchObject({ day: '2027-01-12', daySpent: 10 });
    ledger.settle(berlin('2027-02-01T00:30:00'), true);
    expect(ledger.state).toMatchObject({ day: '2027-02-01', daySpent: 0, month: '2027-02', monthSpent: 0 });
    await ledger.flush();
  });

  it('carries what was spent on an untrusted clock into the next trusted day and month', async () => {
    const { ledger } = await fresh();
    ledger.settle(NOW, true);
    ledger.charge(30, false, true);
    ledger.settle(Date.UTC(2001, 0, 1), false); // ignored: not trusted
    ledger.charge(20, false, false);
    expect(ledger.state).toMatchObject({ day: '2027-01-11', daySpent: 50, untrustedCarry: 20 });
    ledger.settle(berlin('2027-02-01T09:00:00'), true);
    expect(ledger.state).toMatchObject({ day: '2027-02-01', daySpent: 20, monthSpent: 20, untrustedCarry: 0 });
    await ledger.flush();
  });

  it('refunds only within the periods it charged', async () => {
    const { ledger } = await fresh();
    ledger.settle(NOW, true);
    const a = ledger.charge(3, true, true).receipt;
    await ledger.refund(a);
    expect(ledger.state).toMatchObject({ daySpent: 0, dayRefreshSpent: 0, monthSpent: 0 });
    const b = ledger.charge(3, false, true).receipt;
    ledger.settle(berlin('2027-01-12T00:00:01'), true);
    await ledger.refund(b);
    expect(ledger.state).toMatchObject({ daySpent: 0, monthSpent: 0 }); // the month gets it back, the new day keeps 0
  });

  it.each([
    ['truncated', '{"version":1,"timezone":"Europe/Berlin","day":"2027-01-11","day_sp'],
    ['not a ledger', '{"version":2}'],
    [
      'negative',
      JSON.stringify({
        version: 1,
        timezone: BERLIN,
        day: '2027-01-11',
        day_spent: -5,
        day_refresh_spent: 0,
        month: '2027-01',
        month_spent: 0,
        high_water: 0,
        untrusted_carry: 0,
        exhausted_period: null,
        rate_blocked_until: null,
        updated_at: '',
      }),
    ],
    ['empty', ''],
  ])('counts a %s file as the whole budget spent, keeps it aside, never crashes', async (_name, text) => {
    const dir = await stateDir();
    await writeFile(path.join(dir, LEDGER_FILE), text);
    const ledger = new Ledger(dir, BERLIN, limits);
    const warnings = await ledger.load(NOW);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/counted today's budget and the month \(up to the daily budgets so far\) as spent$/);
    expect(ledger.state).toMatchObject({ daySpent: 100, monthSpent: 100 * 11 });
    expect((await readdir(dir)).sort()).toEqual([LEDGER_FILE, `${LEDGER_FILE}.corrupt`]);
  });

  it('after a power cut during a write, takes the newer complete temp file', async () => {
    const { ledger, dir } = await fresh();
    ledger.settle(NOW, true);
    await ledger.charge(3, false, true).persisted;
    const newer = JSON.parse(await readFile(path.join(dir, LEDGER_FILE), 'utf8')) as Record<string, number>;
    await writeFile(path.join(dir, `${LEDGER_FILE}.tmp`), JSON.stringify({ ...newer, day_spent: 9, month_spent: 9 }));
    expect((await fresh(dir)).ledger.state).toMatchObject({ daySpent: 9, monthSpent: 9 });
    await writeFile(path.join(dir, `${LEDGER_FILE}.tmp`), '{"version":1,"time'); // a half-written one is ignored
    expect((await fresh(dir)).ledger.state).toMatchObject({ daySpent: 3 });
  });

  it('merges two states to the later periods and the larger spending', () => {
    const base: LedgerState = {
      day: '2027-01-11',
      daySpent: 5,
      dayRefreshSpent: 0,
      month: '2027-01',
      monthSpent: 50,
      highWater: 1,
      untrustedCarry: 0,
      dayCharged: 0,
      monthCharged: 0,
      dayUnknown: 5,
      monthUnknown: 50,
      dayRefused: 0,
      monthRefused: 0,
      creditsOut: null,
      rateBlockedUntil: null,
      recentSends: [],
      lastBought: { hall: 3 },
      lastPaid: {},
      backoff: { failures: 1, until: 100 },
      inFlight: [],
    };
    expect(mergeStates(base, { ...base, daySpent: 7, monthSpent: 40 })).toMatchObject({ daySpent: 7, monthSpent: 50 });
    // The longer failure backoff of the two, and every request still in flight in either.
    expect(mergeStates(base, { ...base, backoff: { failures: 2, until: 400 }, inFlight: [9] })).toMatchObject({
      backoff: { failures: 2, until: 400 },
      inFlight: [9],
    });
    // Each display's last purchase: the later of the two.
    expect(mergeStates(base, { ...base, lastBought: { hall: 2, kitchen: 1 } }).lastBought).toEqual({
      hall: 3,
      kitchen: 1,
    });
    expect(mergeStates(base, { ...base, day: '2027-01-12', daySpent: 1 })).toMatchObject({
      day: '2027-01-12',
      daySpent: 1,
      monthSpent: 50,
    });
  });

  it('a write that fails rejects the charge promise (no request without a record)', async () => {
    const ledger = new Ledger('/proc/no-such-dir-for-outfit', BERLIN, limits);
    await ledger.load(NOW);
    await expect(ledger.charge(3, false, true).persisted).rejects.toThrow();
    expect(ledger.state.daySpent).toBe(3); // still counted in memory
  });
});

describe('a write-ahead record that cannot be written', () => {
  it('costs nothing: three refused write-aheads leave the ledger as it was, on disk and in memory', async () => {
    const { ledger, dir } = await fresh();
    ledger.settle(NOW, true);
    expect((await ledger.chargeAhead(3, false, true, NOW)).ok).toBe(true);
    // The temp file a directory: every write of the ledger fails (EISDIR), as in a read-only or full state folder.
    const blocker = path.join(dir, `${LEDGER_FILE}.tmp`);
    await mkdir(blocker);
    for (let i = 1; i <= 3; i++) {
      const r = await ledger.chargeAhead(3, i === 2, true, NOW + i * 10_000);
      expect(r.ok).toBe(false);
      expect(ledger.problem?.code).toBe('E_STATE_WRITE');
    }
    expect(ledger.state).toMatchObject({
      daySpent: 3,
      monthSpent: 3,
      dayUnknown: 3,
      monthUnknown: 3,
      dayRefreshSpent: 0,
      recentSends: [NOW],
    });

    await rm(blocker, { recursive: true });
    await ledger.flush();
    const r = await ledger.chargeAhead(3, false, true, NOW + 40_000);
    expect(r.ok).toBe(true);
    expect(ledger.problem).toBeNull();
    const file = JSON.parse(await readFile(path.join(dir, LEDGER_FILE), 'utf8')) as Record<string, unknown>;
    expect(file).toMatchObject({ day_spent: 6, month_spent: 6, day_unknown: 6, recent_sends: [NOW, NOW + 40_000] });
  });
});

describe('ledger periods', () => {
  it('name their scope: a day ends at the next local midnight, a month at the first of the next (also across a year)', async () => {
    const { ledger } = await fresh();
    expect(ledger.period('day')).toEqual({ scope: 'day', key: '2027-01-11' });
    expect(ledger.period('month')).toEqual({ scope: 'month', key: '2027-01' });
    expect(periodEnd(ledger.period('day'), BERLIN)).toBe(berlin('2027-01-12T00:00:00'));
    expect(periodEnd({ scope: 'month', key: '2026-12' }, BERLIN)).toBe(berlin('2027-01-01T00:00:00'));
    // The 23-hour day of the spring change ends at local midnight all the same.
    expect(periodEnd({ scope: 'day', key: '2027-03-28' }, BERLIN) - berlin('2027-03-28T00:00:00')).toBe(23 * 3_600_000);
  });
});
