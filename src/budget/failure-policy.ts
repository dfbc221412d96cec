import {
  AbortedError,
  CreditsExhaustedError,
  KeyRejectedError,
  RateLimitedError,
  type ApiError,
} from '../api/errors.js';

/**
 * What the governor does after a failed request, and whether the credits charged for it (write-ahead) are given
 * back. The refund policy: credits come back only when the service certainly did not charge, because it answered
 * with a refusal (429, 401/403, 402, other 4xx) or the request was never sent (invalid, aborted before sending).
 * A 5xx, a timeout, a dropped connection, a malformed answer or an abort mid-request may have been charged:
 * those stay spent. When in doubt a credit counts as spent, never the reverse.
 */
export type FailureAction =
  /** 429: refund; no request before Retry-After; retry within the cycle when it is short enough. */
  | { kind: 'rate-limited'; retryAfterMs: number }
  /** 401, or 403 not about credits: refund; no request again until the daemon restarts with a new key. */
  | { kind: 'key-rejected' }
  /** 402, or 403 about credits: refund; no paid request until the next budget period. */
  | { kind: 'credits' }
  /** Another 4xx, or refused before sending: refund; not retried (the same request would fail again). */
  | { kind: 'refused' }
  /** Aborted mid-request (shutdown, power cut): stays charged; not retried. */
  | { kind: 'aborted' }
  /** 5xx, timeout, network, malformed answer: stays charged; retried with backoff, each retry charged too. */
  | { kind: 'retry' };

export function failureAction(error: ApiError): FailureAction {
  if (error instanceof RateLimitedError) return { kind: 'rate-limited', retryAfterMs: error.retryAfterMs };
  if (error instanceof KeyRejectedError) return { kind: 'key-rejected' };
  if (error instanceof CreditsExhaustedError) return { kind: 'credits' };
  if (error instanceof AbortedError) return { kind: 'aborted' };
  return error.retryable ? { kind: 'retry' } : { kind: 'refused' };
}

export function refunds(action: FailureAction): boolean {
  return action.kind !== 'retry' && action.kind !== 'aborted';
}
