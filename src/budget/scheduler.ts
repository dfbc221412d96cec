import type pino from 'pino';
import type { Config } from '../config/schema.js';
import type { Clock } from '../time/clock.js';
import { CronTimes } from './cron-times.js';
import { SlotTimes, type ExtraTimes, type TickHold } from './slot-times.js';
import { STALE_GRACE_MS } from './stale-grace.js';
import { resolveSchedules } from './planner.js';

/**
 * Ticks each display on its cron schedule (or its derived auto schedule), in the config's time zone, with the
 * injected clock's timers.
 *
 * - No overlap: a tick that falls due while the display's previous cycle still runs is not started; once that cycle
 *   ends, one catch-up tick runs (for the latest missed time), however many were missed: never made up twice. It
 *   is skipped when the display's answer is fresher than half its interval: a long cycle (a 429 wait) that ended
 *   with a good answer needs no second purchase a moment later.
 * - Sleeps at most `maxSleepMs` at a time and compares the wall clock with elapsed time at each wake, so a clock
 *   step is noticed within a minute. Stepped forward: ticks jumped over are not made up, except one for the latest.
 *   Stepped back: the schedule continues from the new time (no stall), and no tick starts sooner than half the
 *   schedule's shortest gap (at most 30 min) after the previous one, so times already run are not rerun in a burst.
 *   Spending is the governor's business: its ledger never reopens a day.
 * - A slot whose purchase failed or was deferred is tried again when the cycle's outcome says (the failure backoff,
 *   Retry-After, the account's next probe), until it has its answer or the display's next tick comes: one error no
 *   longer costs a daily schedule its day. The governor paces retries; they neither wait for the spacing below nor
 *   move it, and one that would fall within the spacing before the next tick is left to that tick.
 * - Downtime is made up at start: when the answer on show is older than the latest slot, one tick runs at once for
 *   it, if that slot's interval (its time plus the schedule's shortest gap) still runs, so a start at night outside
 *   the schedule's hours waits for the first slot of the day. With nothing on show at all (a first start) one tick
 *   runs at once, except in the schedule's quiet time (its night, or outside an auto display's active hours). Neither
 *   when the next slot is due within two minutes (that slot buys). A fresh answer is never bought again.
 * - Paced: when the schedules need more credits than the budget, the schedules given are the densest that fit
 *   (planner.ts, PlanReport.runs): ticks on wall-clock slots, rather than the day's credits spent in its first hours.
 *   Being the clock's, not counted from the process start, a restart neither re-runs a slot nor skips one.
 * - Held (`hold`, the household's gate): a tick, retry or catch-up while the display is held (its quiet hours, or
 *   everyone it dresses away) buys nothing; the first of a stretch is a warning (W_PURCHASE_HELD, with the reason),
 *   the rest debug lines. Quiet hours are known ahead: the next run and staleness skip the ticks they hold, so the
 *   devices sleep until their end and a frame does not go stale overnight.
 * - Extra times (`extraTimes`: an `auto` display's purchases shortly before its people's departures) are ticks like
 *   the cron's, except one within the spacing of a cron tick, which that tick serves.
 */

/** How a tick's cycle ended, for the scheduler: when to try the slot again, or null when it has its answer. */
export interface TickOutcome {
  /**
   * The purchase failed, was deferred (backoff, Retry-After, rate limit) or held back (the account's hourly probe):
   * the slot is tried again then, unless the display's next tick comes first. Null: done.
   */
  retryAt: Date | null;
}

