import type { Clock } from '../time/clock.js';

/**
 * Whether the wall clock can be believed, and what may be spent while it cannot.
 *
 * The clock is trusted when it is not before the build date and not behind where it should be: behind the last
 * trusted reading carried forward by the elapsed (monotonic) time since, or, just after a start, behind the ledger's
 * last trusted reading. A small slack allows NTP's usual corrections. So a clock stepped back (or one at 1970 after
 * a boot without RTC) is not trusted until it is at least where it was; a clock stepped forward is taken as corrected.
 *
 * While the clock is not trusted, the ledger keeps charging its latest day and month (periods never move back), and
 * this guard adds a limit that holds in real elapsed time whatever the clock says: at most the daily budget in any
 * 25 hours, at most the monthly budget in any 745 hours (31 days and one), counting what the ledger's latest day
 * and month held when the episode began as if spent at its start. A calendar day is at most 25 hours long and a
 * month at most 745, so this keeps every real day and month within budget, and it never stalls for good.
 * An episode ends when the clock is where it should be again, or, after 25 hours, once it is past the last trusted
 * reading (so a step forward that was undone does not keep the clock distrusted for ever).
 *
 * A last trusted reading more than a day window (25 h) ahead of a clock that has then run steadily for 25 hours is
 * from the future (a ledger dated 2099, an RTC that was years ahead): waiting for the clock to pass it would keep the
 * clock distrusted for years, so the clock is believed and becomes the reference, and the ledger moves its periods
 * to the clock's (ledger.ts, settle), counting what they held as spent.
 *
 * NTP's word beats that memory: when systemd-timesyncd marks a new synchronization (it touches
 * /run/systemd/timesync/synchronized each time), the clock is trusted as it is, even behind the last reading, and
 * becomes the new reference. Periods never go back for a correction of less than a day window, so that correction
 * cannot make a day be paid twice; periods further ahead are from the future, as above.
 */

/** Where systemd-timesyncd marks a synchronized clock; its mtime changes at every synchronization. */
export const TIMESYNC_FLAG = '/run/systemd/timesync/synchronized';

/** The daemon refuses to believe a clock before this instant (raise it at each release). */
export const BUILD_TIME_MS = Date.UTC(2026, 10, 1);
export const CLOCK_SLACK_MS = 2 * 60_000;
export const DAY_WINDOW_MS = 25 * 3_600_000;
const MONTH_WINDOW_MS = 745 * 3_600_000;

interface Episode {
  startMono: number;
  /** Since when (wall and monotonic) the wall clock has run in step with the monotonic one: no step since. */
  steady: { wall: number; mono: number };
  /** The ledger's day and month spending when the episode began. */
  seedDay: number;
  seedMonth: number;
  spends: Array<{ mono: number; credits: number }>;
}

export interface TrustVerdict {
  trusted: boolean;
  /** Why not, for logs and the status page (its numbers change with every check). */
  reason: string | null;
  /** Why not, as a stable kind: a new kind is worth a new warning, a new count is not. */
  cause: 'before-build' | 'behind' | null;
}

export interface ClockGuardOptions {
  /** The clock to judge (wall and monotonic time). */
  clock: Clock;
  /** A clock before this instant is not believed (default BUILD_TIME_MS). */
  buildTime?: number;
  /** How far behind a clock may be and still be trusted: NTP's usual corrections (default CLOCK_SLACK_MS). */
  slackMs?: number;
  /** When the clock was last synchronized by NTP (the flag file's mtime), or null when unknown (default: unknown). */
  syncStamp?: () => number | null;
}

export class ClockGuard {
  readonly #clock: Clock;
  readonly #buildTime: number;
  readonly #slackMs: number;
  readonly #syncStamp: () => number | null;
  #last: { wall: number; mono: number } | null = null;
  #highWater = 0;
  #episode: Episode | null = null;
  #lastSync: number | null = null;

  constructor(opts: ClockGuardOptions) {
    this.#clock = opts.clock;
    this.#buildTime = opts.buildTime ?? BUILD_TIME_MS;
    this.#slackMs = opts.slackMs ?? CLOCK_SLACK_MS;
    this.#syncStamp = opts.syncStamp ?? (() => null);
  }

  /** The latest trusted reading from the ledger, for the first check after a start. */
  restore(highWater: number): void {
    this.#highWater = Math.max(this.#highWater, highWater);
  }

  get inEpisode(): boolean {
    return this.#episode !== null;
  }

