import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { WarningCode } from '../shared/codes.js';
import { readBody, sendJson } from '../shared/http-respond.js';
import type { Clock } from '../time/clock.js';

/**
 * The entries of a device's `POST /api/log`: the current firmware's `{"logs":[…]}` and the older
 * `{"log":{"logs_array":[…]}}`, reduced to the fields we know, each string cut short, so that nothing a device sends
 * reaches our log unbounded.
 */

export function logEntries(body: unknown): unknown[] | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as { logs?: unknown; log?: { logs_array?: unknown } };
  if (Array.isArray(b.logs)) return b.logs as unknown[];
  if (typeof b.log === 'object' && b.log !== null && Array.isArray(b.log.logs_array))
    return b.log.logs_array as unknown[];
  return null;
}

const LOG_FIELDS = [
  'message',
  'level',
  'created_at',
  'battery_voltage',
  'wifi_signal',
  'wifi_status',
  'refresh_rate',
  'sleep_duration',
  'firmware_version',
  'wake_reason',
  'free_heap_size',
  'special_function',
  'source_path',
  'source_line',
  'retry',
] as const;

/** The known fields of a device log entry, strings cut to 500 characters: nothing else reaches our log. */
export function pickLogFields(entry: unknown): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  if (typeof entry !== 'object' || entry === null) return out;
  for (const k of LOG_FIELDS) {
    const v = (entry as Record<string, unknown>)[k];
    if (typeof v === 'string') out[k] = v.slice(0, 500);
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}

/** Posts a device may send in a row before the rate applies. */
export const LOG_POSTS_BURST = 10;
/** After the burst, one post a minute: a device posts its log at a wake, and is told to sleep a minute at least. */
export const LOG_POST_EVERY_MS = 60_000;
/** What a device's log may add to ours in a day: the JSON of the fields we keep, over all its posts. */
export const LOG_BYTES_PER_DAY = 256 * 1024;
const DAY_MS = 24 * 3_600_000;

/** Warning: a device's /api/log post over its rate or its bytes a day, dropped (answered 204); said once a day. */
export const W_TRMNL_LOG_DROPPED = 'W_TRMNL_LOG_DROPPED' satisfies WarningCode;

export interface DeviceLogLimitOptions {
  /** Refills the rate and ends a device's day. */
  clock: Clock;
  /** Default LOG_POSTS_BURST. */
  burst?: number;
  /** Default LOG_POST_EVERY_MS. */
  everyMs?: number;
  /** Default LOG_BYTES_PER_DAY. */
  bytesPerDay?: number;
}

interface Allowance {
  /** Posts it may send now (a fraction refills over time). */
  posts: number;
  /** When `posts` was last refilled. */
  at: number;
  /** When its day began: its first post after the last day ended. */
  dayStart: number;
  bytes: number;
  /** Whether a drop was said this day. */
  said: boolean;
}

/**
 * Per device (by MAC: only configured devices get this far, so the table is as long as `trmnl.devices`): a rate of
 * posts (a burst, then one a minute) and bytes a day. What is over is dropped, and the device is answered as for any
 * post: the firmware keeps a log it could not deliver and sends it again (submit_log.cpp takes 200, 204 and 301), so
 * a refusal would bring the same post back at every wake.
 */
export class DeviceLogLimit {
  readonly #o: Required<DeviceLogLimitOptions>;
  readonly #devices = new Map<string, Allowance>();

  constructor(opts: DeviceLogLimitOptions) {
    this.#o = { burst: LOG_POSTS_BURST, everyMs: LOG_POST_EVERY_MS, bytesPerDay: LOG_BYTES_PER_DAY, ...opts };
  }

  #allowance(mac: string): Allowance {
    const now = this.#o.clock.now();
    let a = this.#devices.get(mac);
    if (a === undefined) {
      a = { posts: this.#o.burst, at: now, dayStart: now, bytes: 0, said: false };
      this.#devices.set(mac, a);
    }
    a.posts = Math.min(this.#o.burst, a.posts + Math.max(0, now - a.at) / this.#o.everyMs);
    a.at = now;
    // A day is 24 h from the device's first post in it; a clock set back starts a new one.
    if (now - a.dayStart >= DAY_MS || now < a.dayStart) Object.assign(a, { dayStart: now, bytes: 0, said: false });
    return a;
  }

  /** Takes one post from the device's rate: false when it has none left. */
  post(mac: string): boolean {
    const a = this.#allowance(mac);
    if (a.posts < 1) return false;
    a.posts -= 1;
    return true;
  }

  /** Counts `bytes` of its log for the day: false (and nothing counted) when they do not fit. */
  spend(mac: string, bytes: number): boolean {
    const a = this.#allowance(mac);
    if (a.bytes + bytes > this.#o.bytesPerDay) return false;
    a.bytes += bytes;
    return true;
  }

  /** True for the first drop of the device's day: the one to say. */
  firstDrop(mac: string): boolean {
    const a = this.#allowance(mac);
    if (a.said) return false;
    a.said = true;
    return true;
  }
}

const LOG_BODY_LIMIT = 256 * 1024;
const LOGS_PER_POST = 50;

/** Whose post it is, as authenticated. */
export interface LogSender {
  mac: string;
  display: string;
}

/**
 * POST /api/log of an authenticated device: its entries' known fields go to our log, within its limits. 204 also when
 * the post is dropped; 413 for a body over 256 KiB and 400 for one that is not a log.
 */
export async function receiveDeviceLog(
  req: IncomingMessage,
  res: ServerResponse,
  who: LogSender,
  limit: DeviceLogLimit,
  logger: Logger | undefined,
): Promise<void> {
  const drop = (reason: 'rate' | 'bytes'): void => {
    if (!limit.firstDrop(who.mac)) return;
    logger?.warn(
      {
        code: W_TRMNL_LOG_DROPPED,
        mac: who.mac,
        display: who.display,
        reason,
        posts_burst: LOG_POSTS_BURST,
        post_every_s: LOG_POST_EVERY_MS / 1000,
        bytes_per_day: LOG_BYTES_PER_DAY,
      },
      "a TRMNL device's log is over its limit: its posts are dropped (answered 204), said once a day",
    );
  };
  const done = (): void => {
    res.writeHead(204, { 'Cache-Control': 'no-store' });
    res.end();
  };
  if (!limit.post(who.mac)) {
    req.resume();
    drop('rate');
    return done();
  }
  const read = await readBody(req, LOG_BODY_LIMIT);
  if (!read.ok) return sendJson(req, res, 413, { status: 413, message: 'log body too large' });
  let body: unknown;
  try {
    body = JSON.parse(read.text);
  } catch {
    return sendJson(req, res, 400, { status: 400, message: 'log body is not JSON' });
  }
  const logs = logEntries(body);
  if (logs === null)
    return sendJson(req, res, 400, { status: 400, message: 'expected {"logs":[…]} or {"log":{"logs_array":[…]}}' });
  const entries = logs.slice(0, LOGS_PER_POST).map(pickLogFields);
  if (!limit.spend(who.mac, Buffer.byteLength(JSON.stringify(entries)))) {
    drop('bytes');
    return done();
  }
  for (const entry of entries)
    logger?.info({ mac: who.mac, display: who.display, device_log: entry }, 'TRMNL device log');
  done();
}
