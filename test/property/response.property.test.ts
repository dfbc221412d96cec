import fc from 'fast-check';
import { MockAgent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { codesIn } from '../../src/shared/codes.js';
import { OutfitClient } from '../../src/api/client.js';
import {
  ApiError,
  BadResponseError,
  CreditsExhaustedError,
  HttpStatusError,
  KeyRejectedError,
  RateLimitedError,
  ServiceError,
} from '../../src/api/errors.js';
import { RecommendationSchema, WEATHER_READINGS, WeatherSchema, type ShapeNote } from '../../src/api/schemas.js';
import { jsonMutationArb, mutate, runs, timeout } from './arbitraries.js';
import { clockAt } from '../helpers/fake-clock.js';
import { NORMAL } from '../fixtures/samples.js';

/**
 * The response parser never throws anything on any answer but its own typed error: whatever status, headers and
 * body come back, a call resolves with a value that satisfies the resource's schema (2xx only) or rejects with an
 * ApiError of the class the status calls for. It is liberal: a 2xx resolves exactly when the body is JSON with what a
 * frame needs (an `outfit` that is a non-empty string and a `weather` object; for GET /weather, an object), and then
 * every listed field is either absent or of its type, with a shape note naming each listed field that was off. The answers come from undici's MockAgent through the client's real
 * code path (request → status → headers → body → parse), so nothing in src/ had to be exported for this.
 */

const KEY = 'sk_live_PROPERTYtestKEY0123456789';
const NOW = Date.parse('2026-11-21T07:30:00.000Z');
const ORIGIN = 'https://outfit.invalid';

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string>;
}
let next: Answer = { status: 200, body: '{}', headers: {} };

const agent = new MockAgent();
agent.disableNetConnect();
agent
  .get(ORIGIN)
  .intercept({ path: () => true, method: () => true })
  .reply(() => ({ statusCode: next.status, data: next.body, responseOptions: { headers: next.headers } }))
  .persist();
let notes: ShapeNote[] = [];
const client = new OutfitClient({
  baseUrl: `${ORIGIN}/v1`,
  apiKey: KEY,
  dispatcher: agent,
  clock: clockAt(() => NOW),
  onShapeNotes: (ns) => notes.push(...ns),
});
afterAll(async () => {
  await client.close();
  await agent.close();
});

type Endpoint = 'recweather' | 'recommend' | 'weather';
const ENDPOINTS: Endpoint[] = ['recweather', 'recommend', 'weather'];
// `/recweather` is read as `/recommend` is; only its notes differ (its `weather.source` is expected).
const SCHEMAS = { recweather: RecommendationSchema, recommend: RecommendationSchema, weather: WeatherSchema } as const;

function call(ep: Endpoint): Promise<unknown> {
  const req = { lat: 52.52, lon: 13.405, unit: 'metric' as const };
  return ep === 'weather' ? client.weather(req) : client[ep](req);
}

const { fetched_at: _dropped, ...RECOMMENDATION } = NORMAL;
const validBody = (ep: Endpoint): unknown => (ep === 'weather' ? RECOMMENDATION.weather : RECOMMENDATION);

/** JSON text with number tokens JSON.stringify never writes (1e999 parses to Infinity, -0, tiny, huge). */
function withOddNumbers(json: string, seed: number): string {
  const odd = ['1e999', '-1e999', '-0', '1e-400', '123456789012345678901234567890', '0.1e1', '4.2E+1'][seed % 7]!;
  return json.replace(/(:\s*)-?\d+(\.\d+)?([eE][+-]?\d+)?/, `$1${odd}`);
}

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 40,
});

const headersArb: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/html',
      'text/plain',
      '',
    ),
    'retry-after': fc.oneof(
      printable,
      fc.nat(100_000).map(String),
      fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
      fc.constantFrom('-3', '1.5', '0', ' 7 ', 'Wed, 21 Oct 2015 07:28:00 GMT'),
    ),
    'x-ratelimit-limit': fc.oneof(printable, fc.nat().map(String)),
    'x-ratelimit-remaining': fc.oneof(printable, fc.integer().map(String)),
  },
  { requiredKeys: [] },
);

/** Bodies: the valid resource with random fields replaced, deleted or added; any JSON; JSON cut short; not JSON. */
function bodyArb(ep: Endpoint): fc.Arbitrary<string> {
  return fc.oneof(
    {
      arbitrary: fc
        .array(jsonMutationArb, { maxLength: 3 })
        .map((ms) => JSON.stringify(mutate(validBody(ep), ms)) ?? ''),
      weight: 4,
    },
    {
      arbitrary: fc
        .tuple(fc.array(jsonMutationArb, { maxLength: 2 }), fc.nat())
        .map(([ms, s]) => withOddNumbers(JSON.stringify(mutate(validBody(ep), ms)) ?? '', s)),
      weight: 2,
    },
    { arbitrary: fc.json({ maxDepth: 3 }), weight: 2 },
    {
      arbitrary: fc.nat().map((n) => {
        const t = JSON.stringify(validBody(ep));
        return t.slice(0, n % t.length);
      }),
      weight: 1,
    },
    { arbitrary: fc.string({ maxLength: 80 }), weight: 1 },
    { arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('latin1')), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        '',
        '\uFEFF{}',
        'null',
        '[]',
        '"x"',
        '<html><title>502 Bad Gateway</title></html>',
        '{"error":"invalid API key"}',
        '{"error":"insufficient credits"}',
        '{"error": 42}',
      ),
      weight: 1,
    },
  );
}