  /**
   * Checks the clock now. `seed` gives the ledger's day and month spending, used when an untrusted episode begins.
   */
  check(seed: () => { day: number; month: number }): TrustVerdict {
    const wall = this.#clock.now();
    const mono = this.#clock.monotonic();
    let reason: string | null = null;
    let cause: TrustVerdict['cause'] = null;
    const sync = this.#syncStamp();
    const freshSync = sync !== null && sync !== this.#lastSync;
    if (freshSync) this.#lastSync = sync;
    if (freshSync && wall >= this.#buildTime) {
      this.#highWater = wall;
      this.#last = null;
    }
    if (wall < this.#buildTime) {
      reason = `the clock (${new Date(wall).toISOString()}) is before the build date ${new Date(this.#buildTime).toISOString()}`;
      cause = 'before-build';
    } else {
      if (this.#futureReading(wall, mono)) {
        this.#highWater = wall;
        this.#last = null;
      }
      const expected = this.#last === null ? this.#highWater : this.#last.wall + (mono - this.#last.mono);
      // After 25 hours behind, a clock past the last trusted reading is believed again (the reading was the wrong
      // one: a step forward that was later undone).
      const settled =
        this.#episode !== null &&
        mono - this.#episode.startMono >= DAY_WINDOW_MS &&
        wall >= this.#highWater - this.#slackMs;
      if (wall < expected - this.#slackMs && !settled) {
        reason = `the clock (${new Date(wall).toISOString()}) is ${Math.round((expected - wall) / 1000)} s behind its last trusted reading`;
        cause = 'behind';
      }
    }
    if (reason === null) {
      this.#last = { wall, mono };
      this.#highWater = Math.max(this.#highWater, wall);
      this.#episode = null;
      return { trusted: true, reason: null, cause: null };
    }
    if (this.#episode === null) {
      const s = seed();
      this.#episode = { startMono: mono, steady: { wall, mono }, seedDay: s.day, seedMonth: s.month, spends: [] };
    }
    return { trusted: false, reason, cause };
  }

  /**
   * Whether the last trusted reading is from the future: more than DAY_WINDOW_MS ahead of a clock that has run in step
   * with the monotonic clock for DAY_WINDOW_MS of a distrusted episode. A step of the clock starts the count anew.
   */
  #futureReading(wall: number, mono: number): boolean {
    const e = this.#episode;
    if (e === null || this.#highWater - wall <= DAY_WINDOW_MS) return false;
    if (Math.abs(wall - e.steady.wall - (mono - e.steady.mono)) > this.#slackMs) {
      e.steady = { wall, mono };
      return false;
    }
    return mono - e.steady.mono >= DAY_WINDOW_MS;
  }

  /** Records a spend made while the clock was not trusted. */
  recordSpend(credits: number): void {
    this.#episode?.spends.push({ mono: this.#clock.monotonic(), credits });
  }

  /** Takes back a recorded spend (a refused request). */
  cancelSpend(credits: number): void {
    const spends = this.#episode?.spends;
    if (!spends) return;
    for (let i = spends.length - 1; i >= 0; i--) {
      if (spends[i]?.credits === credits) {
        spends.splice(i, 1);
        return;
      }
    }
  }

  /** Credits counted against the 25-hour and 745-hour windows now (0 outside an episode). */
  windowUsed(): { day: number; month: number } {
    const e = this.#episode;
    if (e === null) return { day: 0, month: 0 };
    const mono = this.#clock.monotonic();
    const sumSince = (ms: number): number => e.spends.reduce((n, s) => (s.mono > mono - ms ? n + s.credits : n), 0);
    e.spends = e.spends.filter((s) => s.mono > mono - MONTH_WINDOW_MS);
    return {
      day: sumSince(DAY_WINDOW_MS) + (mono - e.startMono < DAY_WINDOW_MS ? e.seedDay : 0),
      month: sumSince(MONTH_WINDOW_MS) + (mono - e.startMono < MONTH_WINDOW_MS ? e.seedMonth : 0),
    };
  }

  /** Elapsed ms until the 25-hour window has `needed` credits free under `limit`, or null if it never will. */
  msUntilDayWindowFrees(needed: number, limit: number): number | null {
    const e = this.#episode;
    if (e === null) return 0;
    const mono = this.#clock.monotonic();
    const events = [
      ...(mono - e.startMono < DAY_WINDOW_MS ? [{ mono: e.startMono, credits: e.seedDay }] : []),
      ...e.spends.filter((s) => s.mono > mono - DAY_WINDOW_MS),
    ].sort((a, b) => a.mono - b.mono);
    let used = events.reduce((n, s) => n + s.credits, 0);
    if (needed > limit) return null;
    for (const ev of events) {
      if (used + needed <= limit) break;
      used -= ev.credits;
      if (used + needed <= limit) return ev.mono + DAY_WINDOW_MS - mono;
    }
    return used + needed <= limit ? 0 : null;
  }
}