export interface SchedulerOptions {
  config: Config;
  clock: Clock;
  /** Runs one tick's cycle; its outcome may ask for a retry of the slot. */
  onTick: (displayId: string, scheduledFor: Date) => Promise<TickOutcome | void>;
  logger?: pino.Logger;
  /** Display id → cron expression; default resolveSchedules(config) at the clock's time (paced when over budget). */
  schedules?: Map<string, string>;
  /** Longest single sleep (default 60 s). */
  maxSleepMs?: number;
  /**
   * Told once an answer goes stale (a slot passed, with STALE_GRACE_MS, without a new one), at the first wake after:
   * staleness is a matter of time, not of a cycle, and the display is drawn again then. Needs `lastAnswerAt`.
   */
  onStale?: (displayId: string) => void;
  /**
   * When the display's shown answer arrived (ms), or null: a catch-up tick skips a display fresher than half its
   * interval, and a start makes up the latest slot for an answer older than it. Without it, a start makes nothing up.
   */
  lastAnswerAt?: (displayId: string) => number | null;
  /** Why the display buys nothing at `at`, or null (default: never held). */
  hold?: (displayId: string, at: number) => TickHold | null;
  /** The display's extra purchase times, or null (default: none). */
  extraTimes?: (displayId: string) => ExtraTimes | null;
}

const JUMP_MS = 2 * 60_000;
/** A start this close before a slot leaves the purchase to that slot, rather than buying twice within moments. */
const START_SLACK_MS = 2 * 60_000;
const STUCK_MS = 30 * 60_000;

interface Slot {
  id: string;
  cron: CronTimes;
  next: number | null;
  timer: unknown;
  /** When the timer is due (monotonic), and the wall time expected then. */
  dueMono: number;
  expectWall: number;
  running: Promise<void> | null;
  runningSinceMono: number;
  missed: number | null;
  /** Ticks skipped while the current cycle runs: the first is a warning, the rest are counted. */
  skipped: number;
  /** A retry of the slot `retryFor` at wall time `retryAt`, before the next tick; null: none. */
  retry: { at: number; slot: number } | null;
  /** The answer (its time) whose going stale was told to onStale; null: none yet. */
  staleTold: number | null;
  lastStartMono: number;
  spacingMs: number;
  /** Its times: the cron's, the extra ones, and which of them quiet hours hold. */
  times: SlotTimes;
  /** The reason of the hold now in force (told once as a warning), or null. */
  held: TickHold['reason'] | null;
}

export class Scheduler {
  readonly #clock: Clock;
  readonly #onTick: SchedulerOptions['onTick'];
  readonly #log: pino.Logger | undefined;
  readonly #maxSleep: number;
  readonly #lastAnswerAt: (displayId: string) => number | null;
  /** Whether answers are known (lastAnswerAt given): only then is downtime made up at start. */
  readonly #knowsAnswers: boolean;
  readonly #onStale: ((displayId: string) => void) | undefined;
  readonly #slots: Slot[];
  readonly #hold: NonNullable<SchedulerOptions['hold']>;
  #started = false;
  #stopped = false;

