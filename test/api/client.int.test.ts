import net from 'node:net';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OutfitClient } from '../../src/api/client.js';
import {
  AbortedError,
  ApiError,
  BadResponseError,
  ConnectError,
  CreditsExhaustedError,
  HttpStatusError,
  InvalidRequestError,
  KeyRejectedError,
  NetworkError,
  RateLimitedError,
  ServiceError,
  TimeoutError,
} from '../../src/api/errors.js';
import type { RateLimitInfo } from '../../src/api/rate-limit.js';
import { ISO_UTC_MS, type ShapeNote } from '../../src/api/schemas.js';
import { DEMO_API_KEY, startServiceSim, type RunningServiceSim } from '../../src/service-sim/server.js';
import { LONG_TEXT } from '../../src/api/answer-limits.js';
import { clockAt } from '../helpers/fake-clock.js';

let now = Date.parse('2026-11-21T07:30:00.000Z');
let sim: RunningServiceSim;
const clients: OutfitClient[] = [];

function client(opts: Partial<ConstructorParameters<typeof OutfitClient>[0]> = {}): OutfitClient {
  const c = new OutfitClient({ baseUrl: sim.url, apiKey: DEMO_API_KEY, clock: clockAt(() => now), ...opts });
  clients.push(c);
  return c;
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

const BERLIN = { lat: 52.52, lon: 13.405 };

beforeAll(async () => {
  sim = await startServiceSim({ clock: clockAt(() => now) });
});
afterEach(() => {
  sim.clearFaults();
  now += 61_000; // a fresh rate-limit window for every test
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sim.close();
});

describe('successful calls', () => {
  it('POST /recweather returns the full snapshot with source, and reads the rate-limit headers', async () => {
    const seen: RateLimitInfo[] = [];
    const c = client({ onRateLimit: (i) => seen.push(i) });
    const rec = await c.recweather({ ...BERLIN, unit: 'metric' });
    expect(typeof rec.outfit).toBe('string');
    expect(rec.generated_at).toMatch(ISO_UTC_MS);
    expect(rec.weather.source).toEqual(expect.any(String));
    expect(rec.weather.temp_unit).toBe('°C');
    expect(c.rateLimit).toEqual({ limit: 60, remaining: 59, observedAt: now });
    expect(seen).toEqual([c.rateLimit]);
  });

  it('POST /recommend returns weather without source, at most 120 words, imperial units on request', async () => {
    const rec = await client().recommend({ ...BERLIN, unit: 'imperial', gender: 'x'.repeat(30) });
    expect(rec.weather.source).toBeUndefined();
    expect(rec.weather.temp_unit).toBe('°F');
    expect(rec.weather.wind_speed_unit).toBe('mph');
    expect(rec.outfit.trim().split(/\s+/).length).toBeLessThanOrEqual(120);
  });

  it('GET /weather returns the weather object from the top level of the body', async () => {
    const w = await client().weather({ ...BERLIN, unit: 'imperial' });
    expect(w.temp_unit).toBe('°F');
    expect(typeof w.is_day).toBe('boolean');
    expect(Array.isArray(w.alerts)).toBe(true);
  });

  it('keeps fields beyond the spec instead of failing', async () => {
    sim.injectFault({ kind: 'extra_fields' });
    const rec = await client().recweather(BERLIN);
    const extraTop = Object.keys(rec).filter(
      (k) => !['outfit', 'reasoning', 'weather', 'model', 'generated_at'].includes(k),
    );
    expect(extraTop.length).toBeGreaterThan(0);
  });
});

describe('requests are checked before they are sent', () => {
  it.each([
    [{ lat: 90.5, lon: 0 }, 'lat'],
    [{ lat: 0, lon: -180.1 }, 'lon'],
    [{ lat: Number.NaN, lon: 0 }, 'lat'],
    [{ lat: 0, lon: 0, unit: 'kelvin' }, 'unit'],
    [{ lat: 0, lon: 0, gender: 'x'.repeat(31) }, 'gender'],
  ])('%j is refused on field %s, with no request and no credit', async (req, field) => {
    const before = sim.stats().requests.length;
    const err = await failure(client().recweather(req as never));
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect((err as InvalidRequestError).field).toBe(field);
    expect(err.code).toBe('E_INVALID_REQUEST');
    expect(sim.stats().requests.length).toBe(before);
  });

  it('counts gender length in characters, not UTF-16 units', async () => {
    await expect(client().recommend({ ...BERLIN, gender: '👗'.repeat(30) })).resolves.toBeTruthy();
  });

  it('refuses a base_url that does not end with /v1', () => {
    expect(() => new OutfitClient({ baseUrl: 'http://127.0.0.1:1/v2', apiKey: 'k' })).toThrow(InvalidRequestError);
    expect(() => new OutfitClient({ baseUrl: 'not a url', apiKey: 'k' })).toThrow(/base_url is not a URL/);
  });
});

describe('error responses are typed, carry the status and the service text, and update the rate-limit view', () => {
  it('401: key rejected, with the service message, never the key', async () => {
    const c = client({ apiKey: 'sk_live_wrong_key_123' });
    const err = await failure(c.recweather(BERLIN));
    expect(err).toBeInstanceOf(KeyRejectedError);
    expect(err.status).toBe(401);
    expect(err.serviceMessage).toEqual(expect.any(String));
    expect(err.message).not.toContain('sk_live_wrong_key_123');
    expect(c.rateLimit?.limit).toBe(60);
  });

  it('402 and a 403 naming credits: credits exhausted; another 403: key rejected', async () => {
    sim.injectFault({ kind: 'status', status: 402, error: 'insufficient credits' });
    expect(await failure(client().recweather(BERLIN))).toBeInstanceOf(CreditsExhaustedError);
    sim.injectFault({ kind: 'status', status: 403, error: 'Out of credits for this month' });
    expect(await failure(client().recweather(BERLIN))).toBeInstanceOf(CreditsExhaustedError);
    sim.injectFault({ kind: 'status', status: 403, error: 'key disabled' });
    const err = await failure(client().recweather(BERLIN));
    expect(err).toBeInstanceOf(KeyRejectedError);
    expect(err.serviceMessage).toBe('key disabled');
  });

  it('429 with Retry-After in seconds, as an HTTP date, and missing (60 s)', async () => {
    sim.injectFault({ kind: 'rate_limit', retry_after: '7' });
    const e1 = await failure(client().recweather(BERLIN));
    expect(e1).toBeInstanceOf(RateLimitedError);
    expect((e1 as RateLimitedError).retryAfterMs).toBe(7000);
    expect(e1.status).toBe(429);

    sim.injectFault({ kind: 'rate_limit', retry_after: new Date(now + 45_000).toUTCString() });
    expect(((await failure(client().recweather(BERLIN))) as RateLimitedError).retryAfterMs).toBe(45_000);

    sim.injectFault({ kind: 'rate_limit', retry_after: null });
    expect(((await failure(client().recweather(BERLIN))) as RateLimitedError).retryAfterMs).toBe(60_000);
  });

  it('the real 61st request in a minute is a 429 with the headers', async () => {
    const c = client();
    for (let i = 0; i < 60; i++) await c.weather(BERLIN);
    expect(c.rateLimit?.remaining).toBe(0);
    const err = await failure(c.weather(BERLIN));
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBeGreaterThan(0);
    expect((err as RateLimitedError).retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(c.rateLimit?.remaining).toBe(0);
  });

  it('500 and 503: service errors, retryable', async () => {
    for (const status of [500, 503]) {
      sim.injectFault({ kind: 'status', status, error: 'upstream model overloaded' });
      const err = await failure(client().recommend(BERLIN));
      expect(err).toBeInstanceOf(ServiceError);
      expect(err.retryable).toBe(true);
      expect(err.message).toContain(`HTTP ${status}: upstream model overloaded`);
    }
  });

  it('an HTML error page from a proxy is still a clear error', async () => {
    sim.injectFault({ kind: 'html_error' });
    const err = await failure(client().recweather(BERLIN));
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.status).toBe(502);
    expect(err.serviceMessage).toBeNull();
    expect(err.message).toMatch(/HTTP 502: non-JSON error body \(text\/html\)/);
  });

  it('another 4xx is an HTTP status error', async () => {
    sim.injectFault({ kind: 'status', status: 400, error: 'lat is required' });
    const err = await failure(client().recweather(BERLIN));
    expect(err).toBeInstanceOf(HttpStatusError);
    expect(err.message).toContain('lat is required');
  });
});

describe('bad bodies on success', () => {
  it('malformed JSON', async () => {
    sim.injectFault({ kind: 'malformed_json' });
    const err = await failure(client().recweather(BERLIN));
    expect(err).toBeInstanceOf(BadResponseError);
    expect((err as BadResponseError).field).toBeNull();
    expect(err.message).toMatch(/not JSON/);
  });

  it('a missing outfit, an empty one, or a weather that is not an object is E_BAD_RESPONSE, naming the field', async () => {
    sim.injectFault({ kind: 'missing_field', field: 'outfit' });
    const missing = await failure(client().recweather(BERLIN));
    expect(missing).toBeInstanceOf(BadResponseError);
    expect((missing as BadResponseError).field).toBe('outfit');
    expect(missing.message).toContain('response field outfit: missing');
    sim.injectFault({ kind: 'wrong_type', field: 'weather' });
    const weather = await failure(client().recommend(BERLIN));
    expect((weather as BadResponseError).field).toBe('weather');
    expect(weather.message).toContain('must be an object (got string)');
    sim.injectFault({ kind: 'missing_field', field: 'weather' });
    expect(((await failure(client().recweather(BERLIN))) as BadResponseError).field).toBe('weather');
  });
});

describe('liberal in what we accept: only outfit and a weather object are required', () => {
  function noting(): { c: OutfitClient; notes: Array<ShapeNote & { where: string }> } {
    const notes: Array<ShapeNote & { where: string }> = [];
    const c = client({ onShapeNotes: (ns, where) => notes.push(...ns.map((n) => ({ ...n, where }))) });
    return { c, notes };
  }

  it('a missing reading (weather.temp) is accepted, left undefined and noted: the answer is paid for', async () => {
    sim.injectFault({ kind: 'missing_field', field: 'weather.temp' });
    const { c, notes } = noting();
    const rec = await c.recweather(BERLIN);
    expect(rec.weather.temp).toBeUndefined();
    expect(rec.weather.feels_like).toEqual(expect.any(Number));
    expect(notes).toEqual([
      { field: 'weather.temp', problem: 'missing', detail: 'missing', where: 'POST /recweather' },
    ]);
  });

  it('a missing model and a mistyped generated_at are accepted and noted', async () => {
    sim.injectFault({ kind: 'missing_field', field: 'model' });
    const { c, notes } = noting();
    expect((await c.recweather(BERLIN)).model).toBeUndefined();
    sim.injectFault({ kind: 'wrong_type', field: 'generated_at' });
    const rec = await c.recweather(BERLIN);
    expect(rec.generated_at).toBeUndefined();
    expect(notes.map((n) => [n.field, n.problem])).toEqual([
      ['model', 'missing'],
      ['generated_at', 'wrong_type'],
    ]);
  });

  it('a number sent as a string is taken as its number, and noted as another form', async () => {
    sim.injectFault({ kind: 'wrong_type', field: 'weather.humidity_pct' });
    const { c, notes } = noting();
    const rec = await c.recommend(BERLIN);
    expect(rec.weather.humidity_pct).toEqual(expect.any(Number));
    expect(notes).toEqual([expect.objectContaining({ field: 'weather.humidity_pct', problem: 'other_form' })]);
  });

  it('weather.source: missing from /recweather is noted; from /recommend and GET /weather it is the spec', async () => {
    sim.injectFault({ kind: 'missing_field', field: 'weather.source' });
    const { c, notes } = noting();
    expect((await c.recweather(BERLIN)).weather.source).toBeUndefined();
    await c.recommend(BERLIN);
    const w = await c.weather(BERLIN);
    expect(w.source).toBeUndefined();
    expect(notes.map((n) => n.field)).toEqual(['weather.source']);
  });

  it('a complete answer from the simulated service has no notes', async () => {
    const { c, notes } = noting();
    await c.recweather(BERLIN);
    await c.recommend(BERLIN);
    await c.weather(BERLIN);
    expect(notes).toEqual([]);
  });
});

describe('transport failures', () => {
  it('a response slower than the timeout: paid calls have their own (longer) response timeout', async () => {
    sim.injectFault({ kind: 'slow', delay_ms: 2000 });
    const err = await failure(client({ paidTimeoutMs: 200 }).recweather(BERLIN));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.code).toBe('E_TIMEOUT');
    expect(err.message).toContain('no answer within 200 ms');
    sim.injectFault({ kind: 'slow', delay_ms: 400 });
    await expect(client({ timeoutMs: 200, paidTimeoutMs: 5_000 }).recweather(BERLIN)).resolves.toMatchObject({
      outfit: expect.any(String),
    });
  });

  it('a connection reset', async () => {
    sim.injectFault({ kind: 'reset' });
    const err = await failure(client().recweather(BERLIN));
    expect(err).toBeInstanceOf(NetworkError);
  });

  it('a refused connection', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const err = await failure(client({ baseUrl: `http://127.0.0.1:${port}/v1` }).recweather(BERLIN));
    expect(err).toBeInstanceOf(ConnectError);
    expect(err.code).toBe('E_CONNECT');
    expect(err.message).toMatch(/ECONNREFUSED/);
  });

  it('never sent: a DNS failure is E_CONNECT', async () => {
    // The resolver is replaced (no network in tests): it fails as getaddrinfo does for an unknown name.
    let asked = 0;
    const lookup = (_host: string, _opts: unknown, cb: (err: Error) => void): void => {
      asked++;
      cb(Object.assign(new Error('getaddrinfo ENOTFOUND outfit.invalid'), { code: 'ENOTFOUND' }));
    };
    const dispatcher = new Agent({ connect: { lookup } as never });
    try {
      const err = await failure(client({ baseUrl: 'http://outfit.invalid/v1', dispatcher }).recweather(BERLIN));
      expect(err).toMatchObject({ code: 'E_CONNECT' });
      expect(err.message).toMatch(/ENOTFOUND/);
      expect(asked).toBeGreaterThan(0);
    } finally {
      await dispatcher.close();
    }
  });

  it('never sent: a connect timeout and a failed TLS handshake are E_CONNECT, told apart from a response timeout', async () => {
    const silent = net.createServer(() => undefined).listen(0, '127.0.0.1');
    const plain = net.createServer((s) => s.end('HTTP/1.1 400 Bad Request\r\n\r\n')).listen(0, '127.0.0.1');
    const closer = net.createServer((s) => s.destroy()).listen(0, '127.0.0.1');
    try {
      await Promise.all(
        [silent, plain, closer].map((s) => new Promise((r) => (s.listening ? r(null) : s.once('listening', r)))),
      );
      const url = (s: net.Server): string => `https://127.0.0.1:${(s.address() as net.AddressInfo).port}/v1`;
      const timedOut = await failure(client({ baseUrl: url(silent), connectTimeoutMs: 200 }).recweather(BERLIN));
      expect(timedOut).toMatchObject({ code: 'E_CONNECT' });
      expect(timedOut.message).toMatch(/UND_ERR_CONNECT_TIMEOUT/);
      expect(await failure(client({ baseUrl: url(plain) }).recweather(BERLIN))).toMatchObject({ code: 'E_CONNECT' });
      expect(await failure(client({ baseUrl: url(closer) }).recweather(BERLIN))).toMatchObject({ code: 'E_CONNECT' });
    } finally {
      for (const s of [silent, plain, closer]) s.close();
    }
  });

  it('an abort by the caller is not a failure of the service', async () => {
    sim.injectFault({ kind: 'slow', delay_ms: 1000 });
    const ac = new AbortController();
    const p = client().recweather(BERLIN, { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    expect(await failure(p)).toBeInstanceOf(AbortedError);
    const pre = new AbortController();
    pre.abort();
    expect(await failure(client().recweather(BERLIN, { signal: pre.signal }))).toBeInstanceOf(AbortedError);
  });
});

describe('an answer over what we store', () => {
  it('is bounded before it is redacted, and again after: a secret shorter than its mark cannot make a text outgrow its limit', async () => {
    sim.injectFault({ kind: 'large_field', field: 'outfit', bytes: 100_000, fill: 'text' });
    const notes: ShapeNote[] = [];
    const rec = await client({ otherSecrets: ['scarf'], onShapeNotes: (n) => notes.push(...n) }).recweather(BERLIN);
    expect(rec.outfit).toHaveLength(LONG_TEXT);
    expect(rec.outfit).toContain('[redacted]');
    expect(notes.filter((n) => n.field === 'outfit')).toEqual([expect.objectContaining({ problem: 'too_long' })]);
  });

  it('a structure nested too deep to redact is dropped, and the answer is read', async () => {
    sim.injectFault({ kind: 'large_field', field: 'notes', bytes: 1_000_000, fill: 'nested' });
    const notes: ShapeNote[] = [];
    const rec = await client({ onShapeNotes: (n) => notes.push(...n) }).recweather(BERLIN);
    expect(rec).not.toHaveProperty('notes');
    expect(notes).toEqual([expect.objectContaining({ field: 'notes', problem: 'too_large' })]);
  });
});
