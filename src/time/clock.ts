/**
 * The one source of time for every time-dependent part: the budget (ledger periods, rate limiter, backoff,
 * scheduler), the API client, the cycle, the publishers and the firmware simulator. Production passes
 * `systemClock`; tests pass a FakeClock (test/helpers/fake-clock.ts) and run a month in a second.
 */
export interface Clock {
  /** Wall-clock time, ms since epoch. It can be wrong (no RTC at boot) and it can jump. */
  now(): number;
  /**
   * Elapsed time, ms, from an arbitrary origin; never jumps and never goes back. Used to tell a clock jump from
   * time passing, and for every "how long since" that a jump must not move.
   */
  monotonic(): number;
  /** Runs `fn` after `ms` of elapsed time (not wall-clock time: a clock jump does not move it). */
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, Math.max(0, ms)),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Waits `ms` of elapsed time on `clock`. An AbortSignal cuts it short: the promise rejects with the signal's reason
 * (an Error), so a caller that stops on abort need not test the signal again.
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const reason = (): Error => (signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal?.aborted) {
      reject(reason());
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(reason());
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
