import type { RequestListener } from 'node:http';
import { buildHttpApp } from './app.js';
import type { HttpDeps } from './deps.js';
import { DisplayBoard } from '../state/display-board.js';
import { DisplayViews, type DisplayViewSource } from '../state/display-views.js';
import { parseListen, startHttpServer, type RunningHttpServer } from './server.js';
import type { DisplayUpdate, Publisher } from '../publish/publisher.js';
import { RefusalLog } from '../mqtt/broker/refusal-log.js';
import type { Locale } from '../i18n/locale.js';
import { displayRenderOptions } from '../render/display-render.js';
import { TrmnlImages, type TrmnlFormat } from '../trmnl/images.js';
import { TrmnlPairing } from '../trmnl/pairing.js';

/**
 * The HTTP publisher: keeps every display's newest frame (and its TRMNL image) and serves them. start() listens on
 * `listen` (http.listen, default 127.0.0.1:8321; port 0 lets the OS choose), stop() closes every connection.
 */

export interface HttpPublisherOptions extends HttpDeps {
  /** `host:port`. */
  listen: string;
  /** TRMNL pairing, shared with the Home Assistant button (MQTT); default one of this server's own. */
  pairing?: TrmnlPairing;
  /** Each display's locale (LoadedConfig.locales), for the TRMNL image drawn again for its panel; default English. */
  locales?: ReadonlyMap<string, Locale>;
}

export class HttpPublisher implements Publisher {
  readonly name = 'http';
  /** What the server shows of each display: the daemon's views, or its own from what it is handed. */
  readonly views: DisplayViewSource;
  /** Without the daemon's views: the board this publisher records its updates on. */
  readonly #ownBoard: DisplayBoard | null;
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
    if (opts.views !== undefined) {
      this.#ownBoard = null;
      this.views = opts.views;
    } else {
      const board = new DisplayBoard({ clock: opts.clock });
      this.#ownBoard = board;
      this.views = new DisplayViews({ board, displays: opts.displays, clock: opts.clock, nextUpdateAt: opts.nextUpdateAt, budget: opts.budget });
    }
    const devices = opts.trmnlDevices ?? [];
    this.trmnl = new TrmnlImages({
      formats: (id) => [...new Set<TrmnlFormat>(devices.filter((d) => d.display === id).map((d) => d.format ?? 'png'))],
      render: (display) => displayRenderOptions(display, { timezone: opts.timezone, locales: opts.locales }),
      clock: opts.clock,
      logger: opts.logger,
    });
    this.pairing = opts.pairing ?? new TrmnlPairing({ file: opts.pairingFile ?? null, clock: opts.clock, logger: opts.logger });
    this.#refusals = new RefusalLog({ logger: opts.logger, clock: opts.clock });
    this.app = buildHttpApp({ deps: opts, views: this.views, trmnl: this.trmnl, pairing: this.pairing, refusals: this.#refusals });
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
    // With the daemon's views the cycle has recorded this display's state already.
    this.#ownBoard?.recordUpdate(update);
  }

  async stop(): Promise<void> {
    const s = this.#server;
    this.#server = null;
    await s?.close();
    this.#refusals.flush();
  }
}
