import type pino from 'pino';
import type { Config } from '../config/schema.js';
import type { Clock } from '../time/clock.js';
import { CronTimes } from './cron-times.js';
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
 * - Paced: when the schedules need more credits than the budget, the schedules given are the densest that fit
 *   (planner.ts, PlanReport.runs): ticks on wall-clock slots, rather than the day's credits spent in its first hours.
 *   Being the clock's, not counted from the process start, a restart neither re-runs a slot nor skips one.
 */

export interface SchedulerOptions {
  config: Config;
  clock: Clock;
  onTick: (displayId: string, scheduledFor: Date) => Promise<void>;
  logger?: pino.Logger;
  /** Display id → cron expression; default resolveSchedules(config) at the clock's time (paced when over budget). */
  schedules?: Map<string, string>;
  /** Longest single sleep (default 60 s). */
  maxSleepMs?: number;
  /** When the display's shown answer arrived (ms), or null: a catch-up tick skips a display fresher than half its interval. */
  lastAnswerAt?: (displayId: string) => number | null;
}

const JUMP_MS = 2 * 60_000;
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
  lastStartMono: number;
  spacingMs: number;
}

export class Scheduler {
  readonly #clock: Clock;
  readonly #onTick: SchedulerOptions['onTick'];
  readonly #log: pino.Logger | undefined;
  readonly #maxSleep: number;
  readonly #lastAnswerAt: (displayId: string) => number | null;
  readonly #slots: Slot[];
  #started = false;
  #stopped = false;

  constructor(opts: SchedulerOptions) {
    this.#clock = opts.clock;
    this.#onTick = opts.onTick;
    this.#log = opts.logger;
    this.#maxSleep = opts.maxSleepMs ?? 60_000;
    this.#lastAnswerAt = opts.lastAnswerAt ?? (() => null);
    const schedules = opts.schedules ?? resolveSchedules(opts.config, { now: opts.clock.now() });
    this.#slots = opts.config.displays.map((d) => {
      const cron = new CronTimes(schedules.get(d.id) ?? d.schedule, opts.config.timezone);
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
        lastStartMono: -Infinity,
        spacingMs: Math.min(cron.minGapMs() / 2, 30 * 60_000),
      };
    });
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    const now = this.#clock.now();
    const mono = this.#clock.monotonic();
    for (const s of this.#slots) {
      s.next = s.cron.nextAfter(now);
      this.#log?.info({ display: s.id, schedule: s.cron.expression, next: this.nextRun(s.id)?.toISOString() }, 'schedule started');
      this.#arm(s, now, mono);
    }
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

  nextRun(displayId: string): Date | null {
    const next = this.#slots.find((s) => s.id === displayId)?.next;
    return next === null || next === undefined ? null : new Date(next);
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
    if (this.#stopped || s.next === null) return;
    const untilSpacing = s.lastStartMono + s.spacingMs - mono;
    const delay = Math.min(this.#maxSleep, Math.max(0, s.next - now, untilSpacing));
    s.dueMono = mono + delay;
    s.expectWall = now + delay;
    s.timer = this.#clock.setTimeout(() => this.#wake(s), delay);
  }

  #wake(s: Slot): void {
    s.timer = undefined;
    if (this.#stopped) return;
    const now = this.#clock.now();
    const drift = now - s.expectWall;
    if (Math.abs(drift) > JUMP_MS && s.next !== null) {
      this.#log?.warn({ code: 'W_CLOCK_STEPPED', display: s.id, driftS: Math.round(drift / 1000) }, `clock stepped ${drift > 0 ? 'forward' : 'back'}`);
      if (drift < 0) s.next = s.cron.nextAfter(now);
    }
    const mono = this.#clock.monotonic();
    if (s.next !== null && now >= s.next && mono >= s.lastStartMono + s.spacingMs) {
      const due = s.cron.lastAtOrBefore(now, s.next - 1) ?? s.next;
      if (s.running !== null) {
        s.skipped++;
        const fields = { display: s.id, scheduledFor: new Date(due).toISOString() };
        if (s.skipped === 1) this.#log?.warn({ code: 'W_TICK_SKIPPED', ...fields }, 'tick skipped: the previous cycle is still running');
        else this.#log?.debug(fields, 'tick skipped: the previous cycle is still running');
        s.missed = due;
      } else {
        this.#run(s, due);
      }
      s.next = s.cron.nextAfter(Math.max(now, due));
    }
    this.#arm(s, now, mono);
  }

  #run(s: Slot, scheduledFor: number): void {
    s.lastStartMono = this.#clock.monotonic();
    s.runningSinceMono = s.lastStartMono;
    s.running = (async () => {
      try {
        await this.#onTick(s.id, new Date(scheduledFor));
      } catch (err) {
        this.#log?.error({ display: s.id, err }, 'cycle failed');
      }
    })().finally(() => {
      s.running = null;
      if (s.skipped > 1) this.#log?.info({ display: s.id, skipped: s.skipped }, 'ticks were skipped while a cycle ran');
      s.skipped = 0;
      const missed = s.missed;
      s.missed = null;
      if (missed !== null && !this.#stopped && !this.#freshEnough(s, missed)) this.#run(s, missed);
    });
  }

  /** Whether the display's answer is fresher than half the interval that the missed tick begins. */
  #freshEnough(s: Slot, missed: number): boolean {
    const at = this.#lastAnswerAt(s.id);
    if (at === null) return false;
    const interval = (s.cron.nextAfter(missed) ?? missed + s.cron.minGapMs()) - missed;
    const age = this.#clock.now() - at;
    if (age < 0 || age >= interval / 2) return false;
    this.#log?.info({ display: s.id, scheduledFor: new Date(missed).toISOString(), ageS: Math.round(age / 1000) }, 'catch-up tick skipped: the answer is fresh');
    return true;
  }
}
