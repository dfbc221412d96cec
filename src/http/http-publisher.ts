import type { RequestListener } from 'node:http';
import { buildHttpApp } from './app.js';
import type { HttpDeps } from './deps.js';
import { FrameStore } from './frame-store.js';
import { parseListen, startHttpServer, type RunningHttpServer } from './server.js';
import type { DisplayUpdate, Publisher } from '../publish/publisher.js';
import { systemClock } from '../budget/clock.js';
import { RefusalLog } from '../mqtt/broker/refusal-log.js';
import { TrmnlImages, type TrmnlFormat } from '../trmnl/images.js';
import { TrmnlPairing } from '../trmnl/pairing.js';

/**
 * The HTTP publisher: keeps every display's newest frame (and its TRMNL image) and serves them. start() listens on
 * `listen` (http.listen, default 127.0.0.1:8321; port 0 lets the OS choose), stop() closes every connection.
 */

export interface HttpPublisherOptions extends HttpDeps {
  /** `host:port`. */
  listen: string;
}

export class HttpPublisher implements Publisher {
  readonly name = 'http';
  readonly frames: FrameStore;
  readonly trmnl: TrmnlImages;
  /** The request listener, for tests or another server. */
  readonly app: RequestListener;
  /** TRMNL pairing: open() it for a device (the Home Assistant button; tests). */
  readonly pairing: TrmnlPairing;
  readonly #refusals: RefusalLog;
  readonly #opts: HttpPublisherOptions;
  #server: RunningHttpServer | null = null;

  constructor(opts: HttpPublisherOptions) {
    this.#opts = opts;
    parseListen(opts.listen);
    this.frames = new FrameStore(opts.now);
    const devices = opts.trmnlDevices ?? [];
    this.trmnl = new TrmnlImages({
      formats: (id) => [...new Set<TrmnlFormat>(devices.filter((d) => d.display === id).map((d) => d.format ?? 'png'))],
      timezone: opts.timezone,
      now: opts.now,
      logger: opts.logger,
    });
    this.pairing = new TrmnlPairing({ file: opts.pairingFile ?? null, now: opts.now, logger: opts.logger });
    const timers = opts.timers ?? systemClock;
    this.#refusals = new RefusalLog({
      logger: opts.logger,
      clock: { now: opts.now, setTimeout: (fn, ms) => timers.setTimeout(fn, ms), clearTimeout: (h) => timers.clearTimeout(h) },
    });
    this.app = buildHttpApp({ deps: opts, frames: this.frames, trmnl: this.trmnl, pairing: this.pairing, refusals: this.#refusals });
  }

  /** `http://127.0.0.1:8321` once started. */
  get url(): string | null {
    return this.#server?.url ?? null;
  }

  get port(): number | null {
    return this.#server?.port ?? null;
  }

  async start(): Promise<void> {
    if (this.#server) return;
    this.#server = await startHttpServer(this.app, parseListen(this.#opts.listen));
    this.#opts.logger?.info({ url: this.#server.url }, 'HTTP frame server listening');
  }

  async publish(update: DisplayUpdate): Promise<void> {
    // The TRMNL image first: a device asking between the two steps still gets a name it can download.
    await this.trmnl.prepare(update);
    this.frames.record(update);
  }

  async stop(): Promise<void> {
    const s = this.#server;
    this.#server = null;
    await s?.close();
    this.#refusals.flush();
  }
}
