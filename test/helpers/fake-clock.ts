import { systemClock, type Clock } from '../../src/time/clock.js';

/**
 * The system's timers and elapsed time with a wall clock the test sets through `now`: for parts that only date
 * things (`clockAt(() => t)`), where a FakeClock's frozen timers would be in the way.
 */
export function clockAt(now: () => number): Clock {
  return { ...systemClock, now };
}

/**
 * A clock whose sleeps pass at once: a timer moves the time by its delay and runs on the next turn of the event loop
 * (the firmware simulator's runs, which sleep for hours between wakes).
 */
export function fastClock(start = Date.parse('2026-01-31T07:00:00.000Z')): Clock & { t: number } {
  const c = {
    t: start,
    now: (): number => c.t,
    monotonic: (): number => c.t,
    setTimeout: (fn: () => void, ms: number) => {
      c.t += ms;
      return setImmediate(fn);
    },
    clearTimeout: (h: unknown) => clearImmediate(h as NodeJS.Immediate),
  };
  return c;
}

interface Timer {
  id: number;
  /** Monotonic time it is due at. */
  due: number;
  fn: () => void;
}

/**
 * A clock for tests. Time stands still until `advance` moves it; due timers run in order of due time (then of
 * creation), each with `now()` set to its due time. `setSystemTime` jumps the wall clock without moving elapsed
 * time, as NTP or an operator would: timers stay due after the same elapsed time.
 */
export class FakeClock implements Clock {
  #wall: number;
  #mono = 0;
  #nextId = 1;
  #timers: Timer[] = [];

  constructor(start: number | Date = Date.UTC(2026, 0, 1)) {
    this.#wall = typeof start === 'number' ? start : start.getTime();
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
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }

  /** Jumps the wall clock (a clock step); elapsed time and pending timers are unchanged. */
  setSystemTime(t: number | Date): void {
    this.#wall = typeof t === 'number' ? t : t.getTime();
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
