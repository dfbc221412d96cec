import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { readBody, sendJson } from '../shared/http-respond.js';
import type { RefusalCode, RefusalLog } from '../log/refusal-log.js';
import { normalizeMac } from './mac.js';
import { refreshRateFor, type TrmnlFormat, type TrmnlImage, type TrmnlImages } from './images.js';
import type { TrmnlPairing } from './pairing.js';
import type { Clock } from '../time/clock.js';

/**
 * The TRMNL bring-your-own-server device endpoints, as the TRMNL firmware speaks them:
 *   GET /api/setup (and /api/setup/)  ID → api_key (the configured access token), friendly_id, image_url
 *   GET /api/display                  ID + Access-Token → image_url, filename, refresh_rate; telemetry from headers
 *   GET /api/current_screen           ID + Access-Token → the current image_url, filename, refresh_rate; read-only
 *   POST /api/log                     ID + Access-Token → 204
 *
 * Statuses, as the firmware treats them: an unknown MAC gets 404 (setup: "MAC not registered" screen, then sleep;
 * display/log: an error and the retry ladder), a missing Access-Token 401, a wrong one 403 (both: the retry ladder,
 * credentials kept). The JSON `status: 500` is never sent: it makes the firmware wipe its credentials and Wi-Fi.
 * Setup hands out a token only while pairing is open for that MAC (pairing.ts); closed, a configured device gets
 * the same 404 as an unknown one, so it sleeps and asks again. Refusals go to the log through a RefusalLog, never one
 * line a request.
 */

/** Seconds the firmware waits for the image URL; under the firmware's 65 s cap. */
export const IMAGE_URL_TIMEOUT_S = 30;

export interface TrmnlDeviceBinding {
  /** `AA:BB:CC:DD:EE:FF` (any case, `:` or `-`). */
  mac: string;
  display: string;
  /** Default png. */
  format?: TrmnlFormat;
}

export interface DeviceTelemetry {
  mac: string;
  /** Volts, from Battery-Voltage. */
  batteryVoltage: number | null;
  /** dBm, from RSSI. */
  rssi: number | null;
  fwVersion: string | null;
  model: string | null;
  at: Date;
}

export interface TrmnlApiDeps {
  devices: readonly TrmnlDeviceBinding[];
  /** Access tokens by MAC (upper case, `:`). */
  tokens: ReadonlyMap<string, string>;
  images: TrmnlImages;
  nextUpdateAt: (displayId: string) => Date | null;
  onTelemetry?: (displayId: string, t: DeviceTelemetry) => void;
  /** Dates telemetry and times refresh_rate. */
  clock: Clock;
  /** Seconds added to the time until the next update, for the cycle to finish. Default 30. */
  refreshMarginS?: number;
  /** Whether setup may hand out a device's token now. */
  pairing: TrmnlPairing;
  /** Where refused requests are logged, limited per source. */
  refusals: RefusalLog;
  logger?: Logger;
}

/** Six hex digits shown on the device's setup screen; derived from the MAC, never from the token. */
function friendlyId(mac: string): string {
  return createHash('sha256').update(`outfit-display:${mac}`).digest('hex').slice(0, 6).toUpperCase();
}

