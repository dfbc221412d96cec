import {
  networkError,
  seconds,
  type DeviceLogEntry,
  type FetchFn,
  type FetchOutcome,
  type Transport,
  type WakeInfo,
} from './transport.js';

/**
 * A device on the TRMNL firmware, speaking its bring-your-own-server protocol:
 *   no api key yet → GET /api/setup (ID) → keep api_key and friendly_id (404: "MAC not registered", sleep)
 *   stored logs    → POST /api/log
 *   every wake     → GET /api/display (ID, Access-Token, Refresh-Rate, Battery-Voltage, RSSI, FW-Version, Model,
 *                    Width, Height; the 2026 firmware adds Update-Source, Battery-Charging, USB-Connected,
 *                    SENSORS, and Percent-Charged on TRMNL X boards); any HTTP status but 200/301/429 is an error; JSON status 0 ok, 202 not
 *                    registered yet (poll fast), 500 reset credentials; `maximum_compatibility: true` forces a
 *                    full refresh of the image
 *   a new filename → download image_url (ID and Access-Token when it is on the same server); up to 30 images are
 *                    kept by filename and a known name is drawn from flash without a download.
 */

export interface TrmnlTransportOptions {
  baseUrl: string;
  mac: string;
  fetch?: FetchFn;
  timeoutMs?: number;
  /** 1.6.x firmware asks `/api/setup/`, older `/api/setup`. */
  setupPath?: string;
  /** A device paired before: its access token, so the first wake asks /api/display without a setup. */
  apiKey?: string;
}

const CACHE_SIZE = 30;
/** `refreshInterval.applyFastPoll()` after a 202. */
const FAST_POLL_S = 30;

interface Cached {
  bytes: Buffer;
  contentType: string | null;
}

export class TrmnlTransport implements Transport {
  readonly via = 'trmnl' as const;
  readonly #o: TrmnlTransportOptions;
  readonly #base: string;
  #apiKey: string | null = null;
  #friendlyId: string | null = null;
  readonly #cache = new Map<string, Cached>();
  #logs: DeviceLogEntry[] = [];

  constructor(opts: TrmnlTransportOptions) {
    this.#o = opts;
    this.#base = opts.baseUrl.replace(/\/+$/, '');
    this.#apiKey = opts.apiKey ?? null;
  }

  get friendlyId(): string | null {
    return this.#friendlyId;
  }

  get registered(): boolean {
    return this.#apiKey !== null;
  }

