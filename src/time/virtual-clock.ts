import type { Clock } from './clock.js';

interface Timer {
  id: number;
  /** Monotonic time it is due at. */
  due: number;
  fn: () => void;
}

/**
 * A clock whose time stands still until its owner moves it: due timers run in order of due time (then of creation),
 * each with `now()` set to its due time. It lets a whole day of the daemon and a simulated device run in seconds
 * (`simulate --day`, which moves it to the next timer once both sides are idle) and the tests run a month in one.
 * `setSystemTime` jumps the wall clock without moving elapsed time, as NTP or an operator would: timers stay due after
 * the same elapsed time.
 */
export class VirtualClock implements Clock {
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
    if (ms < 0) throw new RangeError('VirtualClock.advance: ms must be >= 0');
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
