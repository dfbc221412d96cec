import { rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../store/atomic-write.js';
import { storeWriteError, type StoreError, type StoreProblem } from '../store/store-error.js';
import { readLedger, toFile } from './ledger-file.js';
import { conservativeState, emptyState, mergeStates, type Limits, type LedgerState } from './ledger-state.js';
import { dateKey, localParts, monthKeyOf, type Period } from '../time/zoned-time.js';
import { DAY_WINDOW_MS } from './clock-guard.js';
import { MAX_RETRY_AFTER_MS } from './rate-limiter.js';

export type { LedgerState, Limits } from './ledger-state.js';

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

/** How a paid request ended, for the ledger. */
export type ChargeResult = 'charged' | 'refused' | 'unknown' | 'not-sent';

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
  #problem: StoreProblem | null = null;

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

  /** The file cannot be written (E_STATE_WRITE): from the first failed write-ahead charge until one succeeds. */
  get problem(): StoreProblem | null {
    return this.#problem;
  }

  /** The ledger's current day or month (the clock's own, or later: periods never go back). */
  period(scope: Period['scope']): Period {
    return { scope, key: scope === 'day' ? this.#s.day : this.#s.month };
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
        warnings.push(
          `the ledger was kept in time zone ${tz}, the config says ${this.timezone}: its periods are kept as they are`,
        );
      }
      return warnings;
    }
    if (main.kind === 'missing') {
      this.#s = emptyState(now, this.timezone);
      return [];
    }
    const mtime = await stat(this.file).then(
      (s) => s.mtimeMs,
      () => 0,
    );
    this.#s = conservativeState(Math.max(now, mtime), this.timezone, this.limits);
    await rename(this.file, `${this.file}.corrupt`).catch(() => undefined);
    this.#version++;
    await this.#ensureWritten(this.#version);
    return [
      `${main.reason}; counted today's budget${this.limits.perMonth !== null ? ' and the month (up to the daily budgets so far)' : ''} as spent`,
    ];
  }

  /**
   * Moves to the clock's day and month when they are later than the ledger's (only with a trusted clock), placing
   * credits spent while the clock was not trusted into the new periods. In memory only: the same happens after a
   * restart, so nothing is lost by not writing it.
   *
   * A ledger dated more than a day window after the trusted clock is from the future (an RTC that was years ahead, a
   * file from another machine): periods that never went back would wait for that date. Its day and month move back
   * to the clock's, their spending counted as spent there (up to the limits), and this is written at once, since a
   * restart without NTP would otherwise distrust the clock again. Returns what was done, for W_LEDGER_FUTURE.
   */
  settle(now: number, trusted: boolean): string | null {
    if (!trusted) return null;
    const s = this.#s;
    const p = localParts(now, this.timezone);
    const day = dateKey(p);
    const month = monthKeyOf(p);
    const moved = this.#fromTheFuture(now, day, month);
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
    return moved;
  }

  /** The future part of settle(): moves a ledger dated after `now` + DAY_WINDOW_MS to `day` and `month`. */
  #fromTheFuture(now: number, day: string, month: string): string | null {
    const s = this.#s;
    const horizon = now + DAY_WINDOW_MS;
    if (s.highWater <= horizon && s.day <= dateKey(localParts(horizon, this.timezone))) return null;
    const text = `the budget ledger was dated ${s.day} (last trusted time ${new Date(s.highWater).toISOString()}), more than a day after the trusted clock: its day and month are moved to ${day}, and the ${s.daySpent} credits of its day and ${s.monthSpent} of its month count as spent there`;
    const cap = (n: number, limit: number | null): number => (limit === null ? n : Math.min(n, limit));
    s.day = day;
    s.daySpent = cap(s.daySpent, this.limits.perDay);
    s.dayRefreshSpent = Math.min(s.dayRefreshSpent, s.daySpent);
    s.month = month;
    s.monthSpent = cap(Math.max(s.monthSpent, s.daySpent), this.limits.perMonth);
    s.highWater = now;
    s.recentSends = s.recentSends.filter((t) => t <= now);
    if (s.rateBlockedUntil !== null && s.rateBlockedUntil > now + MAX_RETRY_AFTER_MS) s.rateBlockedUntil = null;
    if (s.creditsOut !== null)
      s.creditsOut = {
        since: Math.min(s.creditsOut.since, now),
        lastRefusalAt: Math.min(s.creditsOut.lastRefusalAt, now),
      };
    void this.#persist().catch(() => undefined);
    return text;
  }

  /**
   * Counts `credits` as spent (and unknown, until resolve() says how it ended) at once; records the send at `now`
   * for the rate window. The promise resolves when that is on disk (reject: it is not).
   */
  charge(
    credits: number,
    refresh: boolean,
    trusted: boolean,
    now?: number,
  ): { receipt: Receipt; persisted: Promise<void> } {
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
   * charge(), then waits for the disk: a paid request is never sent without its record. Its synchronous part runs
   * before the first await, so a caller's next synchronous step still follows the charge at once. When the record
   * cannot be written the request is not sent, so the charge is taken back whole (credits, unknown, the rate
   * window's send): a state folder that stays read-only for a day costs nothing.
   */
  async chargeAhead(
    credits: number,
    refresh: boolean,
    trusted: boolean,
    now: number,
  ): Promise<{ ok: true; receipt: Receipt } | { ok: false; error: StoreError }> {
    const { receipt, persisted } = this.charge(credits, refresh, trusted, now);
    try {
      await persisted;
      this.#problem = null;
      return { ok: true, receipt };
    } catch (err) {
      const error = storeWriteError(this.file, err);
      this.#problem = {
        code: error.code,
        file: error.file,
        message: error.message,
        since: this.#problem?.since ?? new Date(now).toISOString(),
      };
      const sends = this.#s.recentSends;
      const at = sends.lastIndexOf(now);
      if (at >= 0) sends.splice(at, 1);
      // Written again (when the disk lets it): another display's write may have carried this charge to the file.
      void this.resolve(receipt, 'not-sent').catch(() => undefined);
      return { ok: false, error };
    }
  }

  /**
   * Records how a charged request ended. Refused or never sent: the credits are given back where their periods
   * still run.
   * Charged: they move from unknown to charged. Unknown: they stay as they are (counted, charge unknown).
   */
  resolve(r: Receipt, result: ChargeResult): Promise<void> {
    const s = this.#s;
    // Written all the same: the request's end and the backoff it left (noteEnded, noteBackoff) go with it.
    if (result === 'unknown') return this.#persist();
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

  /**
   * Notes that `displayId`'s recommendation was bought at `now`, in memory: the caller's resolve() of its charge, which
   * follows at once, writes it with the charge (one write a purchase, as before).
   */
  noteBought(displayId: string, now: number): void {
    this.#s.lastBought = { ...this.#s.lastBought, [displayId]: now };
  }

  /**
   * Notes, in memory, that a paid request goes out at `now`: the write-ahead charge that follows at once writes it,
   * so a start after a crash or a kill mid-request knows one was cut off (and waits as after a failure).
   */
  noteSending(now: number): void {
    this.#s.inFlight = [...this.#s.inFlight.slice(-99), now];
  }

  /** The request sent at `sentAt` ended (answered, failed, or never sent after all); in memory, written with its record. */
  noteEnded(sentAt: number): void {
    const at = this.#s.inFlight.indexOf(sentAt);
    if (at >= 0) this.#s.inFlight = this.#s.inFlight.filter((_, i) => i !== at);
  }

  /** Takes the in-flight requests a start found, counted as failures in the backoff noted with them; written. */
  clearInFlight(): Promise<void> {
    this.#s.inFlight = [];
    return this.#persist();
  }

  /** The failure backoff as it stands, in memory: written with the request's record, or with the next write. */
  noteBackoff(failures: number, until: number): void {
    this.#s.backoff = { failures, until };
  }

  /** Notes, in memory, that `displayId`'s paid request got a 2xx at `now` whose answer could not be used. */
  notePaid(displayId: string, now: number): void {
    this.#s.lastPaid = { ...this.#s.lastPaid, [displayId]: now };
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