  #get(url: string, headers: Record<string, string>, init: RequestInit = {}): Promise<Response> {
    return (this.#o.fetch ?? fetch)(url, {
      ...init,
      headers,
      signal: AbortSignal.timeout(this.#o.timeoutMs ?? 15_000),
    });
  }

  async #setup(info: WakeInfo): Promise<FetchOutcome | null> {
    let res: Response;
    try {
      res = await this.#get(`${this.#base}${this.#o.setupPath ?? '/api/setup/'}`, {
        ID: this.#o.mac,
        'FW-Version': info.fwVersion,
        Model: info.model,
      });
    } catch (err) {
      return networkError(err);
    }
    const text = await res.text().catch(() => '');
    if (res.status === 404) {
      // The firmware shows the server's message on its "not registered" screen (ours says how to open pairing).
      let said: unknown = null;
      try {
        said = (JSON.parse(text) as { message?: unknown } | null)?.message;
      } catch {
        // no JSON body: the firmware's own words only
      }
      return {
        kind: 'error',
        code: 'MAC_NOT_REGISTERED',
        message: `MAC Address is not registered on server${typeof said === 'string' && said !== '' ? `: ${said.slice(0, 200)}` : ''}`,
        refreshRateS: null,
      };
    }
    if (res.status !== 200)
      return {
        kind: 'error',
        code: 'API_SETUP_FAILED',
        message: `setup failed: HTTP ${res.status}`,
        refreshRateS: null,
      };
    let body: { status?: unknown; api_key?: unknown; friendly_id?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      return {
        kind: 'error',
        code: 'HTTPS_JSON_PARSING_ERR',
        message: 'JSON deserialization error',
        refreshRateS: null,
      };
    }
    if (body.status !== 200 || typeof body.api_key !== 'string' || body.api_key === '') {
      return {
        kind: 'error',
        code: 'API_SETUP_FAILED',
        message: `setup status ${String(body.status)}`,
        refreshRateS: null,
      };
    }
    this.#apiKey = body.api_key;
    this.#friendlyId = typeof body.friendly_id === 'string' ? body.friendly_id : null;
    return null;
  }

  async #submitLogs(): Promise<void> {
    if (this.#logs.length === 0 || this.#apiKey === null) return;
    const logs = this.#logs;
    try {
      const res = await this.#get(
        `${this.#base}/api/log`,
        { ID: this.#o.mac, 'Access-Token': this.#apiKey, 'Content-Type': 'application/json' },
        {
          method: 'POST',
          body: JSON.stringify({ logs }),
        },
      );
      await res.body?.cancel();
      if (res.status === 200 || res.status === 204) this.#logs = [];
    } catch {
      // kept for the next wake
    }
  }

  async fetch(info: WakeInfo): Promise<FetchOutcome> {
    if (this.#apiKey === null) {
      const failed = await this.#setup(info);
      if (failed) return failed;
    }
    await this.#submitLogs();
    const headers: Record<string, string> = {
      ID: this.#o.mac,
      'Access-Token': this.#apiKey!,
      'Refresh-Rate': String(info.refreshRateS),
      'Battery-Voltage': info.batteryVolts.toFixed(2),
      RSSI: String(info.rssi),
      'FW-Version': info.fwVersion,
      Model: info.model,
      Width: String(info.width),
      Height: String(info.height),
      'Update-Source': info.wakeReason,
      ...(info.extra !== null && extraHeaders(info)),
    };
    let res: Response;
    try {
      res = await this.#get(`${this.#base}/api/display`, headers);
    } catch (err) {
      return networkError(err);
    }
    const text = await res.text().catch(() => '');
    if (![200, 301, 429].includes(res.status)) {
      return {
        kind: 'error',
        code: 'HTTPS_RESPONSE_CODE_INVALID',
        message: `HTTP Client failed with error: (${res.status})`,
        refreshRateS: null,
      };
    }
    let body: {
      status?: unknown;
      image_url?: unknown;
      filename?: unknown;
      refresh_rate?: unknown;
      maximum_compatibility?: unknown;
    };
    try {
      body = JSON.parse(text) as typeof body;
    } catch (err) {
      return {
        kind: 'error',
        code: 'HTTPS_JSON_PARSING_ERR',
        message: `JSON parse failed with error: ${(err as Error).message}`,
        refreshRateS: null,
      };
    }
    const rate =
      typeof body.refresh_rate === 'number' || typeof body.refresh_rate === 'string'
        ? seconds(String(body.refresh_rate))
        : null;
    if (body.status === 202)
      return { kind: 'nothing', refreshRateS: FAST_POLL_S, note: 'not registered yet (status 202)' };
    if (body.status === 500) {
      this.#apiKey = null;
      return {
        kind: 'error',
        code: 'HTTPS_RESET',
        message: 'server asked for a reset: credentials cleared',
        refreshRateS: FAST_POLL_S,
      };
    }
    if (body.status !== 0) return { kind: 'nothing', refreshRateS: rate, note: `status ${String(body.status)}` };
    const imageUrl = typeof body.image_url === 'string' ? body.image_url : '';
    const filename = typeof body.filename === 'string' ? body.filename : '';
    if (imageUrl === '') return { kind: 'nothing', refreshRateS: rate, note: 'no image_url' };
    const hit = this.#cache.get(filename);
    if (filename !== '' && hit) {
      return {
        kind: 'image',
        ...hit,
        filename,
        downloaded: false,
        refreshRateS: rate,
        note: `${filename} drawn from flash`,
      };
    }
    const got = await this.#download(imageUrl, filename, headers, rate);
    // The firmware reads the flag with the image it came with (parse_response_api_display.cpp).
    return got.kind === 'image' && body.maximum_compatibility === true
      ? { ...got, fullRefresh: true, note: `${got.note}, maximum_compatibility` }
      : got;
  }

  async #download(
    imageUrl: string,
    filename: string,
    headers: Record<string, string>,
    rate: number | null,
  ): Promise<FetchOutcome> {
    const same = imageUrl.startsWith(this.#base);
    let res: Response;
    try {
      res = await this.#get(
        imageUrl,
        same
          ? { ID: headers.ID!, 'Access-Token': headers['Access-Token']!, 'Accept-Encoding': 'identity' }
          : { 'Accept-Encoding': 'identity' },
      );
    } catch (err) {
      return networkError(err, rate);
    }
    if (res.status !== 200 && res.status !== 301) {
      await res.body?.cancel();
      return {
        kind: 'error',
        code: 'HTTPS_REQUEST_FAILED',
        message: `[HTTPS] GET... failed, code: ${res.status}`,
        refreshRateS: rate,
      };
    }
    let bytes: Buffer;
    try {
      bytes = Buffer.from(await res.arrayBuffer());
    } catch (err) {
      return {
        kind: 'error',
        code: 'HTTPS_TIMED_OUT',
        message: `Receiving failed; incomplete download (${(err as Error).message})`,
        refreshRateS: rate,
      };
    }
    const contentType = res.headers.get('content-type');
    if (filename !== '') {
      this.#cache.delete(filename);
      this.#cache.set(filename, { bytes, contentType });
      while (this.#cache.size > CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value!);
    }
    return {
      kind: 'image',
      bytes,
      contentType,
      filename: filename || null,
      downloaded: true,
      refreshRateS: rate,
      note: `downloaded ${filename || imageUrl}`,
    };
  }

  /** The firmware deletes an image it could not decode, so the name is downloaded again next time. */
  refused(filename: string | null): void {
    if (filename !== null) this.#cache.delete(filename);
  }

  log(entry: DeviceLogEntry): void {
    this.#logs.push(entry);
    if (this.#logs.length > 50) this.#logs.shift();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The 2026 firmware's headers (request_headers.cpp): power on every board, the fuel gauge's percent on the X. */
function extraHeaders(info: WakeInfo): Record<string, string> {
  const x = info.extra!;
  return {
    'Battery-Charging': x.charging ? '1' : '0',
    'USB-Connected': x.usbConnected ? 'true' : 'false',
    ...(x.percentCharged && { 'Percent-Charged': String(Math.round(info.batteryPct)) }),
    ...(x.sensors !== null && { SENSORS: x.sensors }),
  };
}
