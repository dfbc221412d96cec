import { Agent, request, type Dispatcher } from 'undici';
import {
  AbortedError,
  ApiError,
  BadResponseError,
  CreditsExhaustedError,
  HttpStatusError,
  KeyRejectedError,
  RateLimitedError,
  ServiceError,
} from './errors.js';
import { parseRetryAfter, readRateLimit, type RateLimitInfo } from './rate-limit.js';
import { systemClock, type Clock } from '../time/clock.js';
import { redactJson, redactor, type Redact } from '../shared/redactor.js';
import { transportError } from './transport-errors.js';
import { boundAnswer } from './answer-limits.js';
import { AnswerFilter, ANSWER_HARD_LIMIT, NotJsonError } from './answer-filter.js';
import { checkBaseUrl, checkRecommendRequest, checkWeatherQuery, type WeatherQuery } from './request-rules.js';
import {
  ErrorBodySchema,
  readResponse,
  type Recommendation,
  type RecommendRequest,
  type ResponseKind,
  type ResponseRead,
  type ShapeNote,
  type Weather,
} from './schemas.js';

export interface OutfitClientOptions {
  /** The service's base address, ending with /v1. */
  baseUrl: string;
  apiKey: string;
  /**
   * Secrets besides the key (the MQTT password, TRMNL tokens), redacted with it from every answer and error text:
   * what the service sends back is drawn, saved and published, and must never carry a secret, whoever sent it.
   */
  otherSecrets?: readonly string[];
  /** Unpaid requests (GET /weather): whole request, from sending to the last byte of the body. Default 20 s. */
  timeoutMs?: number;
  /**
   * Paid requests (POST /recommend, /recweather): from sending to the last byte of the answer. Default 60 s: the
   * answer is written by a language model, which takes seconds and now and then most of a minute; giving up early
   * means paying for an answer never read.
   */
  paidTimeoutMs?: number;
  /** Opening the connection (TCP and TLS), before anything is sent. Default 10 s. */
  connectTimeoutMs?: number;
  /** For Retry-After dates and the rate-limit view; default systemClock. */
  clock?: Clock;
  /** Injected transport; by default an undici Agent owned (and closed) by the client. */
  dispatcher?: Dispatcher;
  /** Called after every response, success or error, with the rate-limit headers it carried. */
  onRateLimit?: (info: RateLimitInfo) => void;
  /** Called when a response was accepted but differed from the spec (a field missing, mistyped, in another form). */
  onShapeNotes?: (notes: ShapeNote[], where: string) => void;
  userAgent?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** What is read of an error's body (its `error` text, or an HTML page's title); the rest is discarded unread. */
const ERROR_BODY_BYTES = 64 * 1024;

/** The service client: validates before sending, types every failure, validates every response. */
export class OutfitClient {
  readonly #base: string;
  readonly #key: string;
  /** A service may quote the key back ("invalid API key sk_live_…"): its text goes to logs, topics and the screen. */
  readonly #redact: Redact;
  readonly #timeoutMs: number;
  readonly #paidTimeoutMs: number;
  readonly #clock: Clock;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #onRateLimit: ((info: RateLimitInfo) => void) | undefined;
  readonly #onShapeNotes: ((notes: ShapeNote[], where: string) => void) | undefined;
  readonly #userAgent: string;
  #rateLimit: RateLimitInfo | null = null;

