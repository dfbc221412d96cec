import type { RateLimitInfo } from '../api/rate-limit.js';
import type { Clock } from '../time/clock.js';

/**
 * One rate limiter for every request on one API key (paid or GET /weather), all displays together.
 *
 * - Our own count: at most `limit - margin` requests in any sliding 60-second window of elapsed time.
 * - The service's view: after a response saying X-RateLimit-Remaining = r, at most r more requests until that
 *   response's window has passed (r = 0: none); a smaller X-RateLimit-Limit lowers our limit.
 * - A 429's Retry-After: no request at all before it has passed.
 * Elapsed (monotonic) time throughout, so a clock jump neither opens nor shuts the window.
 */

const RATE_WINDOW_MS = 60_000;

/**
 * The longest Retry-After we honour: the service limits requests per minute, so an hour is far beyond any wait it
 * needs, and a larger value (a broken header, a date from a clock years off) must not silence the wall for days.
 */
export const MAX_RETRY_AFTER_MS = 3_600_000;

export interface RateLimiterOptions {
  clock: Clock;
  limitPerMinute: number;
  /** Share of the limit kept free, for requests we cannot see (another client on the key). Default 10 %. */
  marginRatio?: number;
}

export interface RateWait {
  ms: number;
  why: 'none' | 'window' | 'header' | 'retry-after';
}

export class RateLimiter {
  readonly #clock: Clock;
  readonly #configured: number;
  readonly #marginRatio: number;
  #serviceLimit: number | null = null;
  /** Send times (monotonic), ascending. */
  #sent: number[] = [];
  /** The last X-RateLimit-Remaining: when it came, what it said, and how many requests we had sent by then. */
  #header: { at: number; remaining: number; sentBefore: number } | null = null;
  #sentTotal = 0;
  #blockedUntil = 0;
  #lastObserved = -Infinity;

  constructor(opts: RateLimiterOptions) {
    this.#clock = opts.clock;
    this.#configured = opts.limitPerMinute;
    this.#marginRatio = opts.marginRatio ?? 0.1;
  }

  /** Requests we allow ourselves in a window: the smaller limit, less the margin, at least 1. */
  get effectiveLimit(): number {
    const limit = Math.min(this.#configured, this.#serviceLimit ?? Infinity);
    return Math.max(1, limit - Math.ceil(limit * this.#marginRatio));
  }

  #now(): number {
    return this.#clock.monotonic();
  }

  #prune(now: number): void {
    let drop = 0;
    while (drop < this.#sent.length && (this.#sent[drop] ?? Infinity) <= now - RATE_WINDOW_MS) drop++;
    if (drop > 0) this.#sent.splice(0, drop);
  }

  /** How long until a request may go (0: now). */
  wait(): RateWait {
    const now = this.#now();
    this.#prune(now);
    if (this.#blockedUntil > now) return { ms: this.#blockedUntil - now, why: 'retry-after' };
    const h = this.#header;
    if (h !== null && now < h.at + RATE_WINDOW_MS) {
      if (this.#sentTotal - h.sentBefore >= h.remaining) return { ms: h.at + RATE_WINDOW_MS - now, why: 'header' };
    }
    const limit = this.effectiveLimit;
    if (this.#sent.length >= limit) {
      const oldest = this.#sent[this.#sent.length - limit] ?? now;
      return { ms: Math.max(1, oldest + RATE_WINDOW_MS - now), why: 'window' };
    }
    return { ms: 0, why: 'none' };
  }

  /** Counts a request as sent now, and returns that time (for untake). Call only when wait() says 0, in the same synchronous step. */
  take(): number {
    const at = this.#now();
    this.#sent.push(at);
    this.#sentTotal++;
    return at;
  }

  /** Takes back a take() at `at` whose request was not sent after all (its write-ahead record failed). */
  untake(at: number): void {
    const i = this.#sent.lastIndexOf(at);
    if (i < 0) return;
    this.#sent.splice(i, 1);
    this.#sentTotal--;
  }

  /** Counts requests sent before this process started, `agesMs` ago (from the ledger), so a restart keeps the window. */
  prime(agesMs: readonly number[]): void {
    const now = this.#now();
    const times = agesMs.filter((a) => a >= 0 && a < RATE_WINDOW_MS).map((a) => now - a);
    this.#sent = [...times, ...this.#sent].sort((a, b) => a - b);
  }

  /** Reads the rate-limit headers of a response (each response once). */
  observe(info: RateLimitInfo | null): void {
    if (info === null || info.observedAt <= this.#lastObserved) return;
    this.#lastObserved = info.observedAt;
    if (info.limit !== null && info.limit > 0) this.#serviceLimit = info.limit;
    if (info.remaining !== null)
      this.#header = { at: this.#now(), remaining: info.remaining, sentBefore: this.#sentTotal };
  }

  /**
   * A 429: no request before `ms` from now. Its Retry-After says when the service takes requests again, so it
   * replaces the "0 remaining" the same response carried (which would otherwise hold for a whole window).
   */
  blockFor(ms: number): void {
    this.#blockedUntil = Math.max(this.#blockedUntil, this.#now() + Math.max(0, ms));
    this.#header = null;
  }

  /** Remaining block (ms) of the last Retry-After. */
  get blockedMs(): number {
    return Math.max(0, this.#blockedUntil - this.#now());
  }

  /** Requests counted in the current window. */
  get inWindow(): number {
    this.#prune(this.#now());
    return this.#sent.length;
  }

  /** What the service last said was left, or null. */
  get serviceRemaining(): number | null {
    return this.#header?.remaining ?? null;
  }
}
