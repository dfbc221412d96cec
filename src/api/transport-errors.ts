import { ConnectError, NetworkError, TimeoutError, type ApiError } from './errors.js';

/**
 * Error codes that come before a single byte of the request left: the connection or its TLS handshake failed.
 * undici reports a connect timeout as UND_ERR_CONNECT_TIMEOUT (its headers and body timeouts, after sending, are
 * UND_ERR_HEADERS_TIMEOUT and UND_ERR_BODY_TIMEOUT); Node's resolver and sockets give the rest.
 */
const NOT_SENT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function neverSent(code: string): boolean {
  return NOT_SENT_CODES.has(code) || /^ERR_SSL_|^ERR_TLS_|^CERT_/.test(code);
}

/** Node's words for a socket closed during the TLS handshake: before it completes, no request byte is written. */
function tlsNeverEstablished(err: unknown): boolean {
  return err instanceof Error && /before secure TLS connection was established/.test(err.message);
}

/** The error's code, or its cause's, or the first of an AggregateError's (happy eyeballs: one error per address). */
function errorCode(err: unknown): string {
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e?.code === 'string' && e.code !== '') return e.code;
  if (Array.isArray(e?.errors) && e.errors.length > 0) return errorCode(e.errors[0]);
  if (e?.cause !== undefined && e.cause !== err) return errorCode(e.cause);
  return '';
}

/**
 * A failed request that got no HTTP answer, as an ApiError that says whether it can have reached the service:
 * E_CONNECT when it provably never did (nothing can have been billed, so a paid request may go again at once),
 * E_TIMEOUT or E_NETWORK when it was, or may have been, sent (the service may have billed it).
 */
export function transportError(
  err: unknown,
  at: { where: string; host: string; timedOut: boolean; timeoutMs: number },
): ApiError {
  const code = errorCode(err);
  if (neverSent(code) || tlsNeverEstablished(err)) {
    return new ConnectError(`${at.where}: cannot connect to ${at.host} (${code || 'TLS handshake'}); not sent`, {
      cause: err,
    });
  }
  if (at.timedOut || /TIMEOUT/.test(code)) {
    return new TimeoutError(`${at.where}: no answer within ${at.timeoutMs} ms (${code || 'timeout'})`, { cause: err });
  }
  const detail = code || (err instanceof Error ? err.message : String(err));
  return new NetworkError(`${at.where}: connection to ${at.host} failed (${detail})`, { cause: err });
}
