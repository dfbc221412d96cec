import { networkError, seconds, type FetchFn, type FetchOutcome, type Transport, type WakeInfo } from './transport.js';

/**
 * A plain pulling device (an ESP32 board, a jailbroken Kindle): GET /displays/<id>/frame.png with the ETag of the
 * picture it shows; 304 means nothing to do. A Kindle adds its battery to the query, as the online-screensaver does. It sleeps for X-Refresh-Rate seconds when the server sends one.
 */

export interface HttpTransportOptions {
  baseUrl: string;
  displayId: string;
  fetch?: FetchFn;
  timeoutMs?: number;
  /** A Kindle on the online-screensaver: asks `?batteryLevel=N&isCharging=No` with its battery at each wake. */
  kindle?: boolean;
}

export class HttpTransport implements Transport {
  readonly via = 'http' as const;
  readonly #o: HttpTransportOptions;
  #etag: string | null = null;

  constructor(opts: HttpTransportOptions) {
    this.#o = opts;
  }

  async fetch(info: WakeInfo): Promise<FetchOutcome> {
    const frame = `${this.#o.baseUrl.replace(/\/+$/, '')}/displays/${encodeURIComponent(this.#o.displayId)}/frame.png`;
    // The extension sends whole percent; a simulated Kindle runs on battery, never on its cable.
    const url = this.#o.kindle ? `${frame}?batteryLevel=${Math.round(info.batteryPct)}&isCharging=No` : frame;
    const doFetch = this.#o.fetch ?? fetch;
    let res: Response;
    try {
      res = await doFetch(url, {
        headers: this.#etag === null ? {} : { 'If-None-Match': this.#etag },
        signal: AbortSignal.timeout(this.#o.timeoutMs ?? 15_000),
      });
    } catch (err) {
      return networkError(err);
    }
    const refreshRateS = seconds(res.headers.get('x-refresh-rate'));
    if (res.status === 304) {
      await res.body?.cancel();
      return { kind: 'unchanged', refreshRateS, note: 'HTTP 304 Not Modified' };
    }
    if (res.status === 503) {
      await res.body?.cancel();
      return {
        kind: 'nothing',
        refreshRateS: seconds(res.headers.get('retry-after')) ?? refreshRateS,
        note: 'no frame yet (503)',
      };
    }
    if (res.status !== 200) {
      await res.body?.cancel();
      return {
        kind: 'error',
        code: 'HTTPS_REQUEST_FAILED',
        message: `[HTTPS] GET... failed, code: ${res.status}`,
        refreshRateS,
      };
    }
    let bytes: Buffer;
    try {
      bytes = Buffer.from(await res.arrayBuffer());
    } catch (err) {
      return {
        kind: 'error',
        code: 'HTTPS_TIMED_OUT',
        message: `Receiving failed; connection closed mid-download (${(err as Error).message})`,
        refreshRateS,
      };
    }
    const etag = res.headers.get('etag');
    // Sent as If-None-Match next time; forgotten if the device refuses the picture (see refused()).
    this.#etag = etag;
    return {
      kind: 'image',
      bytes,
      contentType: res.headers.get('content-type'),
      filename: null,
      downloaded: true,
      refreshRateS,
      note: `HTTP 200, ETag ${etag ?? 'none'}`,
    };
  }

  /** A refused picture must be downloaded again next time, not answered with 304. */
  refused(): void {
    this.#etag = null;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
