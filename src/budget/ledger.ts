import { rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../store/atomic-write.js';
import { readLedger, toFile } from './ledger-file.js';
import { dateKey, localParts, monthKeyOf } from './zoned-time.js';

/**
 * The credit ledger: credits spent today and this month (local days and months in the config's time zone),
 * persisted in `<state_dir>/budget-ledger.json` with atomic writes, and written only when it changes.
 *
 * Rules that keep it on the safe side (when in doubt a credit counts as spent, never the reverse):
 * - A charge is in the file before the request it pays for is sent (write-ahead), so a crash or power cut after
 *   sending never loses a spend.
 * - Periods only move forward: a clock that goes back never reopens an earlier day.
 * - Credits spent while the clock was not trusted are carried into the next day and month the trusted clock shows.
 * - A file that cannot be read counts the whole budget of today (and the month, up to what the daily budget allows)
 *   as spent; it is kept beside as `budget-ledger.json.corrupt`.
 * - Every paid request ends as charged (a 2xx arrived), refused (the service said no: given back) or unknown (sent,
 *   no usable answer). A charge counts as unknown until its answer comes, so a crash mid-request leaves it unknown.
 *   The budget counts charged plus unknown; the split is kept so the owner can tell them apart.
 */

export const LEDGER_FILE = 'budget-ledger.json';

export interface LedgerState {
  day: string;
  daySpent: number;
  dayRefreshSpent: number;
  month: string;
  monthSpent: number;
  /** The latest trusted clock reading (ms) the ledger has seen. */
  highWater: number;
  /** Credits spent while the clock was not trusted, not yet placed in a period the trusted clock showed. */
  untrustedCarry: number;
  /** Of the day's and month's spending: credits of requests whose 2xx arrived. */
  dayCharged: number;
  monthCharged: number;
  /** Of the day's and month's spending: credits of requests sent without a usable answer (or still in flight). */
  dayUnknown: number;
  monthUnknown: number;
  /** Paid requests the service refused today and this month (their credits were given back). */
  dayRefused: number;
  monthRefused: number;
  /** The service said the account has no credits (402): since when, and when it last said so. */
  creditsOut: CreditsOut | null;
  /** Wall-clock time before which the service asked for no request (Retry-After). */
  rateBlockedUntil: number | null;
  /** Wall-clock send times of the requests of the last minute, so a restart keeps the rate window. */
  recentSends: number[];
}

export interface CreditsOut {
  since: number;
  lastRefusalAt: number;
}

/** How a paid request ended, for the ledger. */
export type ChargeResult = 'charged' | 'refused' | 'unknown' | 'not-sent';

export interface Limits {
  perDay: number | null;
  perMonth: number | null;
}

/** What a charge took, so a refund gives back only what is still in the same periods. */
export interface Receipt {
  credits: number;
  day: string;
  month: string;
  refresh: boolean;
  untrusted: boolean;
}

export class Ledger {
  readonly file: string;
  #s: LedgerState;
  #version = 0;
  #written = 0;
  #writing: Promise<void> | null = null;

  constructor(
    stateDir: string,
    readonly timezone: string,
    readonly limits: Limits,
  ) {
    this.file = path.join(stateDir, LEDGER_FILE);
    this.#s = emptyState(0, timezone);
  }

  get state(): Readonly<LedgerState> {
    return this.#s;
  }

  /** Reads the file (and a newer complete temp file left by a power cut). Returns warnings; never throws on content. */
  async load(now: number): Promise<string[]> {
    const main = await readLedger(this.file);
    const tmp = await readLedger(`${this.file}.tmp`);
    if (main.kind === 'ok' || tmp.kind === 'ok') {
      const states = [main, tmp].flatMap((r) => (r.kind === 'ok' ? [r.state] : []));
      this.#s = states.reduce(mergeStates);
      const warnings: string[] = [];
      const tz = main.kind === 'ok' ? main.timezone : tmp.kind === 'ok' ? tmp.timezone : this.timezone;
      if (tz !== this.timezone) {
        warnings.push(`the ledger was kept in time zone ${tz}, the config says ${this.timezone}: its periods are kept as they are`);
      }
      return warnings;
    }
    if (main.kind === 'missing') {
      this.#s = emptyState(now, this.timezone);
      return [];
    }
    const mtime = await stat(this.file).then((s) => s.mtimeMs, () => 0);
    this.#s = conservativeState(Math.max(now, mtime), this.timezone, this.limits);
    await rename(this.file, `${this.file}.corrupt`).catch(() => undefined);
    this.#version++;
    await this.#ensureWritten(this.#version);
    return [`${main.reason}; counted today's budget${this.limits.perMonth !== null ? ' and the month (up to the daily budgets so far)' : ''} as spent`];
  }

  /**
   * Moves to the clock's day and month when they are later than the ledger's (only with a trusted clock), placing
   * credits spent while the clock was not trusted into the new periods. In memory only: the same happens after a
   * restart, so nothing is lost by not writing it.
   */
  settle(now: number, trusted: boolean): void {
    if (!trusted) return;
    const s = this.#s;
    const p = localParts(now, this.timezone);
    const day = dateKey(p);
    const month = monthKeyOf(p);
    if (day > s.day) {
      s.day = day;
      s.daySpent = Math.min(s.untrustedCarry, this.limits.perDay ?? s.untrustedCarry);
      s.dayRefreshSpent = 0;
      s.dayCharged = 0;
      s.dayUnknown = s.daySpent;
      s.dayRefused = 0;
    }
    if (month > s.month) {
      s.month = month;
      s.monthSpent = Math.min(s.untrustedCarry, this.limits.perMonth ?? s.untrustedCarry);
      s.monthCharged = 0;
      s.monthUnknown = s.monthSpent;
      s.monthRefused = 0;
    }
    s.untrustedCarry = 0;
    s.highWater = Math.max(s.highWater, now);
    if (s.rateBlockedUntil !== null && s.rateBlockedUntil <= now) s.rateBlockedUntil = null;
  }

  /**
   * Counts `credits` as spent (and unknown, until resolve() says how it ended) at once; records the send at `now`
   * for the rate window. The promise resolves when that is on disk (reject: it is not).
   */
  charge(credits: number, refresh: boolean, trusted: boolean, now?: number): { receipt: Receipt; persisted: Promise<void> } {
    const s = this.#s;
    s.daySpent += credits;
    s.monthSpent += credits;
    s.dayUnknown += credits;
    s.monthUnknown += credits;
    if (refresh) s.dayRefreshSpent += credits;
    if (!trusted) s.untrustedCarry += credits;
    if (now !== undefined) s.recentSends = [...s.recentSends.filter((t) => t > now - 60_000 && t <= now), now];
    const receipt = { credits, day: s.day, month: s.month, refresh, untrusted: !trusted };
    return { receipt, persisted: this.#persist() };
  }

  /**
   * Records how a charged request ended. Refused or never sent: the credits are given back where their periods
   * still run.
   * Charged: they move from unknown to charged. Unknown: they stay as they are (counted, charge unknown).
   */
  resolve(r: Receipt, result: ChargeResult): Promise<void> {
    const s = this.#s;
    if (result === 'unknown') return Promise.resolve();
    const sameDay = s.day === r.day;
    const sameMonth = s.month === r.month;
    if (sameDay) s.dayUnknown = Math.max(0, s.dayUnknown - r.credits);
    if (sameMonth) s.monthUnknown = Math.max(0, s.monthUnknown - r.credits);
    if (result === 'charged') {
      if (sameDay) s.dayCharged += r.credits;
      if (sameMonth) s.monthCharged += r.credits;
      return this.#persist();
    }
    if (result === 'refused') {
      if (sameDay) s.dayRefused++;
      if (sameMonth) s.monthRefused++;
    }
    return this.refund(r);
  }

  /** Gives back a charge the service certainly did not take (a refused request), where its periods still run. */
  refund(r: Receipt): Promise<void> {
    const s = this.#s;
    if (r.credits === 0) return this.#persist();
    if (s.day === r.day) {
      s.daySpent = Math.max(0, s.daySpent - r.credits);
      if (r.refresh) s.dayRefreshSpent = Math.max(0, s.dayRefreshSpent - r.credits);
    }
    if (s.month === r.month) s.monthSpent = Math.max(0, s.monthSpent - r.credits);
    if (r.untrusted) s.untrustedCarry = Math.max(0, s.untrustedCarry - r.credits);
    return this.#persist();
  }

  /** The service said the account has no credits (at `now`), or null: it answered again. */
  setCreditsOut(now: number | null): Promise<void> {
    const s = this.#s;
    if (now === null && s.creditsOut === null) return Promise.resolve();
    s.creditsOut = now === null ? null : { since: s.creditsOut?.since ?? now, lastRefusalAt: now };
    return this.#persist();
  }

  setRateBlockedUntil(wall: number | null): Promise<void> {
    if (this.#s.rateBlockedUntil === wall) return Promise.resolve();
    this.#s.rateBlockedUntil = wall;
    return this.#persist();
  }

  /** Resolves when every change so far is on disk. */
  flush(): Promise<void> {
    return this.#ensureWritten(this.#version);
  }

  #persist(): Promise<void> {
    this.#version++;
    return this.#ensureWritten(this.#version);
  }

  async #ensureWritten(want: number): Promise<void> {
    while (this.#written < want) {
      if (this.#writing !== null) {
        await this.#writing.catch(() => undefined);
        continue;
      }
      const version = this.#version;
      const text = JSON.stringify(toFile(this.#s, this.timezone), null, 2) + '\n';
      this.#writing = writeFileAtomic(this.file, text, { mode: 0o600, tmpFile: `${this.file}.tmp` }).then(
        () => {
          this.#written = Math.max(this.#written, version);
          this.#writing = null;
        },
        (err: unknown) => {
          this.#writing = null;
          throw err;
        },
      );
      await this.#writing;
    }
  }
}

function emptyState(now: number, tz: string): LedgerState {
  const p = localParts(now, tz);
  return {
    day: dateKey(p),
    daySpent: 0,
    dayRefreshSpent: 0,
    month: monthKeyOf(p),
    monthSpent: 0,
    highWater: 0,
    untrustedCarry: 0,
    dayCharged: 0,
    monthCharged: 0,
    dayUnknown: 0,
    monthUnknown: 0,
    dayRefused: 0,
    monthRefused: 0,
    creditsOut: null,
    rateBlockedUntil: null,
    recentSends: [],
  };
}

/** What an unreadable ledger is replaced with: the most that could have been spent. */
export function conservativeState(now: number, tz: string, limits: Limits): LedgerState {
  const s = emptyState(now, tz);
  const dayOfMonth = localParts(now, tz).day;
  s.daySpent = limits.perDay ?? 0;
  s.dayRefreshSpent = s.daySpent;
  s.monthSpent =
    limits.perMonth === null ? 0 : limits.perDay === null ? limits.perMonth : Math.min(limits.perMonth, limits.perDay * dayOfMonth);
  s.dayUnknown = s.daySpent;
  s.monthUnknown = s.monthSpent;
  s.highWater = now;
  return s;
}

/** The later periods of the two, and for a period both hold, the larger spending. */
export function mergeStates(a: LedgerState, b: LedgerState): LedgerState {
  const pick = <K extends keyof LedgerState>(key: K, aKey: string, bKey: string): LedgerState[K] =>
    aKey > bKey ? a[key] : bKey > aKey ? b[key] : (Math.max(a[key] as number, b[key] as number) as LedgerState[K]);
  return {
    day: a.day > b.day ? a.day : b.day,
    daySpent: pick('daySpent', a.day, b.day),
    dayRefreshSpent: pick('dayRefreshSpent', a.day, b.day),
    month: a.month > b.month ? a.month : b.month,
    monthSpent: pick('monthSpent', a.month, b.month),
    highWater: Math.max(a.highWater, b.highWater),
    untrustedCarry: Math.max(a.untrustedCarry, b.untrustedCarry),
    dayCharged: pick('dayCharged', a.day, b.day),
    monthCharged: pick('monthCharged', a.month, b.month),
    dayUnknown: pick('dayUnknown', a.day, b.day),
    monthUnknown: pick('monthUnknown', a.month, b.month),
    dayRefused: pick('dayRefused', a.day, b.day),
    monthRefused: pick('monthRefused', a.month, b.month),
    creditsOut: a.creditsOut ?? b.creditsOut,
    rateBlockedUntil: Math.max(a.rateBlockedUntil ?? 0, b.rateBlockedUntil ?? 0) || null,
    recentSends: [...new Set([...a.recentSends, ...b.recentSends])].sort((x, y) => x - y),
  };
}
