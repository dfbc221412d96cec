import { esphomeGlass, type DrawCall } from './esphome-image.js';
import { networkError, seconds, type FetchFn, type FetchOutcome, type Transport } from './transport.js';

/**
 * An ESPHome device with the YAML of config/esphome/ (docs/guides/esphome.md): online_image pulls frame.bmp (or
 * frame.png) with If-None-Match / If-Modified-Since; a 304 is `cached`. It sees no X-Refresh-Rate (online_image keeps
 * only ETag, Last-Modified and Content-Type), so it wakes on its fixed update_interval; with `deepSleep` (the battery
 * YAML) it first reads /displays/<id>/sleep.txt and sleeps that long, and remembers nothing across the sleep (no ETag:
 * every wake downloads). What it hands the device is the glass after ESPHome's decoding and the draw call.
 */

export interface EsphomeTransportOptions {
  baseUrl: string;
  displayId: string;
  /** The frame the YAML pulls: bmp for 800-wide black/white panels, png where BMP rows would be padded. */
  format: 'bmp' | 'png';
  /** The battery YAML: sleep.txt before the frame, deep sleep after, no conditional GET. */
  deepSleep: boolean;
  /** With `deepSleep`: whether it reads sleep.txt (default true); false: a battery YAML on a fixed deep sleep. */
  readSleepTxt?: boolean;
  /** The YAML's driver and it.image(...) colours (ourDrawCall(driver) for the files we ship). */
  draw: DrawCall;
  fetch?: FetchFn;
  timeoutMs?: number;
}

export class EsphomeTransport implements Transport {
  readonly via = 'esphome' as const;
  readonly #o: EsphomeTransportOptions;
  #etag: string | null = null;
  #lastModified: string | null = null;

  constructor(opts: EsphomeTransportOptions) {
    this.#o = opts;
  }

  async fetch(): Promise<FetchOutcome> {
    const base = `${this.#o.baseUrl.replace(/\/+$/, '')}/displays/${encodeURIComponent(this.#o.displayId)}`;
    const doFetch = this.#o.fetch ?? fetch;
    const signal = (): AbortSignal => AbortSignal.timeout(this.#o.timeoutMs ?? 10_000);
    // Fixed update_interval: the device's own interval (refreshRateS null); battery: the served seconds.
    let sleepS: number | null = null;
    try {
      if (this.#o.deepSleep && this.#o.readSleepTxt !== false) {
        const res = await doFetch(`${base}/sleep.txt`, { signal: signal() });
        const n = Number.parseInt(await res.text(), 10);
        // The YAML keeps its 15-minute fallback for anything under a minute or not a number.
        sleepS = res.status === 200 && n >= 60 ? n : 900;
      }
      const headers: Record<string, string> = {};
      if (!this.#o.deepSleep && this.#etag !== null) headers['If-None-Match'] = this.#etag;
      if (!this.#o.deepSleep && this.#lastModified !== null) headers['If-Modified-Since'] = this.#lastModified;
      const res = await doFetch(`${base}/frame.${this.#o.format}`, { headers, signal: signal() });
      if (res.status === 304) {
        await res.body?.cancel();
        return { kind: 'unchanged', refreshRateS: sleepS, note: 'HTTP 304: on_download_finished with cached = true' };
      }
      if (res.status !== 200) {
        await res.body?.cancel();
        return {
          kind: 'error',
          code: 'ONLINE_IMAGE_HTTP',
          message: `online_image: HTTP ${res.status}`,
          refreshRateS: sleepS ?? seconds(res.headers.get('retry-after')),
        };
      }
      const bytes = Buffer.from(await res.arrayBuffer());
      this.#etag = res.headers.get('etag');
      this.#lastModified = res.headers.get('last-modified');
      let glass: Buffer;
      try {
        glass = esphomeGlass(bytes, this.#o.format, this.#o.draw);
      } catch (err) {
        return { kind: 'error', code: 'ONLINE_IMAGE_DECODE', message: (err as Error).message, refreshRateS: sleepS };
      }
      return {
        kind: 'image',
        bytes: glass,
        contentType: 'image/bmp',
        filename: null,
        downloaded: true,
        refreshRateS: sleepS,
        note: `HTTP 200, ${bytes.length} bytes of ${this.#o.format.toUpperCase()}, drawn as BINARY`,
      };
    } catch (err) {
      return networkError(err, sleepS);
    }
  }

  refused(): void {
    this.#etag = null;
    this.#lastModified = null;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
