/**
 * The one source of time for every time-dependent part of the budget (ledger periods, rate limiter, backoff,
 * scheduler). Production passes `systemClock`; tests pass a FakeClock (test/helpers/fake-clock.ts) and run a month
 * in a second.
 */
export interface Clock {
  /** Wall-clock time, ms since epoch. It can be wrong (no RTC at boot) and it can jump. */
  now(): number;
  /** Runs `fn` after `ms` of elapsed time (not wall-clock time: a clock jump does not move it). */
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /**
   * Elapsed time, ms, from an arbitrary origin; never jumps and never goes back. Used to tell a clock jump from
   * time passing. Optional: without it, `now()` stands in (and jumps go unnoticed).
   */
  monotonic?(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, Math.max(0, ms)),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  monotonic: () => performance.now(),
};

/** Elapsed time from a clock, falling back to its wall clock. */
export function monotonicOf(clock: Clock): number {
  return clock.monotonic ? clock.monotonic() : clock.now();
}

/** A sleep on the given clock that an AbortSignal cuts short (rejecting with the signal's reason). */
export function sleepOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
