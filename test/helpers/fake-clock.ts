import { systemClock, type Clock } from '../../src/time/clock.js';
import { VirtualClock } from '../../src/time/virtual-clock.js';

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

export interface FakeClockOptions {
  /**
   * Sleeps pass at once: each timer runs on the next turn of the event loop, time moved to its due (the firmware
   * simulator's runs, which sleep for hours between wakes). Default false: time stands still until the test moves it.
   */
  sleepsPass?: boolean;
}

/**
 * The tests' clock: the daemon's virtual clock (src/time/virtual-clock.ts), whose time stands still until `advance`
 * or `runNext` moves it (`setSystemTime` steps the wall clock alone), with what tests need besides: `stall` moves time
 * and runs no timer, as a blocked event loop does (the next advance runs those that fell due, each at its due time);
 * `view` counts the timers set through it; `sleepsPass` lets every timer run at once.
 */
export class FakeClock extends VirtualClock {
  readonly #sleepsPass: boolean;
  /** Time moved by stall() that the virtual clock, and so no timer, has seen yet. */
  #stalled = 0;
  /** Timers set and not yet run or cleared. */
  readonly #live = new Set<unknown>();

  constructor(start: number | Date = Date.UTC(2026, 0, 1), opts: FakeClockOptions = {}) {
    super(start);
    this.#sleepsPass = opts.sleepsPass ?? false;
  }

  override now(): number {
    return super.now() + this.#stalled;
  }

  override monotonic(): number {
    return super.monotonic() + this.#stalled;
  }

  override setTimeout(fn: () => void, ms: number): unknown {
    const due = this.monotonic() + Math.max(0, ms);
    const handle: unknown = super.setTimeout(
      () => {
        this.#live.delete(handle);
        fn();
      },
      Math.max(0, ms) + this.#stalled,
    );
    this.#live.add(handle);
    if (this.#sleepsPass)
      setImmediate(() => {
        if (this.#live.has(handle)) this.advance(Math.max(0, due - this.monotonic()));
      });
    return handle;
  }

  override clearTimeout(handle: unknown): void {
    this.#live.delete(handle);
    super.clearTimeout(handle);
  }

  override setSystemTime(t: number | Date): void {
    super.setSystemTime((typeof t === 'number' ? t : t.getTime()) - this.#stalled);
  }

  override msToNextTimer(): number | null {
    const ms = super.msToNextTimer();
    return ms === null ? null : ms - this.#stalled;
  }

  override advance(ms: number): void {
    if (ms < 0) throw new RangeError('FakeClock.advance: ms must be >= 0');
    const stalled = this.#stalled;
    this.#stalled = 0;
    super.advance(stalled + ms);
  }

  override runNext(): boolean {
    const at = this.monotonic();
    const ran = super.runNext();
    // Time moved by a stall and not yet run through stays ahead of the timer just run.
    this.#stalled = Math.max(0, at - super.monotonic());
    return ran;
  }

  /** Moves time forward by `ms` and runs no timer, as when the event loop is blocked: those due stay due. */
  stall(ms: number): void {
    this.#stalled += ms;
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
}