  constructor(opts: SchedulerOptions) {
    this.#clock = opts.clock;
    this.#onTick = opts.onTick;
    this.#log = opts.logger;
    this.#maxSleep = opts.maxSleepMs ?? 60_000;
    this.#lastAnswerAt = opts.lastAnswerAt ?? (() => null);
    this.#knowsAnswers = opts.lastAnswerAt !== undefined;
    this.#onStale = opts.onStale;
    const schedules = opts.schedules ?? resolveSchedules(opts.config, { now: opts.clock.now() });
    this.#hold = opts.hold ?? (() => null);
    this.#slots = opts.config.displays.map((d) => {
      const cron = new CronTimes(schedules.get(d.id) ?? d.schedule, opts.config.timezone);
      const spacingMs = Math.min(cron.minGapMs() / 2, 30 * 60_000);
      return {
        id: d.id,
        cron,
        next: null,
        timer: undefined,
        dueMono: 0,
        expectWall: 0,
        running: null,
        runningSinceMono: 0,
        missed: null,
        skipped: 0,
        retry: null,
        staleTold: null,
        lastStartMono: -Infinity,
        spacingMs,
        times: new SlotTimes({
          cron,
          extra: opts.extraTimes?.(d.id) ?? null,
          spacingMs,
          hold: (at) => this.#hold(d.id, at),
        }),
        held: null,
      };
    });
  }

  /**
   * Starts ticking. Returns the ticks started at once to make up for downtime (display id → the cycle), so that a
   * start can wait for the first frames.
   */
  start(): Map<string, Promise<void>> {
    const catchUps = new Map<string, Promise<void>>();
    if (this.#started) return catchUps;
    this.#started = true;
    const now = this.#clock.now();
    const mono = this.#clock.monotonic();
    for (const s of this.#slots) {
      s.next = s.times.nextAfter(now);
      const missed = this.#missedAtStart(s, now);
      this.#log?.info(
        {
          display: s.id,
          schedule: s.cron.expression,
          next: this.nextRun(s.id)?.toISOString(),
          ...(missed !== null && { catchUp: new Date(missed).toISOString() }),
        },
        'schedule started',
      );
      if (missed !== null) catchUps.set(s.id, this.#run(s, missed, false));
      this.#arm(s, now, mono);
    }
    return catchUps;
  }

  /** The slot to make up at start (see the class comment), or null. */
  #missedAtStart(s: Slot, now: number): number | null {
    if (!this.#knowsAnswers || this.#hold(s.id, now) !== null) return null;
    // The next slot is about to come: it buys, not a start a moment before it.
    if (s.next !== null && s.next - now <= Math.min(START_SLACK_MS, s.spacingMs)) return null;
    const answer = this.#lastAnswerAt(s.id);
    const latest = s.cron.lastAtOrBefore(now, answer ?? -Infinity);
    const pastItsInterval = latest !== null && now >= latest + s.cron.minGapMs();
    if (answer !== null) return latest === null || pastItsInterval ? null : latest;
    // Nothing on show at all (a first start): one purchase now, unless it is the schedule's quiet time (the night of
    // "*/30 6-22 * * *", or outside an auto display's active hours): past the latest slot's interval, in a gap longer
    // than twice the schedule's shortest one. A daily or weekly schedule has no quiet time: it buys at once.
    const quiet = pastItsInterval && s.next !== null && latest !== null && s.next - latest > 2 * s.cron.minGapMs();
    return quiet ? null : (latest ?? now);
  }

  /** The ticks under way (each ends once its cycle has and the next tick or retry is armed). */
  inFlight(): Promise<void>[] {
    return this.#slots.flatMap((s) => (s.running === null ? [] : [s.running]));
  }

  /** Stops ticking; resolves when every cycle in flight has finished. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const s of this.#slots) {
      if (s.timer !== undefined) this.#clock.clearTimeout(s.timer);
      s.timer = undefined;
      s.missed = null;
    }
    while (this.#slots.some((s) => s.running !== null)) {
      await Promise.all(this.#slots.map((s) => s.running ?? Promise.resolve()));
    }
  }

  /**
   * When an answer served at `servedAt` (bought, or confirmed by a change-aware poll) becomes stale: the first slot
   * after it, plus STALE_GRACE_MS for that slot's purchase; null when no slot follows.
   */
  staleFrom(displayId: string, servedAt: number): Date | null {
    const s = this.#slots.find((x) => x.id === displayId);
    const next = s === undefined ? null : s.times.unheldFrom(s.times.nextAfter(servedAt));
    return next === null ? null : new Date(next + STALE_GRACE_MS);
  }

  /** The display's next tick, or the retry of its slot when that comes first. */
  nextRun(displayId: string): Date | null {
    const s = this.#slots.find((x) => x.id === displayId);
    if (s === undefined) return null;
    const next = s.times.unheldFrom(s.next);
    const at = s.retry === null ? next : Math.min(s.retry.at, next ?? Infinity);
    return at === null ? null : new Date(at);
  }

  /** The display's next run once a retry of its slot at `retryAt` is asked for: the rule #retryLater applies. */
  nextRunAfterRetry(displayId: string, retryAt: Date | null): Date | null {
    const s = this.#slots.find((x) => x.id === displayId);
    if (s === undefined) return null;
    const when = retryAt?.getTime() ?? null;
    const kept = when !== null && (s.next === null || when < s.next - s.spacingMs);
    const next = s.times.unheldFrom(s.next);
    const at = kept ? Math.min(when, next ?? Infinity) : next;
    return at === null ? null : new Date(at);
  }

  /** Started, not stopped, every timer firing on time and no cycle stuck for 30 minutes. */
  healthy(): boolean {
    if (!this.#started || this.#stopped) return false;
    const mono = this.#clock.monotonic();
    return this.#slots.every(
      (s) =>
        (s.next === null || s.timer !== undefined || s.running !== null) &&
        (s.timer === undefined || mono <= s.dueMono + JUMP_MS) &&
        (s.running === null || mono - s.runningSinceMono < STUCK_MS),
    );
  }

  /**
   * `now` and `mono` are the times the caller worked `s.next` out from. A wake passes the ones it read: read again
   * here, after the tick started, a clock stepped back in between would make `s.next` hours away, the timer a
   * minute's sleep with no drift to notice, and the schedule stall until the old time came round again.
   */
  #arm(s: Slot, now = this.#clock.now(), mono = this.#clock.monotonic()): void {
    if (this.#stopped || (s.next === null && s.retry === null)) return;
    const untilSpacing = s.lastStartMono + s.spacingMs - mono;
    const untilNext = s.next === null ? Infinity : Math.max(s.next - now, untilSpacing);
    const delay = Math.min(
      this.#maxSleep,
      Math.max(0, Math.min(untilNext, s.retry === null ? Infinity : s.retry.at - now)),
    );
    s.dueMono = mono + delay;
    s.expectWall = now + delay;
    s.timer = this.#clock.setTimeout(() => this.#wake(s), delay);
  }

  #wake(s: Slot): void {
    s.timer = undefined;
    if (this.#stopped) return;
    const now = this.#clock.now();
    this.#checkStale(s, now);
    const drift = now - s.expectWall;
    if (Math.abs(drift) > JUMP_MS && s.next !== null) {
      this.#log?.warn(
        { code: 'W_CLOCK_STEPPED', display: s.id, driftS: Math.round(drift / 1000) },
        `clock stepped ${drift > 0 ? 'forward' : 'back'}`,
      );
      if (drift < 0) s.next = s.times.nextAfter(now);
      // A retry is for its slot: after a step, one that now lies beyond the next tick is dropped.
      if (s.retry !== null && s.next !== null && s.retry.at >= s.next) s.retry = null;
    }
    const mono = this.#clock.monotonic();
    if (s.next !== null && now >= s.next && mono >= s.lastStartMono + s.spacingMs) {
      const due = s.times.lastAtOrBefore(now, s.next - 1) ?? s.next;
      s.retry = null;
      if (this.#held(s, due)) {
        // Held: nothing bought, nothing missed.
      } else if (s.running !== null) {
        s.skipped++;
        const fields = { display: s.id, scheduledFor: new Date(due).toISOString() };
        if (s.skipped === 1)
          this.#log?.warn({ code: 'W_TICK_SKIPPED', ...fields }, 'tick skipped: the previous cycle is still running');
        else this.#log?.debug(fields, 'tick skipped: the previous cycle is still running');
        s.missed = due;
      } else {
        void this.#run(s, due);
      }
      s.next = s.times.nextAfter(Math.max(now, due));
    } else if (s.retry !== null && now >= s.retry.at && s.running === null) {
      const slot = s.retry.slot;
      s.retry = null;
      if (!this.#held(s, now)) {
        this.#log?.info({ display: s.id, scheduledFor: new Date(slot).toISOString() }, 'trying the slot again');
        void this.#run(s, slot, false);
      }
    }
    this.#arm(s, now, mono);
  }

  /**
   * `tick`: a tick of the schedule (the spacing counts from it); a retry or a start's catch-up does not move the
   * spacing, so it never pushes the display's next slot back.
   */
  #run(s: Slot, scheduledFor: number, tick = true): Promise<void> {
    s.runningSinceMono = this.#clock.monotonic();
    if (tick) s.lastStartMono = s.runningSinceMono;
    const running = (async () => {
      try {
        return (await this.#onTick(s.id, new Date(scheduledFor))) ?? null;
      } catch (err) {
        this.#log?.error({ display: s.id, err }, 'cycle failed');
        return null;
      }
    })().then((outcome) => {
      s.running = null;
      if (s.skipped > 1) this.#log?.info({ display: s.id, skipped: s.skipped }, 'ticks were skipped while a cycle ran');
      s.skipped = 0;
      const missed = s.missed;
      s.missed = null;
      if (this.#stopped) return;
      if (missed !== null) {
        if (!this.#freshEnough(s, missed) && !this.#held(s, this.#clock.now())) void this.#run(s, missed);
        return;
      }
      this.#retryLater(s, scheduledFor, outcome?.retryAt ?? null);
    });
    s.running = running;
    return running;
  }

  /** Whether the display is held at `at`: the first of a stretch of holds for one reason is a warning. */
  #held(s: Slot, at: number): boolean {
    const hold = this.#hold(s.id, at);
    if (hold === null) {
      s.held = null;
      return false;
    }
    const fields = { display: s.id, reason: hold.reason, scheduledFor: new Date(at).toISOString() };
    const until = hold.until === null ? {} : { until: new Date(hold.until).toISOString() };
    if (s.held !== hold.reason) {
      this.#log?.warn(
        { code: 'W_PURCHASE_HELD', ...fields, ...until },
        hold.reason === 'quiet_hours'
          ? 'purchase held: quiet hours'
          : 'purchase held: everyone the display dresses is away',
      );
    } else this.#log?.debug(fields, 'purchase held');
    s.held = hold.reason;
    return true;
  }

  /** Tells onStale, once per answer, when the display's answer has gone stale (no cycle of it running). */
  #checkStale(s: Slot, now: number): void {
    const answer = this.#lastAnswerAt(s.id);
    if (this.#onStale === undefined || answer === null || s.staleTold === answer || s.running !== null) return;
    const from = this.staleFrom(s.id, answer);
    if (from === null || now < from.getTime()) return;
    s.staleTold = answer;
    this.#onStale(s.id);
  }

  /** Sets (or clears) the retry of `slot` at `at`, before the display's next tick; the timer is armed anew for it. */
  #retryLater(s: Slot, slot: number, at: Date | null): void {
    const when = at === null ? null : at.getTime();
    // A retry that would come within the spacing before the next tick is left to that tick: one purchase serves both.
    s.retry = when !== null && (s.next === null || when < s.next - s.spacingMs) ? { at: when, slot } : null;
    if (s.retry === null) return;
    this.#log?.info(
      { display: s.id, scheduledFor: new Date(slot).toISOString(), retryAt: new Date(when ?? 0).toISOString() },
      'slot not served: trying again later',
    );
    if (s.timer !== undefined) this.#clock.clearTimeout(s.timer);
    s.timer = undefined;
    this.#arm(s);
  }

  /** Whether the display's answer is fresher than half the interval that the missed tick begins. */
  #freshEnough(s: Slot, missed: number): boolean {
    const at = this.#lastAnswerAt(s.id);
    if (at === null) return false;
    const interval = (s.cron.nextAfter(missed) ?? missed + s.cron.minGapMs()) - missed;
    const age = this.#clock.now() - at;
    if (age < 0 || age >= interval / 2) return false;
    this.#log?.info(
      { display: s.id, scheduledFor: new Date(missed).toISOString(), ageS: Math.round(age / 1000) },
      'catch-up tick skipped: the answer is fresh',
    );
    return true;
  }
}
