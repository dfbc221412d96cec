import { request } from 'undici';
import type { Dispatcher } from 'undici';
import { startServiceSim } from '../../src/service-sim/server.js';
import type { RunningServiceSim, ServiceSimOptions } from '../../src/service-sim/server.js';

/** Shared helpers of the service-sim tests: every call goes through a real socket. */

export const T0 = Date.parse('2026-01-15T12:00:00.000Z');

export interface Reply {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
  json: () => unknown;
}

export interface CallOptions {
  /** The key to send as Bearer; null for no Authorization header. */
  key?: string | null;
  /** Sent as JSON (with Content-Type application/json unless contentType says otherwise). */
  body?: unknown;
  /** Sent verbatim instead of `body`. */
  raw?: string;
  /** Content-Type; null for none. */
  contentType?: string | null;
  headers?: Record<string, string>;
  dispatcher?: Dispatcher;
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Calls `path` relative to the simulator's origin (e.g. '/v1/recweather' or '/_sim/stats'). */
export async function call(
  sim: RunningServiceSim,
  method: Dispatcher.HttpMethod,
  path: string,
  opts: CallOptions = {},
  defaultKey?: string,
): Promise<Reply> {
  const origin = new URL(sim.url).origin;
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? defaultKey : opts.key;
  if (key !== undefined && key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  const contentType =
    opts.contentType === undefined ? (body !== undefined ? 'application/json' : null) : opts.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const res = await request(`${origin}${path}`, {
    method,
    headers,
    body,
    ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    headers: flatHeaders(res.headers),
    text,
    json: () => JSON.parse(text) as unknown,
  };
}

/** The error message of an error reply (asserting the body is `{"error": string}`). */
export function errorOf(reply: Reply): string {
  const body = reply.json() as { error?: unknown };
  if (typeof body.error !== 'string') throw new Error(`not an error body: ${reply.text}`);
  return body.error;
}

/** Starts a simulator for one test file's use; close it in afterEach/afterAll. */
export async function startSim(opts: ServiceSimOptions = {}): Promise<RunningServiceSim> {
  return startServiceSim({ host: '127.0.0.1', port: 0, ...opts });
}

export const BERLIN = { lat: 52.52, lon: 13.405 };
