import type { CronTimes } from './cron-times.js';

/** Why a display buys nothing at a time: its quiet hours (`until` their end) or its people away (`until` null). */
export interface TickHold {
  reason: 'quiet_hours' | 'away';
  until: number | null;
}

/** Times a display buys at besides its cron schedule (household-gate.ts: before its people's departures). */
export interface ExtraTimes {
  nextAfter(t: number): number | null;
  lastAtOrBefore(t: number, notBefore: number): number | null;
}

/** How many held quiet slots a look ahead passes over (a minute schedule through a nine-hour night is 540). */
const MAX_HELD_LOOKAHEAD = 2000;
/** How many extra times in a row a look ahead drops for a cron tick near them. */
const MAX_EXTRA_DROPPED = 50;

export interface SlotTimesOptions {
  /** The display's schedule. */
  cron: CronTimes;
  /** Its extra times, or null. */
  extra: ExtraTimes | null;
  /** An extra time within this of a cron tick is that tick's: one purchase serves both (the scheduler's spacing). */
  spacingMs: number;
  /** Why the display buys nothing at a time; quiet hours, known ahead, are looked past. */
  hold: (at: number) => TickHold | null;
}

/** A display's purchase times for the scheduler: its cron's and its extra ones, and those quiet hours leave. */
export class SlotTimes {
  readonly #o: SlotTimesOptions;

  constructor(opts: SlotTimesOptions) {
    this.#o = opts;
  }

  /** The next time after `t`: the cron's or an extra one, whichever comes first. */
  nextAfter(t: number): number | null {
    const { cron, extra } = this.#o;
    const fromCron = cron.nextAfter(t);
    if (extra === null) return fromCron;
    let next = extra.nextAfter(t);
    // Only an extra time before the cron's next one matters now; one near a cron tick is that tick's.
    for (let i = 0; next !== null && (fromCron === null || next < fromCron) && this.#nearCron(next); i++) {
      next = i < MAX_EXTRA_DROPPED ? extra.nextAfter(next) : null;
    }
    return next === null ? fromCron : fromCron === null ? next : Math.min(fromCron, next);
  }

  /** The last time at or before `t` and after `notBefore`, the cron's or an extra one. */
  lastAtOrBefore(t: number, notBefore: number): number | null {
    const fromCron = this.#o.cron.lastAtOrBefore(t, notBefore);
    const last = this.#o.extra?.lastAtOrBefore(t, notBefore) ?? null;
    return last === null || this.#nearCron(last) ? fromCron : fromCron === null ? last : Math.max(fromCron, last);
  }

  /** The first time from `from` (a time of the display, or null) on that quiet hours do not hold. */
  unheldFrom(from: number | null): number | null {
    let at = from;
    for (let i = 0; at !== null && i < MAX_HELD_LOOKAHEAD; i++) {
      const hold = this.#o.hold(at);
      if (hold?.reason !== 'quiet_hours' || hold.until === null) return at;
      at = this.nextAfter(Math.max(at, hold.until - 1));
    }
    return at;
  }

  #nearCron(t: number): boolean {
    const around = this.#o.cron.nextAfter(t - this.#o.spacingMs);
    return around !== null && around < t + this.#o.spacingMs;
  }
}
