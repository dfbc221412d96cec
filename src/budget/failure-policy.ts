import {
  AbortedError,
  BadResponseError,
  ConnectError,
  CreditsExhaustedError,
  InvalidRequestError,
  KeyRejectedError,
  RateLimitedError,
  type ApiError,
} from '../api/errors.js';
import type { ChargeResult } from './ledger.js';
import { MAX_RETRY_AFTER_MS } from './rate-limiter.js';

/**
 * What the governor does after a failed paid request, and how the ledger records its credits (write-ahead, counted
 * before sending). The service may bill any request that produced a 2xx, even one whose body then broke or whose
 * answer we stopped waiting for. So:
 * - a request that provably never reached the service (not sent, connection refused, DNS, connect timeout, TLS)
 *   is given back and may be sent again within the cycle;
 * - a request the service refused (429, 401/403, 402, other 4xx) is given back; only a 429 is retried in the cycle;
 * - a request that was sent and gave no usable answer (5xx, response timeout, reset, broken 2xx body, abort
 *   mid-request) stays counted and is never sent again in the same cycle: the next try waits for the failure
 *   backoff, so a cycle never buys more than one answer.
 */
export type FailureAction =
  /** 429: refused; no request before Retry-After (1 s to an hour); retried within the cycle when short enough. */
  | { kind: 'rate-limited'; retryAfterMs: number }
  /** 401, or 403 not about credits: refused; no request again until the daemon restarts with a new key. */
  | { kind: 'key-rejected' }
  /** 402, or 403 about credits: refused; the account is empty, asked again at a gentle pace. */
  | { kind: 'credits' }
  /** Another 4xx, or invalid and never sent: refused; not retried (the same request would fail again). */
  | { kind: 'refused' }
  /** Never reached the service: given back; retried within the cycle with a short backoff. */
  | { kind: 'not-sent' }
  /** Aborted mid-request (shutdown, power cut): counted as unknown; not retried. */
  | { kind: 'aborted' }
  /** Sent, no usable answer: counted (`result` says as what); not retried in this cycle; a cycle backoff follows. */
  | { kind: 'sent-failed'; result: ChargeResult };

/** The shortest wait a Retry-After may ask for: 0, a negative number or a date in the past still waits this long. */
const MIN_RETRY_AFTER_MS = 1_000;

export function failureAction(error: ApiError): FailureAction {
  if (error instanceof RateLimitedError)
    return {
      kind: 'rate-limited',
      retryAfterMs: Math.min(MAX_RETRY_AFTER_MS, Math.max(MIN_RETRY_AFTER_MS, error.retryAfterMs)),
    };
  if (error instanceof KeyRejectedError) return { kind: 'key-rejected' };
  if (error instanceof CreditsExhaustedError) return { kind: 'credits' };
  if (error instanceof AbortedError) return { kind: 'aborted' };
  if (error instanceof ConnectError || error instanceof InvalidRequestError) {
    return error instanceof ConnectError ? { kind: 'not-sent' } : { kind: 'refused' };
  }
  // A 2xx arrived: billed, whatever its body says.
  if (error instanceof BadResponseError && error.status !== null && error.status >= 200 && error.status <= 299) {
    return { kind: 'sent-failed', result: 'charged' };
  }
  if (error.retryable) return { kind: 'sent-failed', result: 'unknown' };
  return { kind: 'refused' };
}

/** How the ledger records the request's credits. */
export function chargeResult(action: FailureAction): ChargeResult {
  switch (action.kind) {
    case 'sent-failed':
      return action.result;
    case 'aborted':
      return 'unknown';
    case 'not-sent':
      return 'not-sent';
    default:
      return 'refused';
  }
}
