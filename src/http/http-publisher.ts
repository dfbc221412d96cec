import type { RequestListener } from 'node:http';
import { buildHttpApp } from './app.js';
import type { HttpDeps } from './deps.js';
import type { DisplayViewSource, ShownView } from '../state/display-views.js';
import { parseListen, startHttpServer, type RunningHttpServer } from './server.js';
import type { Publisher } from '../publish/publisher.js';
import { RefusalLog } from '../log/refusal-log.js';
import { ListenError } from '../shared/http-listen.js';
import { displayRenderOptions, type DrawFrame, type RenderContext } from '../render/display-frame.js';
import { TrmnlImages } from '../trmnl/images.js';
import { bindingScreens } from '../trmnl/models.js';
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
  /** How the displays are drawn (renderContext(loaded): each one's locale and panel), for the TRMNL image drawn again
   * for its panel; default: the config's time zone, English. */
  render?: RenderContext;
  /** Draws the TRMNL images that need drawing again (the daemon's drawer); default in this process. */
  draw?: DrawFrame;
}

export class HttpPublisher implements Publisher {
  readonly name = 'http';
  /** What the server shows of each display: the daemon's views. */
  readonly views: DisplayViewSource;
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
    this.views = opts.views;
    const devices = opts.trmnlDevices ?? [];
    this.trmnl = new TrmnlImages({
      screens: (id) => bindingScreens(devices.filter((d) => d.display === id)),
      render: (display) => displayRenderOptions(display, opts.render ?? { timezone: opts.timezone }),
      ...(opts.draw !== undefined && { draw: opts.draw }),
      clock: opts.clock,
      logger: opts.logger,
    });
    this.pairing =
      opts.pairing ?? new TrmnlPairing({ file: opts.pairingFile ?? null, clock: opts.clock, logger: opts.logger });
    this.#refusals = new RefusalLog({ logger: opts.logger, clock: opts.clock });
    this.app = buildHttpApp({
      deps: opts,
      views: this.views,
      trmnl: this.trmnl,
      pairing: this.pairing,
      refusals: this.#refusals,
    });
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
    const addr = parseListen(this.#opts.listen);
    try {
      this.#server = await startHttpServer(this.app, addr);
    } catch (err) {
      // The same words and code as `check-config`'s trial of the address (cli/listen-probe.ts).
      throw new ListenError({ key: 'http.listen', host: addr.host, port: addr.port, cause: err });
    }
    this.#opts.logger?.info({ url: this.#server.url }, 'HTTP frame server listening');
  }

  /**
   * The server reads every display from the views as it serves; what a new view needs made ahead of the requests is
   * its TRMNL images.
   */
  async publish(view: ShownView): Promise<void> {
    await this.trmnl.prepare(view);
  }

  async stop(): Promise<void> {
    const s = this.#server;
    this.#server = null;
    await s?.close();
    this.#refusals.flush();
    // An offer's record written after the answer that made it: on disk before the process ends.
    await this.#opts.firmware?.flush();
    // Its devices' quiet timers: the book is filled by this server alone.
    this.#opts.devices?.close();
  }
}
