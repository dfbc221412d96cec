import { systemClock, type Clock } from '../../src/time/clock.js';

/**
 * The tests' clocks, all here: FakeClock, whose time (and timers) move only when the test says, or pass at once
 * (`sleepsPass`); and for parts that need the system's timers (sockets, servers), a wall clock the test sets over
 * them (clockAt, manualClock).
 */

/**
 * The system's timers and elapsed time with a wall clock the test sets through `now`: for parts that only date
 * things (`clockAt(() => t)`), where a FakeClock's frozen timers would be in the way.
 */
export function clockAt(now: () => number): Clock {
  return { ...systemClock, now };
}

/**
 * The system's timers and elapsed time with a wall clock the test sets (`set`) or moves (`advance`): for servers and
 * publishers that date what they show but need real timers (sockets, keep-alive).
 */
export function manualClock(
  start = Date.parse('2026-01-31T07:00:00.000Z'),
): Clock & { advance: (ms: number) => void; set: (t: number) => void } {
  let t = start;
  return { ...clockAt(() => t), advance: (ms) => (t += ms), set: (v) => (t = v) };
}

interface Timer {
  id: number;
  /** Monotonic time it is due at. */
  due: number;
  fn: () => void;
}

export interface FakeClockOptions {
  /**
   * Sleeps pass at once: each timer runs on the next turn of the event loop, time moved to its due (the firmware
   * simulator's runs, which sleep for hours between wakes). Default false: time stands still until the test moves it.
   */
  sleepsPass?: boolean;
}

/**
 * The tests' clock. Time stands still until `advance` moves it; due timers run in order of due time (then of
 * creation), each with `now()` set to its due time. `setSystemTime` jumps the wall clock without moving elapsed
 * time, as NTP or an operator would: timers stay due after the same elapsed time. `stall` moves time with no timer
 * run, as a blocked event loop does.
 */
export class FakeClock implements Clock {
  #wall: number;
  #mono = 0;
  #nextId = 1;
  #timers: Timer[] = [];
  readonly #sleepsPass: boolean;

  constructor(start: number | Date = Date.UTC(2026, 0, 1), opts: FakeClockOptions = {}) {
    this.#wall = typeof start === 'number' ? start : start.getTime();
    this.#sleepsPass = opts.sleepsPass ?? false;
  }

  now(): number {
    return this.#wall;
  }

  monotonic(): number {
    return this.#mono;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer: Timer = { id: this.#nextId++, due: this.#mono + Math.max(0, ms), fn };
    this.#timers.push(timer);
    if (this.#sleepsPass)
      setImmediate(() => {
        if (this.#timers.includes(timer)) this.advance(timer.due - this.#mono);
      });
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }

  /** Jumps the wall clock (a clock step); elapsed time and pending timers are unchanged. */
  setSystemTime(t: number | Date): void {
    this.#wall = typeof t === 'number' ? t : t.getTime();
  }

  /** Moves time forward by `ms` and runs no timer, as when the event loop is blocked: those due stay due. */
  stall(ms: number): void {
    this.#step(ms);
  }

  /**
   * A view of this clock that counts the timers set through it and not yet run or cleared (what one part of the
   * code under test waits on, among the timers of others).
   */
  view(): Clock & { pending: () => number } {
    const live = new Set<unknown>();
    return {
      now: () => this.now(),
      monotonic: () => this.monotonic(),
      setTimeout: (fn, ms) => {
        const h: unknown = this.setTimeout(() => {
          live.delete(h);
          fn();
        }, ms);
        live.add(h);
        return h;
      },
      clearTimeout: (h) => {
        live.delete(h);
        this.clearTimeout(h);
      },
      pending: () => live.size,
    };
  }

  /** Number of timers not yet run. */
  pendingTimers(): number {
    return this.#timers.length;
  }

  /** Elapsed time until the next timer is due, or null when none is pending. */
  msToNextTimer(): number | null {
    const next = this.#earliest();
    return next === undefined ? null : next.due - this.#mono;
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way (also ones they set). */
  advance(ms: number): void {
    if (ms < 0) throw new RangeError('FakeClock.advance: ms must be >= 0');
    const end = this.#mono + ms;
    for (;;) {
      const next = this.#earliest();
      if (next === undefined || next.due > end) break;
      this.#runTimer(next);
    }
    this.#step(end - this.#mono);
  }

  /** Moves time to the next pending timer and runs every timer due then; false when none is pending. */
  runNext(): boolean {
    const next = this.#earliest();
    if (next === undefined) return false;
    const due = next.due;
    for (;;) {
      const t = this.#earliest();
      if (t === undefined || t.due > due) break;
      this.#runTimer(t);
    }
    return true;
  }

  #runTimer(timer: Timer): void {
    this.#step(timer.due - this.#mono);
    this.#timers = this.#timers.filter((t) => t !== timer);
    timer.fn();
  }

  #step(ms: number): void {
    this.#mono += ms;
    this.#wall += ms;
  }

  #earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.#timers)
      if (best === undefined || t.due < best.due || (t.due === best.due && t.id < best.id)) best = t;
    return best;
  }
}