  constructor(opts: OutfitClientOptions) {
    checkBaseUrl(opts.baseUrl);
    this.#base = opts.baseUrl;
    this.#key = opts.apiKey;
    this.#redact = redactor([opts.apiKey, ...(opts.otherSecrets ?? [])]);
    this.#timeoutMs = opts.timeoutMs ?? 20_000;
    this.#paidTimeoutMs = opts.paidTimeoutMs ?? 60_000;
    this.#clock = opts.clock ?? systemClock;
    this.#ownsDispatcher = opts.dispatcher === undefined;
    this.#dispatcher =
      opts.dispatcher ??
      new Agent({
        connect: { timeout: opts.connectTimeoutMs ?? 10_000 },
        // Each call sets its own headers and body timeouts (paid and unpaid calls differ); these are only the ceiling.
        headersTimeout: Math.max(this.#timeoutMs, this.#paidTimeoutMs),
        bodyTimeout: Math.max(this.#timeoutMs, this.#paidTimeoutMs),
      });
    this.#onRateLimit = opts.onRateLimit;
    this.#onShapeNotes = opts.onShapeNotes;
    this.#userAgent = opts.userAgent ?? 'outfit-display';
  }

  /** The rate-limit headers of the last response, or null before the first. */
  get rateLimit(): RateLimitInfo | null {
    return this.#rateLimit;
  }

  /** POST /recommend (2 credits). */
  async recommend(req: RecommendRequest, opts: CallOptions = {}): Promise<Recommendation> {
    checkRecommendRequest(req);
    return this.#call(
      'POST',
      '/recommend',
      req,
      'recommend',
      (j) => readResponse('recommend', j),
      opts,
      this.#paidTimeoutMs,
    );
  }

  /** POST /recweather (3 credits): the recommendation with the full weather snapshot. */
  async recweather(req: RecommendRequest, opts: CallOptions = {}): Promise<Recommendation> {
    checkRecommendRequest(req);
    return this.#call(
      'POST',
      '/recweather',
      req,
      'recweather',
      (j) => readResponse('recweather', j),
      opts,
      this.#paidTimeoutMs,
    );
  }

