import type { Logger } from 'pino';
import { systemClock, type Clock } from './time/clock.js';
import { ConfigError, loadConfig, type LoadedConfig } from './config/load.js';
import { secretValues } from './config/redactor.js';
import { buildDaemon, type Daemon } from './daemon.js';
import { addLogSecrets, warningCode } from './logging.js';
import { createNotifier, watchdogIntervalMs, type Notifier } from './systemd-notify.js';
import { Watchdog } from './watchdog.js';

export interface ServiceOptions {
  loaded: LoadedConfig;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
}

/**
 * The long-running service around the daemon: systemd readiness and watchdog, reload on SIGHUP (a bad new
 * config is reported and the running one kept), and an orderly stop. The CLI only wires signals to it.
 */
export class Service {
  readonly #logger: Logger;
  readonly #clock: Clock;
  readonly #notifier: Notifier | null;
  readonly #watchdog: Watchdog | null;
  #loaded: LoadedConfig;
  #daemon: Daemon | null = null;
  #busy: Promise<void> = Promise.resolve();
  #stopping = false;

  constructor(opts: ServiceOptions) {
    const env = opts.env ?? process.env;
    this.#loaded = opts.loaded;
    this.#logger = opts.logger;
    this.#clock = opts.clock ?? systemClock;
    this.#notifier = createNotifier({ env, logger: opts.logger.child({ part: 'systemd' }) });
    const interval = watchdogIntervalMs(env);
    this.#watchdog =
      this.#notifier && interval !== null
        ? new Watchdog({
            clock: this.#clock,
            notifier: this.#notifier,
            intervalMs: interval,
            healthy: () => this.#daemon?.healthy() ?? false,
          })
        : null;
  }

  get daemon(): Daemon | null {
    return this.#daemon;
  }

  /** Starts the daemon; READY=1 once the first frames are out. A stop() meanwhile cuts the start short. */
  async start(): Promise<void> {
    const start = this.#startDaemon(this.#loaded);
    this.#busy = start.then(
      () => undefined,
      () => undefined,
    );
    await start;
    if (this.#stopping) return;
    this.#notifier?.ready(this.#statusText());
    this.#watchdog?.start();
  }

  /** Reloads the config file. Serialized with other reloads and the stop. */
  reload(): Promise<void> {
    if (this.#stopping) return Promise.resolve();
    this.#busy = this.#busy.then(() => this.#reload());
    return this.#busy;
  }

  /**
   * STOPPING=1, then the daemon's orderly stop: a cycle in flight is aborted at once (not waited for), then
   * whatever the start or a reload was doing is let finish, and the daemon stops.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#notifier?.stopping();
    this.#watchdog?.stop();
    await this.#daemon?.stop();
    await this.#busy;
    await this.#daemon?.stop();
    this.#daemon = null;
  }

  async #reload(): Promise<void> {
    if (this.#daemon === null || this.#stopping) return;
    this.#notifier?.reloading();
    let next: LoadedConfig;
    try {
      next = await loadConfig(this.#loaded.file);
    } catch (err) {
      const problems = err instanceof ConfigError ? err.problems : [(err as Error).message];
      this.#logger.error({ file: this.#loaded.file, problems, err }, 'reload refused: the new config has problems; the running one is kept');
      this.#notifier?.ready(this.#statusText());
      return;
    }
    addLogSecrets(this.#logger, secretValues(next.secrets));
    for (const w of next.warnings) this.#logger.warn(warningCode(w), w);
    await this.#daemon.stop();
    try {
      this.#daemon = await this.#startDaemon(next);
      this.#loaded = next;
      this.#logger.info({ displays: next.config.displays.map((d) => d.id) }, 'config reloaded');
    } catch (err) {
      this.#logger.error({ err }, 'reload failed; starting again with the previous config');
      this.#daemon = await this.#startDaemon(this.#loaded);
    }
    this.#notifier?.ready(this.#statusText());
  }

  /** Builds the daemon and makes it this service's before starting it, so that a stop can reach it at once. */
  async #startDaemon(loaded: LoadedConfig): Promise<Daemon> {
    const daemon = await buildDaemon({ loaded, logger: this.#logger, clock: this.#clock });
    this.#daemon = daemon;
    await daemon.start();
    return daemon;
  }

  #statusText(): string {
    const n = this.#loaded.config.displays.length;
    return `${n} display${n === 1 ? '' : 's'}`;
  }
}
