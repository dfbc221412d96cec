import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { BillingMode, BillingOutcome } from './billing.js';
import { isBilled } from './billing.js';
import type { KeyStore } from './credits.js';
import { CREDIT_COSTS, keyFingerprint } from './credits.js';
import { ROUTES, successBody } from './endpoints.js';
import type { Fault, FaultQueue } from './faults.js';
import { largeFieldChunks } from './large-field.js';
import { alterBody, BODY_KINDS, HTML_ERROR_PAGE, retryAfterHeader, truncateJson } from './faults.js';
import { gone, PREFLIGHT_HEADERS, readBody, sendError, sendJson, sendStream, sendText } from './http-io.js';
import type { RateWindow } from './rate-window.js';
import type { Clock } from '../time/clock.js';
import type { SimRequestRecord } from './stats.js';
import type { PointRequest } from './validation.js';
import { isJsonContentType, parsePointBody, parsePointQuery, ValidationError } from './validation.js';

/**
 * The /v1 request pipeline, in this order:
 *  1. OPTIONS (any path): CORS preflight, 204; no key needed, not counted, not charged.
 *  2. Rate limit, per key (a valid key's fingerprint) or, without a valid key, per remote address.
 *     Over the limit: 429 with Retry-After, and the request is not counted.
 *  3. Routing: unknown path 404, wrong method 405 (both counted in the window).
 *  4. A queued fault for this endpoint: status / rate_limit / html_error / reset answer at once, before auth;
 *     slow waits then goes on; body faults wait for the success body.
 *  5. Auth 401, Content-Type 415, body and query validation 400, credits 402, then 200.
 * Which of these are billed depends on the billing mode (billing.ts); by default only a 200 without a fault.
 */

export interface ApiContext {
  keys: KeyStore;
  /** Read at each request: a control request may change it while the service runs. */
  billing: () => BillingMode;
  rate: RateWindow;
  faults: FaultQueue;
  /** The service's time: answers are dated by it. */
  clock: Clock;
  /** The 'slow' fault's delay. */
  sleep: (ms: number) => Promise<void>;
  isClosed: () => boolean;
}

type Auth = { ok: true; fingerprint: string } | { ok: false; fingerprint: string | null; message: string };

/** The key of an `Authorization: Bearer <key>` header, or undefined. */
function bearerKey(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(header?.trim() ?? '')?.[1];
}

function authenticate(keys: KeyStore, header: string | undefined): Auth {
  if (header === undefined || header.trim() === '') {
    return {
      ok: false,
      fingerprint: null,
      message: 'missing API key: send the header "Authorization: Bearer <API key>"',
    };
  }
  const key = bearerKey(header);
  if (key === undefined) {
    return { ok: false, fingerprint: null, message: 'malformed Authorization header: expected "Bearer <API key>"' };
  }
  const found = keys.lookup(key);
  if (found.ok) return { ok: true, fingerprint: found.fingerprint };
  if (found.reason === 'revoked') {
    return {
      ok: false,
      fingerprint: found.fingerprint,
      message: 'API key has been revoked: create a new key in the dashboard',
    };
  }
  const hint = key.startsWith('sk_live_') ? 'no such key' : 'keys begin with "sk_live_"';
  return { ok: false, fingerprint: keyFingerprint(key), message: `invalid API key: ${hint}` };
}

function statusMessage(status: number): string {
  const messages: Record<number, string> = {
    401: 'invalid API key',
    402: 'insufficient credits',
    403: 'forbidden: this key may not use this endpoint',
    404: 'not found',
    500: 'internal server error',
    502: 'bad gateway',
    503: 'service unavailable, try again later',
    504: 'gateway timeout',
  };
  return messages[status] ?? `error ${status}`;
}

