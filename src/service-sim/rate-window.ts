/**
 * A sliding-window rate limiter: at most `limit` requests per bucket in any window of `windowMs`.
 *
 * A request counted at time t holds its slot until t + windowMs (exclusive): at that instant the slot is free again.
 * Requests refused with 429 are NOT counted (a client that keeps retrying while limited does not push its own
 * recovery further out), which is how most real services behave.
 */

import type { Clock } from '../time/clock.js';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Slots left in the window after this request (0 when refused). */
  remaining: number;
  /** Whole seconds (ceil, at least 1) until a slot frees; only when refused. */
  retryAfterS?: number;
}

export interface RateWindowOptions {
  /** Requests per bucket in any window. */
  limit: number;
  /** The service's wall time: a request holds its slot for windowMs of it. */
  clock: Clock;
  /** Default 60 s. */
  windowMs?: number;
}

export class RateWindow {
  readonly limit: number;
  private readonly hits = new Map<string, number[]>();
  private readonly clock: Clock;
  private readonly windowMs: number;

  constructor(opts: RateWindowOptions) {
    const { limit } = opts;
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`rate limit must be an integer >= 1, got ${limit}`);
    this.limit = limit;
    this.clock = opts.clock;
    this.windowMs = opts.windowMs ?? 60_000;
  }

  /** Counts a request in `bucket` when a slot is free; refuses it (without counting) otherwise. */
  take(bucket: string): RateDecision {
    const t = this.clock.now();
    const times = this.prune(bucket, t);
    if (times.length >= this.limit) {
      const oldest = times[0] ?? t;
      const waitMs = oldest + this.windowMs - t;
      return { allowed: false, limit: this.limit, remaining: 0, retryAfterS: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    times.push(t);
    this.hits.set(bucket, times);
    return { allowed: true, limit: this.limit, remaining: this.limit - times.length };
  }

  /** Slots left in `bucket` right now, counting nothing (for preflights). */
  peek(bucket: string): number {
    return Math.max(0, this.limit - this.prune(bucket, this.clock.now()).length);
  }

  private prune(bucket: string, t: number): number[] {
    const times = this.hits.get(bucket);
    if (!times) return [];
    const cutoff = t - this.windowMs;
    let drop = 0;
    while (drop < times.length && (times[drop] ?? Infinity) <= cutoff) drop++;
    if (drop > 0) times.splice(0, drop);
    if (times.length === 0) this.hits.delete(bucket);
    return times;
  }
}