/** Constant-time comparison (hashing first makes the lengths equal and hides the expected length). */
function tokenMatches(expected: string, given: string): boolean {
  const a = createHash('sha256').update(expected, 'utf8').digest();
  const b = createHash('sha256').update(given, 'utf8').digest();
  return timingSafeEqual(a, b);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function num(v: string | undefined): number | null {
  if (v === undefined || v.trim() === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

const LOG_BODY_LIMIT = 256 * 1024;
const LOGS_PER_POST = 50;

export class TrmnlApi {
  readonly #d: TrmnlApiDeps;

  constructor(deps: TrmnlApiDeps) {
    this.#d = deps;
  }

  #device(mac: string | null): TrmnlDeviceBinding | null {
    if (mac === null) return null;
    return this.#d.devices.find((d) => normalizeMac(d.mac) === mac) ?? null;
  }

  #refuse(req: IncomingMessage, code: RefusalCode, detail: Record<string, string | null>): void {
    this.#d.refusals.refuse(req.socket.remoteAddress, code, detail);
  }

  async setup(req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
    const mac = normalizeMac(header(req, 'id'));
    const dev = this.#device(mac);
    const token = mac === null ? undefined : this.#d.tokens.get(mac);
    // take() closes the window as it grants it: two setups racing for one window cannot both get the token.
    const open = dev !== null && mac !== null && token !== undefined && (await this.#d.pairing.take(mac));
    if (dev === null || mac === null || token === undefined || !open) {
      if (dev !== null && mac !== null && token !== undefined) {
        this.#refuse(req, 'W_TRMNL_PAIRING_CLOSED', { mac, display: dev.display, endpoint: '/api/setup' });
      } else {
        this.#refuse(req, 'W_TRMNL_UNKNOWN_DEVICE', { mac: mac ?? header(req, 'id')?.slice(0, 32) ?? null, endpoint: '/api/setup' });
      }
      // One answer for both, so that setup does not tell which MACs are configured.
      sendJson(req, res, 404, {
        status: 404,
        api_key: null,
        friendly_id: null,
        image_url: null,
        message: 'MAC address not registered, or pairing not open: open pairing on the server (outfit-display pair)',
      });
      return;
    }
    const img = this.#d.images.current(dev.display, dev.format ?? 'png');
    this.#d.logger?.info({ mac, display: dev.display, fw: header(req, 'fw-version')?.slice(0, 40) ?? null }, 'TRMNL device paired');
    sendJson(req, res, 200, {
      status: 200,
      api_key: token,
      friendly_id: friendlyId(mac),
      image_url: img ? imageUrl(base, dev.display, img) : `${base}/trmnl/setup.png`,
      message: `outfit-display: ${dev.display}`,
    });
  }

  /** The device for an authenticated request, or null after answering 404/401/403. */
  #authenticate(req: IncomingMessage, res: ServerResponse, what: string): { mac: string; dev: TrmnlDeviceBinding } | null {
    const mac = normalizeMac(header(req, 'id'));
    const dev = this.#device(mac);
    if (mac === null || dev === null) {
      this.#refuse(req, 'W_TRMNL_UNKNOWN_DEVICE', { mac: mac ?? header(req, 'id')?.slice(0, 32) ?? null, endpoint: what });
      sendJson(req, res, 404, { status: 404, message: 'MAC address not registered' });
      return null;
    }
    const given = header(req, 'access-token');
    if (given === undefined || given === '') {
      this.#refuse(req, 'W_TRMNL_TOKEN_MISSING', { mac, endpoint: what });
      sendJson(req, res, 401, { status: 401, message: 'Access-Token header missing' });
      return null;
    }
    const expected = this.#d.tokens.get(mac);
    if (expected === undefined || !tokenMatches(expected, given)) {
      this.#refuse(req, 'W_TRMNL_TOKEN_WRONG', { mac, endpoint: what });
      sendJson(req, res, 403, { status: 403, message: 'invalid access token' });
      return null;
    }
    return { mac, dev };
  }

  display(req: IncomingMessage, res: ServerResponse, base: string): void {
    const auth = this.#authenticate(req, res, '/api/display');
    if (auth === null) return;
    const { mac, dev } = auth;
    const telemetry: DeviceTelemetry = {
      mac,
      batteryVoltage: num(header(req, 'battery-voltage')),
      rssi: num(header(req, 'rssi')),
      fwVersion: header(req, 'fw-version')?.slice(0, 40) ?? null,
      model: header(req, 'model')?.slice(0, 40) ?? null,
      at: new Date(this.#d.clock.now()),
    };
    try {
      this.#d.onTelemetry?.(dev.display, telemetry);
    } catch (err) {
      this.#d.logger?.error({ err }, 'TRMNL telemetry could not be passed on');
    }
    const screen = this.#screen(dev, base);
    this.#d.logger?.debug({ mac, display: dev.display, filename: screen.filename || null, refresh_rate: screen.refresh_rate }, 'TRMNL display request');
    sendJson(req, res, 200, {
      ...screen,
      // The firmware caps this at 65 s (facts: parse_response_api_display.cpp); 30 s covers our image server on a LAN
      // with room for a slow Wi-Fi fetch, without keeping the radio awake longer than the cap allows.
      image_url_timeout: IMAGE_URL_TIMEOUT_S,
      update_firmware: false,
      firmware_url: null,
      reset_firmware: false,
    });
  }

  /** GET /api/current_screen: what the device shows now, read-only: no telemetry passed on, nothing counted as a wake. */
  currentScreen(req: IncomingMessage, res: ServerResponse, base: string): void {
    const auth = this.#authenticate(req, res, '/api/current_screen');
    if (auth === null) return;
    sendJson(req, res, 200, this.#screen(auth.dev, base));
  }

  /** The device's current image and when to come back: what /api/display and /api/current_screen both answer. */
  #screen(dev: TrmnlDeviceBinding, base: string): { status: 0; image_url: string; filename: string; refresh_rate: number } {
    const img = this.#d.images.current(dev.display, dev.format ?? 'png');
    // Before the first frame: nothing to draw, come back in a minute (status 0 with no image draws nothing).
    const refresh = img === null ? 60 : refreshRateFor(this.#d.nextUpdateAt(dev.display), this.#d.clock.now(), this.#d.refreshMarginS ?? 30);
    return { status: 0, image_url: img ? imageUrl(base, dev.display, img) : '', filename: img?.filename ?? '', refresh_rate: refresh };
  }

  async log(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const auth = this.#authenticate(req, res, '/api/log');
    if (auth === null) {
      req.resume();
      return;
    }
    const read = await readBody(req, LOG_BODY_LIMIT);
    if (!read.ok) {
      sendJson(req, res, 413, { status: 413, message: 'log body too large' });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(read.text);
    } catch {
      sendJson(req, res, 400, { status: 400, message: 'log body is not JSON' });
      return;
    }
    const logs = logEntries(body);
    if (logs === null) {
      sendJson(req, res, 400, { status: 400, message: 'expected {"logs":[…]} or {"log":{"logs_array":[…]}}' });
      return;
    }
    for (const entry of logs.slice(0, LOGS_PER_POST)) {
      this.#d.logger?.info({ mac: auth.mac, display: auth.dev.display, device_log: pickLogFields(entry) }, 'TRMNL device log');
    }
    res.writeHead(204, { 'Cache-Control': 'no-store' });
    res.end();
  }
}

function imageUrl(base: string, displayId: string, img: Pick<TrmnlImage, 'filename' | 'format'>): string {
  return `${base}/displays/${encodeURIComponent(displayId)}/trmnl/${img.filename}.${img.format}`;
}

function logEntries(body: unknown): unknown[] | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as { logs?: unknown; log?: { logs_array?: unknown } };
  if (Array.isArray(b.logs)) return b.logs as unknown[];
  if (typeof b.log === 'object' && b.log !== null && Array.isArray(b.log.logs_array)) return b.log.logs_array as unknown[];
  return null;
}

const LOG_FIELDS = [
  'message', 'level', 'created_at', 'battery_voltage', 'wifi_signal', 'wifi_status', 'refresh_rate', 'sleep_duration',
  'firmware_version', 'wake_reason', 'free_heap_size', 'special_function', 'source_path', 'source_line', 'retry',
] as const;

/** The known fields of a device log entry, strings cut to 500 characters: nothing else reaches our log. */
function pickLogFields(entry: unknown): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  if (typeof entry !== 'object' || entry === null) return out;
  for (const k of LOG_FIELDS) {
    const v = (entry as Record<string, unknown>)[k];
    if (typeof v === 'string') out[k] = v.slice(0, 500);
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}