export async function handleApi(
  ctx: ApiContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  rec: SimRequestRecord,
): Promise<void> {
  const method = req.method ?? 'GET';
  const auth = authenticate(ctx.keys, req.headers.authorization);
  rec.keyFingerprint = auth.fingerprint;
  const bucket = auth.ok ? `key:${auth.fingerprint}` : `addr:${req.socket.remoteAddress ?? 'unknown'}`;
  const limitHeader = { 'X-RateLimit-Limit': String(ctx.rate.limit) };

  const body = await readBody(req);

  if (method === 'OPTIONS') {
    rec.status = 204;
    sendText(res, 204, '', undefined, {
      ...PREFLIGHT_HEADERS,
      ...limitHeader,
      'X-RateLimit-Remaining': String(ctx.rate.peek(bucket)),
    });
    return;
  }

  const decision = ctx.rate.take(bucket);
  const headers: OutgoingHttpHeaders = { ...limitHeader, 'X-RateLimit-Remaining': String(decision.remaining) };
  const fail = (status: number, error: string, extra: OutgoingHttpHeaders = {}): void => {
    rec.status = status;
    sendError(res, status, error, { ...headers, ...extra });
  };

  if (!decision.allowed) {
    const wait = decision.retryAfterS ?? 1;
    fail(429, `rate limit exceeded: at most ${ctx.rate.limit} requests in any 60 seconds; retry in ${wait} s`, {
      'Retry-After': String(wait),
    });
    return;
  }

  const route = ROUTES[url.pathname];
  if (!route) {
    fail(404, `not found: ${url.pathname} is not an endpoint of this service (try POST /v1/recweather)`);
    return;
  }
  if (method !== route.method) {
    fail(405, `method ${method} not allowed on ${url.pathname}: use ${route.method}`, {
      Allow: `${route.method}, OPTIONS`,
    });
    return;
  }
  const cost = CREDIT_COSTS[route.endpoint];
  /** Bills the request when the mode bills this outcome and the key (if valid) can pay; once at most. */
  const settle = (outcome: BillingOutcome): void => {
    if (!auth.ok || rec.creditsCharged > 0 || !isBilled(ctx.billing(), outcome)) return;
    if (ctx.keys.charge(auth.fingerprint, cost)) rec.creditsCharged = cost;
  };

  if (!body.ok) {
    settle('answered');
    fail(413, 'request body too large');
    return;
  }

  // Faults.
  let fault: Fault | undefined = ctx.faults.peek(route.endpoint);
  if (fault && !BODY_KINDS.has(fault.kind)) {
    ctx.faults.consume(fault);
    rec.fault = fault.kind;
    if (fault.kind !== 'slow') settle('answered');
    switch (fault.kind) {
      case 'status':
        fail(fault.status, fault.error ?? statusMessage(fault.status));
        return;
      case 'rate_limit': {
        const retryAfter = retryAfterHeader(fault);
        headers['X-RateLimit-Remaining'] = '0';
        fail(429, 'rate limit exceeded', retryAfter === undefined ? {} : { 'Retry-After': retryAfter });
        return;
      }
      case 'html_error':
        rec.status = 502;
        sendText(res, 502, HTML_ERROR_PAGE, 'text/html; charset=utf-8', headers);
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'slow':
        await ctx.sleep(fault.delay_ms);
        // A client that stopped waiting does not stop the work: a mode that bills what it produced still bills it.
        if (ctx.isClosed() || (gone(res) && ctx.billing() === 'success')) return;
        break;
    }
    fault = undefined;
  }
  const faulted = rec.fault !== undefined || fault !== undefined;

  if (!auth.ok) {
    fail(401, auth.message);
    return;
  }

  let point: PointRequest;
  try {
    if (route.method === 'POST') {
      if (!isJsonContentType(req.headers['content-type'])) {
        settle('answered');
        fail(415, `Content-Type must be application/json, got ${req.headers['content-type'] ?? 'none'}`);
        return;
      }
      point = parsePointBody(body.text);
    } else {
      point = parsePointQuery(url.searchParams);
    }
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    settle('answered');
    fail(err.status, err.message);
    return;
  }
  if (point.gender !== undefined) rec.gender = point.gender;

  const left = ctx.keys.creditsOf(auth.fingerprint);
  if (left < cost) {
    fail(402, `insufficient credits: ${left} left, ${cost} needed`);
    return;
  }

  const success = successBody(route.endpoint, point, ctx.clock.now());
  rec.status = 200;
  if (fault !== undefined) {
    ctx.faults.consume(fault);
    rec.fault = fault.kind;
    settle('produced_200');
    if (fault.kind === 'large_field') {
      await sendStream(res, 200, largeFieldChunks(success, fault), 'application/json; charset=utf-8', headers);
      return;
    }
    const text = JSON.stringify(
      fault.kind === 'malformed_json'
        ? success
        : alterBody(success, fault, route.endpoint === 'weather', bearerKey(req.headers.authorization)),
    );
    sendText(
      res,
      200,
      fault.kind === 'malformed_json' ? truncateJson(text) : text,
      'application/json; charset=utf-8',
      headers,
    );
    return;
  }
  settle(faulted ? 'produced_200' : 'good_200');
  sendJson(res, 200, success, headers);
}
