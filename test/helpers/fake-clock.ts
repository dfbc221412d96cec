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

/**
 * A clock for tests: the daemon's virtual clock (src/time/virtual-clock.ts). Time stands still until `advance` or
 * `runNext` moves it; `setSystemTime` steps the wall clock alone.
 */
export { VirtualClock as FakeClock } from '../../src/time/virtual-clock.js';
