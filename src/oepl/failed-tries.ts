import type { Clock } from '../time/clock.js';

/**
 * A tag's failed pushes since it was last fed (busy, out of reach, no answer in time): past UNFED_TRIES of them, or
 * UNFED_AFTER_MS after the first, the tag is not fed and says so (the display's problem), also when no try is made
 * in between (a picture that got no answer is not sent again). Time is the clock's, so a test moves it.
 */

/** A tag whose pushes have failed this long, or this many times, without one accepted is the display's problem. */
export const UNFED_AFTER_MS = 2 * 60_000;
export const UNFED_TRIES = 3;

/** What the owner is told: how many tries failed since when, and what the last one met. */
export interface Unfed {
  tries: number;
  /** Clock ms of the first failed try. */
  since: number;
  last: string;
  /** True the first time the tag becomes unfed since it was last fed (so that it is logged once). */
  first: boolean;
}

export interface FailedTriesOptions {
  clock: Clock;
  /** Called when the tag becomes unfed, and again at each failed try while it is. */
  onUnfed: (u: Unfed) => void;
}

export class FailedTries {
  readonly #o: FailedTriesOptions;
  #count = 0;
  #since: number | null = null;
  #last = '';
  #timer: unknown = null;
  #unfed = false;

  constructor(opts: FailedTriesOptions) {
    this.#o = opts;
  }

  /** Failed tries since the tag was last fed: the backoff's count (src/time/backoff-delay.ts). */
  get count(): number {
    return this.#count;
  }

  /** One more failed try, with what it met. */
  failed(detail: string): void {
    const now = this.#o.clock.now();
    this.#count += 1;
    this.#last = detail;
    this.#since ??= now;
    if (this.#unfed || this.#count >= UNFED_TRIES || now - this.#since >= UNFED_AFTER_MS) return this.#tell();
    this.#timer ??= this.#o.clock.setTimeout(
      () => {
        this.#timer = null;
        this.#tell();
      },
      this.#since + UNFED_AFTER_MS - now,
    );
  }

  /** A push was answered (taken, or refused for a reason of its own): the count starts again. */
  reset(): void {
    this.stop();
    this.#count = 0;
    this.#since = null;
    this.#unfed = false;
  }

  /** Stops the timer (the publisher stops). */
  stop(): void {
    if (this.#timer !== null) this.#o.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #tell(): void {
    if (this.#since === null) return;
    this.stop();
    this.#o.onUnfed({ tries: this.#count, since: this.#since, last: this.#last, first: !this.#unfed });
    this.#unfed = true;
  }
}
