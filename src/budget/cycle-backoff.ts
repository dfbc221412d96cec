import { backoffDelay, type BackoffPolicy } from '../time/backoff-delay.js';
import type { Clock } from '../time/clock.js';

/**
 * The backoff between cycles that failed for good, kept across restarts by the ledger: the delays are
 * src/time/backoff-delay.ts's, with jitter, so that displays that failed together do not retry together.
 */

/** After a cycle failed for good, before the next cycle may send: 1 min, 2 min, 4 min ... at most 30 min. */
export const CYCLE_BACKOFF: BackoffPolicy = { baseMs: 60_000, maxMs: 30 * 60_000 };

export interface CycleBackoffOptions {
  /** Monotonic time: a clock step neither shortens nor stretches a backoff. */
  clock: Clock;
  /** Source of the jitter (tests pass a fixed one). */
  random: () => number;
}

/** The backoff after cycles that failed for good: no paid request before it ends; an answer resets the count. */
export class CycleBackoff {
  readonly #clock: Clock;
  readonly #random: () => number;
  #failures = 0;
  #untilMono = 0;

  constructor(opts: CycleBackoffOptions) {
    this.#clock = opts.clock;
    this.#random = opts.random;
  }

  /** Cycles failed in a row. */
  get failures(): number {
    return this.#failures;
  }

  failed(): void {
    this.#failures++;
    this.#untilMono = this.#clock.monotonic() + backoffDelay(this.#failures, CYCLE_BACKOFF, this.#random);
  }

  answered(): void {
    this.#failures = 0;
  }

  /**
   * Resumes a backoff kept across a restart: `failures` in a row, `msLeft` still to wait (at most the longest step,
   * so a clock set back since cannot stretch it).
   */
  restore(failures: number, msLeft: number): void {
    this.#failures = failures;
    this.#untilMono = this.#clock.monotonic() + Math.min(CYCLE_BACKOFF.maxMs, Math.max(0, msLeft));
  }

  /** A failure as if it came at wall time `at` (a request a crash cut off): the wait counts from then. */
  failedAt(at: number): void {
    this.#failures++;
    const left = at + backoffDelay(this.#failures, CYCLE_BACKOFF, this.#random) - this.#clock.now();
    this.#untilMono = Math.max(
      this.#untilMono,
      this.#clock.monotonic() + Math.min(CYCLE_BACKOFF.maxMs, Math.max(0, left)),
    );
  }

  /** When the backoff ends, as wall time (0: none has run): what the ledger keeps. */
  untilWall(): number {
    const left = this.msLeft();
    return left > 0 ? this.#clock.now() + left : 0;
  }

  /** Time left before a paid request may be sent (0 or less: none). */
  msLeft(): number {
    return this.#untilMono - this.#clock.monotonic();
  }
}
