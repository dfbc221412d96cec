/** What the service last told us about its rate limit: it sends the X-RateLimit headers on every response. */
export interface RateLimitInfo {
  /** X-RateLimit-Limit, or null when absent or not a number. */
  limit: number | null;
  /** X-RateLimit-Remaining, or null when absent or not a number. */
  remaining: number | null;
  /** When the response carrying these headers arrived (ms since epoch, from the injected clock). */
  observedAt: number;
}

/** The spec's wait when a 429 carries no Retry-After. */
export const DEFAULT_RETRY_AFTER_MS = 60_000;

type HeaderValue = string | string[] | undefined;

function first(v: HeaderValue): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function nonNegativeInt(v: HeaderValue): number | null {
  const s = first(v)?.trim();
  if (s === undefined || !/^\d+$/.test(s)) return null;
  return Number(s);
}

export function readRateLimit(headers: Record<string, HeaderValue>, now: number): RateLimitInfo {
  return {
    limit: nonNegativeInt(headers['x-ratelimit-limit']),
    remaining: nonNegativeInt(headers['x-ratelimit-remaining']),
    observedAt: now,
  };
}

/**
 * Retry-After as milliseconds to wait (RFC 9110 §10.2.3): delay-seconds or an HTTP date.
 * Missing or unreadable → the spec's 60 s. A date in the past → 0.
 */
export function parseRetryAfter(value: HeaderValue, now: number): number {
  const s = first(value)?.trim();
  if (s === undefined || s === '') return DEFAULT_RETRY_AFTER_MS;
  if (/^\d+$/.test(s)) return Number(s) * 1000;
  // Only an HTTP date names a weekday or month; this keeps "1.5" or "-3" from being read as a date.
  if (/[a-z]{3}/i.test(s)) {
    const at = Date.parse(s);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  return DEFAULT_RETRY_AFTER_MS;
}