  /** GET /weather: the weather object at the top level of the body. */
  async weather(q: WeatherQuery, opts: CallOptions = {}): Promise<Weather> {
    checkWeatherQuery(q);
    const params = new URLSearchParams({ lat: String(q.lat), lon: String(q.lon) });
    if (q.unit !== undefined) params.set('unit', q.unit);
    return this.#call(
      'GET',
      `/weather?${params.toString()}`,
      undefined,
      'weather',
      (j) => readResponse('weather', j),
      opts,
      this.#timeoutMs,
    );
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  async #call<T>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    kind: ResponseKind,
    read: (json: unknown) => ResponseRead<T>,
    opts: CallOptions,
    timeoutMs: number,
  ): Promise<T> {
    if (opts.signal?.aborted) throw new AbortedError(`${method} ${stripQuery(path)} aborted before it was sent`);
    const timeout = AbortSignal.timeout(timeoutMs);
    // The caller's signal lives as long as the daemon; AbortSignal.any() would keep a reference per call on it for
    // ever (nodejs/node#55351), so the two are linked by hand and unlinked when the call ends.
    const link = new AbortController();
    const abort = (): void => link.abort();
    opts.signal?.addEventListener('abort', abort, { once: true });
    timeout.addEventListener('abort', abort, { once: true });
    const signal = link.signal;
    const where = `${method} ${stripQuery(path)}`;
    let status: number;
    let headers: Record<string, string | string[] | undefined>;
    let text: string;
    let trimmed: ShapeNote[] = [];
    try {
      const res = await request(this.#base + path, {
        method,
        dispatcher: this.#dispatcher,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        headers: {
          authorization: `Bearer ${this.#key}`,
          accept: 'application/json',
          'user-agent': this.#userAgent,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      status = res.statusCode;
      headers = res.headers;
      if (status >= 200 && status <= 299)
        ({ text, notes: trimmed } = await readAnswer(res.body, kind, where, status, this.#redact));
      else text = await readErrorBody(res.body);
    } catch (err) {
      throw this.#transportError(err, where, opts.signal, timeout, timeoutMs);
    } finally {
      opts.signal?.removeEventListener('abort', abort);
      timeout.removeEventListener('abort', abort);
    }
    const now = this.#clock.now();
    this.#rateLimit = readRateLimit(headers, now);
    this.#onRateLimit?.(this.#rateLimit);
    if (status < 200 || status > 299) throw errorFromStatus(where, status, headers, this.#redact(text), now);
    const { value, notes } = parseBody(kind, where, status, text, trimmed, read, this.#redact);
    if (notes.length > 0) this.#onShapeNotes?.(notes, where);
    return value;
  }

  #transportError(
    err: unknown,
    where: string,
    caller: AbortSignal | undefined,
    timeout: AbortSignal,
    timeoutMs: number,
  ): ApiError {
    if (err instanceof ApiError) return err;
    if (caller?.aborted) return new AbortedError(`${where} aborted`, { cause: err });
    return transportError(err, { where, host: new URL(this.#base).host, timedOut: timeout.aborted, timeoutMs });
  }
}

function stripQuery(path: string): string {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
}

/**
 * A 2xx body, read as it streams through AnswerFilter: what the frame and the stored answer need, with memory bounded
 * by the answer's limits whatever the body's size. A body that is not JSON, or past ANSWER_HARD_LIMIT, fails as the
 * 2xx it is (E_BAD_RESPONSE with its status: paid for, and not bought again for its slot).
 */
async function readAnswer(
  body: Dispatcher.ResponseData['body'],
  kind: ResponseKind,
  where: string,
  status: number,
  redact: Redact,
): Promise<{ text: string; notes: ShapeNote[] }> {
  const filter = new AnswerFilter(kind);
  let size = 0;
  try {
    for await (const chunk of body) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > ANSWER_HARD_LIMIT) {
        throw new BadResponseError(
          `${where}: HTTP ${status} with an answer over ${ANSWER_HARD_LIMIT / 1024 / 1024} MiB, more than any outfit answer can be: not read further`,
          null,
          { status },
        );
      }
      filter.write(buf);
    }
    return filter.end();
  } catch (err) {
    body.destroy();
    // The filter's words name a place in the body, never its text; redacted all the same.
    if (err instanceof NotJsonError)
      throw new BadResponseError(
        `${where}: HTTP ${status} with a body that is not JSON (${redact(err.message)})`,
        null,
        { status },
      );
    throw err;
  }
}

/** The start of an error's body, as text; the rest is not read. */
async function readErrorBody(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    chunks.push(buf.subarray(0, ERROR_BODY_BYTES - size));
    size += buf.length;
    if (size >= ERROR_BODY_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The service's `error` text, or a short description of a body that is not the spec's error JSON. */
function describeErrorBody(
  text: string,
  headers: Record<string, string | string[] | undefined>,
): { serviceMessage: string | null; detail: string } {
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) return { serviceMessage: parsed.data.error, detail: parsed.data.error };
  } catch {
    // not JSON: described below
  }
  const type = String(headers['content-type'] ?? 'no content type').split(';')[0];
  const title = /<title[^>]*>([^<]{1,120})<\/title>/i.exec(text)?.[1]?.trim();
  const snippet =
    title ??
    text
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 120);
  return { serviceMessage: null, detail: `non-JSON error body (${type})${snippet ? `: ${snippet}` : ''}` };
}

function errorFromStatus(
  where: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
  now: number,
): ApiError {
  const { serviceMessage, detail } = describeErrorBody(text, headers);
  const opts = { status, serviceMessage };
  const message = `${where}: HTTP ${status}: ${detail}`;
  if (status === 429) return new RateLimitedError(message, parseRetryAfter(headers['retry-after'], now), opts);
  if (status === 402 || (status === 403 && /credit/i.test(serviceMessage ?? ''))) {
    return new CreditsExhaustedError(message, opts);
  }
  if (status === 401 || status === 403) return new KeyRejectedError(message, opts);
  if (status >= 500) return new ServiceError(message, opts);
  return new HttpStatusError(message, opts);
}

/** The value and its shape notes; a body that is not JSON, or lacks what a frame needs, is E_BAD_RESPONSE. */
function parseBody<T>(
  kind: ResponseKind,
  where: string,
  status: number,
  text: string,
  filtered: ShapeNote[],
  read: (json: unknown) => ResponseRead<T>,
  redact: Redact,
): { value: T; notes: ShapeNote[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    // V8's message quotes the start of the text, which may be the key sent back.
    throw new BadResponseError(
      `${where}: HTTP ${status} with a body that is not JSON (${redact((err as Error).message)})`,
      null,
      { status },
    );
  }
  // Redacted before anything reads it: no secret reaches the frame, the files, MQTT or a message about a field. Then
  // bounded (answer-limits.ts), so that a cut never leaves part of a secret, and a secret shorter than its mark cannot
  // make the answer larger than we store. The filter kept the value shallow and small, so the redaction's walk is too.
  const bounded = boundAnswer(kind, redactJson(json, redact));
  const result = read(bounded.value);
  // The filter's note on a field says what the body held; the bounds' on the same field only what the filter kept.
  const trimmed = [...filtered];
  for (const n of bounded.notes) if (!trimmed.some((t) => t.field === n.field)) trimmed.push(n);
  if (result.ok) return { value: result.value, notes: [...result.notes, ...trimmed] };
  throw new BadResponseError(`${where}: response field ${result.field}: ${result.reason}`, result.field, { status });
}
