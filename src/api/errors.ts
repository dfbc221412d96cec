/**
 * One error class per way a call to the service can fail, each with a stable `code`.
 * Messages name what went wrong and where; they never contain the API key.
 * Every code is documented in docs/reference/service.md ("Errors") and docs/reference/errors.md; tests check that.
 */

import type { CodeIn } from '../shared/codes.js';

/** Every code of a failed call: the registry's `api` set. */
export type ApiErrorCode = CodeIn<'api'>;

export abstract class ApiError extends Error {
  abstract readonly code: ApiErrorCode;
  /** Whether the same request may succeed later without a change on our side. */
  abstract readonly retryable: boolean;
  /** HTTP status, when the service answered. */
  readonly status: number | null;
  /** The service's `error` text, as it wrote it, when it sent one. */
  readonly serviceMessage: string | null;

  constructor(message: string, opts: { status?: number | null; serviceMessage?: string | null; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.status = opts.status ?? null;
    this.serviceMessage = opts.serviceMessage ?? null;
  }
}

/** The request broke the spec's rules and was not sent: no request, no credit spent. */
export class InvalidRequestError extends ApiError {
  readonly code = 'E_INVALID_REQUEST';
  readonly retryable = false;
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(`invalid request: ${field} ${reason} (not sent)`);
  }
}

/** 401, or a 403 that is not about credits: the key was not accepted. */
export class KeyRejectedError extends ApiError {
  readonly code = 'E_KEY_REJECTED';
  readonly retryable = false;
}

/** 402, or a 403 that names credits: the account cannot pay for the call. */
export class CreditsExhaustedError extends ApiError {
  readonly code = 'E_CREDITS_EXHAUSTED';
  readonly retryable = false;
}

/** 429: no request before `retryAfterMs` has passed. */
export class RateLimitedError extends ApiError {
  readonly code = 'E_RATE_LIMITED';
  readonly retryable = true;
  constructor(
    message: string,
    readonly retryAfterMs: number,
    opts: { status?: number | null; serviceMessage?: string | null } = {},
  ) {
    super(message, opts);
  }
}

/** 5xx: the service (or a proxy in front of it) failed. */
export class ServiceError extends ApiError {
  readonly code = 'E_SERVICE';
  readonly retryable = true;
}

/** Any other non-2xx status (400, 404, 415, ...). */
export class HttpStatusError extends ApiError {
  readonly code = 'E_HTTP';
  readonly retryable = false;
}

/** The request was sent (or may have been) and no complete answer came within the response timeout. */
export class TimeoutError extends ApiError {
  readonly code = 'E_TIMEOUT';
  readonly retryable = true;
}

/**
 * The request provably never reached the service: connection refused, DNS failure, connect timeout, TLS handshake
 * failure, no route. Nothing can have been billed, so a paid request may be sent again at once.
 */
export class ConnectError extends ApiError {
  readonly code = 'E_CONNECT';
  readonly retryable = true;
}

/** The connection broke after the request may have been written (reset, closed mid-answer). */
export class NetworkError extends ApiError {
  readonly code = 'E_NETWORK';
  readonly retryable = true;
}

/** A 2xx whose body is not the resource the spec describes: malformed JSON, a missing or mistyped field. */
export class BadResponseError extends ApiError {
  readonly code = 'E_BAD_RESPONSE';
  readonly retryable = true;
  constructor(
    message: string,
    /** The offending field's path (`weather.temp`), or null when the body is not JSON at all. */
    readonly field: string | null,
    opts: { status?: number | null; cause?: unknown } = {},
  ) {
    super(message, opts);
  }
}

/** The caller aborted (shutdown): not a failure of the service. */
export class AbortedError extends ApiError {
  readonly code = 'E_ABORTED';
  readonly retryable = false;
}
