import { CREDITS_RETRY_MS } from './budget-status.js';
import type { Clock } from '../time/clock.js';
import type { FetchReason } from './governor-types.js';

/**
 * When an empty account (the service said 402) is asked again: at most hourly, in monotonic time so a clock step
 * neither shortens nor stretches the hour; a refresh press asks at once, and so does the first paid request after a
 * start or a reload (SIGHUP).
 */
export class CreditsWatch {
  readonly #clock: Clock;
  /** No paid request sent since the start: the next one probes the account whatever the hour says. */
  #probe = true;
  /** When the service last said the account is empty (monotonic). */
  #refusedMono = -Infinity;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** A paid request is being sent: the start's probe is used up. Returns whether this one was the probe. */
  sending(): boolean {
    const probe = this.#probe;
    this.#probe = false;
    return probe;
  }

  /** The request sending() announced was not sent after all: a probe it used is owed again. */
  notSent(wasProbe: boolean): void {
    if (wasProbe) this.#probe = true;
  }

  /** The service said the account is empty, now. */
  refused(): void {
    this.#refusedMono = this.#clock.monotonic();
  }

  /** Whether a request for `reason` waits, given whether the ledger says the account is empty. */
  holds(accountEmpty: boolean, reason: FetchReason): boolean {
    return accountEmpty && reason !== 'refresh' && !this.#probe && this.#msToProbe() > 0;
  }

  /** The wall-clock time the account is asked again. */
  nextProbeAt(): number {
    return this.#clock.now() + this.#msToProbe();
  }

  #msToProbe(): number {
    return Math.max(0, CREDITS_RETRY_MS - (this.#clock.monotonic() - this.#refusedMono));
  }
}