/** The class a non-2xx status must give (RFC semantics as docs/reference/service.md, "Errors", lists them). */
function expectedClass(status: number, body: string): Array<abstract new (...args: never[]) => ApiError> {
  if (status === 429) return [RateLimitedError];
  if (status === 402) return [CreditsExhaustedError];
  if (status === 401) return [KeyRejectedError];
  if (status === 403) return /credit/i.test(body) ? [CreditsExhaustedError, KeyRejectedError] : [KeyRejectedError];
  if (status >= 500) return [ServiceError];
  return [HttpStatusError];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The oracle: whether a 2xx body has what a frame cannot be drawn without. */
function hasRequired(ep: Endpoint, text: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return false;
  }
  if (ep === 'weather') return isObject(json);
  return isObject(json) && typeof json.outfit === 'string' && json.outfit.trim() !== '' && isObject(json.weather);
}

const NUMBERS = new Set(['temp', 'feels_like', 'humidity_pct', 'wind_speed', 'rain_chance_pct', 'uv_index']);
const LISTED = new Set<string>([...WEATHER_READINGS, 'alerts', 'source']);

/** Every listed field of an accepted value is absent or of its type; every note names a listed field. */
function checkAccepted(ep: Endpoint, value: unknown, seen: ShapeNote[]): void {
  const prefix = ep === 'weather' ? '' : 'weather.';
  const rec = value as Record<string, unknown>;
  const w = (ep === 'weather' ? rec : rec.weather) as Record<string, unknown>;
  for (const k of WEATHER_READINGS) {
    const v = w[k];
    const type = NUMBERS.has(k) ? 'number' : k === 'is_day' ? 'boolean' : 'string';
    if (v !== undefined) expect(typeof v, k).toBe(type);
    if (typeof v === 'number') expect(Number.isFinite(v), k).toBe(true);
  }
  expect(Array.isArray(w.alerts) && (w.alerts as unknown[]).every((a) => typeof a === 'string' || isObject(a))).toBe(
    true,
  );
  if (ep !== 'weather') {
    for (const k of ['reasoning', 'model']) if (rec[k] !== undefined) expect(typeof rec[k], k).toBe('string');
    if (rec.generated_at !== undefined)
      expect(typeof rec.generated_at === 'string' && !Number.isNaN(Date.parse(rec.generated_at))).toBe(true);
  }
  for (const n of seen) {
    const name = n.field.startsWith(prefix) ? n.field.slice(prefix.length) : n.field;
    const listed = LISTED.has(name) || (ep !== 'weather' && ['reasoning', 'model', 'generated_at'].includes(n.field));
    expect(listed, n.field).toBe(true);
  }
}

async function outcome(ep: Endpoint): Promise<{ value?: unknown; error?: unknown }> {
  try {
    return { value: await call(ep) };
  } catch (error) {
    return { error };
  }
}

function checkError(error: unknown): ApiError {
  if (!(error instanceof ApiError)) throw new Error(`not an ApiError: ${String(error)}`);
  expect(codesIn('api')).toContain(error.code);
  expect(error.message).not.toContain(KEY);
  return error;
}

describe('the response parser: a valid resource or its own typed error, never anything else', () => {
  it(
    'on a 200 with any body: resolves exactly when outfit and weather are there, else rejects with E_BAD_RESPONSE',
    async () => {
      let good = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...ENDPOINTS).chain((ep) => fc.tuple(fc.constant(ep), bodyArb(ep), headersArb)),
          async ([ep, body, headers]) => {
            next = { status: 200, body, headers };
            notes = [];
            const r = await outcome(ep);
            expect(r.error === undefined, `${ep} ${body}`).toBe(hasRequired(ep, body));
            if (r.error === undefined) {
              good++;
              expect(SCHEMAS[ep].safeParse(r.value).success).toBe(true);
              checkAccepted(ep, r.value, notes);
            } else {
              const err = checkError(r.error);
              expect(err).toBeInstanceOf(BadResponseError);
              expect(err.status).toBe(200);
              const field = (err as BadResponseError).field;
              expect(field === null || (typeof field === 'string' && field.length > 0)).toBe(true);
            }
          },
        ),
        { numRuns: runs(400) },
      );
      expect(good).toBeGreaterThan(10);
    },
    timeout(30_000),
  );

  it(
    'on any status with any headers and body: the typed error the status calls for',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc
            .constantFrom(...ENDPOINTS)
            .chain((ep) =>
              fc.tuple(
                fc.constant(ep),
                fc.oneof(
                  fc.integer({ min: 200, max: 599 }),
                  fc.constantFrom(201, 299, 301, 400, 401, 402, 403, 404, 409, 415, 422, 429, 500, 502, 503, 504),
                ),
                bodyArb(ep),
                headersArb,
              ),
            ),
          async ([ep, status, body, headers]) => {
            // A status without a body by definition carries none.
            next = { status, body: [204, 205, 304].includes(status) ? '' : body, headers };
            const r = await outcome(ep);
            if (status >= 200 && status <= 299) {
              if (r.error !== undefined) expect(checkError(r.error)).toBeInstanceOf(BadResponseError);
              else expect(SCHEMAS[ep].safeParse(r.value).success).toBe(true);
              return;
            }
            expect(r.error, `HTTP ${status} resolved`).toBeDefined();
            const err = checkError(r.error);
            expect(err.status).toBe(status);
            expect(
              expectedClass(status, next.body).some((c) => err instanceof c),
              `${err.constructor.name} for HTTP ${status}`,
            ).toBe(true);
            if (err instanceof RateLimitedError) {
              expect(Number.isFinite(err.retryAfterMs)).toBe(true);
              expect(err.retryAfterMs).toBeGreaterThanOrEqual(0);
            }
          },
        ),
        { numRuns: runs(400) },
      );
    },
    timeout(30_000),
  );
});
