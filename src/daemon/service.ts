import type { Logger } from 'pino';
import { systemClock, type Clock } from '../time/clock.js';
import { ConfigError, loadConfig, type LoadedConfig } from '../config/load.js';
import { secretValues } from '../config/secrets.js';
import { buildDaemon, type Daemon } from './daemon.js';
import { addLogSecrets, warningCode } from '../log/logging.js';
import { createNotifier, watchdogIntervalMs, type Notifier } from './systemd-notify.js';
import { Watchdog } from './watchdog.js';
import type { DrawFrame } from '../render/display-frame.js';

/**
 * How long a stop waits for a start (or reload) still under way after the daemon was told to stop, before it stops
 * without it: whatever holds a start (a broker, a disk, the service) must not hold the stop past systemd's
 * TimeoutStopSec (30 s in the unit), nor the CLI's own deadline (run-command.ts).
 */
const START_SETTLE_MS = 10_000;

export interface ServiceOptions {
  loaded: LoadedConfig;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  /** Draws every frame of every daemon it builds (reloads too): `run` passes a render process's; default in this process. */
  draw?: DrawFrame;
}

/**
 * The long-running service around the daemon: systemd readiness and watchdog, reload on SIGHUP (a bad new
 * config is reported and the running one kept), and an orderly stop. The CLI only wires signals to it.
 */
export class Service {
  readonly #logger: Logger;
  readonly #clock: Clock;
  readonly #draw: DrawFrame | undefined;
  readonly #notifier: Notifier | null;
  readonly #watchdog: Watchdog | null;
  #loaded: LoadedConfig;
  #daemon: Daemon | null = null;
  #busy: Promise<void> = Promise.resolve();
  #stopping = false;
  /** Resolved by stop(): ends the wait of a start that is still under way. */
  readonly #stopRequested: Promise<'stopped'>;
  #requestStop: () => void = () => undefined;

  constructor(opts: ServiceOptions) {
    const env = opts.env ?? process.env;
    this.#loaded = opts.loaded;
    this.#logger = opts.logger;
    this.#clock = opts.clock ?? systemClock;
    this.#draw = opts.draw;
    this.#stopRequested = new Promise((resolve) => {
      this.#requestStop = () => resolve('stopped');
    });
    this.#notifier = createNotifier({ env, logger: opts.logger.child({ part: 'systemd' }), clock: this.#clock });
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

  /**
   * Starts the daemon; READY=1 once the first frames are out. A stop() meanwhile cuts the start short: this returns
   * at once, whatever the start is still waiting for.
   */
  async start(): Promise<void> {
    const start = this.#startDaemon(this.#loaded);
    this.#busy = start.then(
      () => undefined,
      () => undefined,
    );
    const outcome = await Promise.race([start.then(() => 'started' as const), this.#stopRequested]);
    if (outcome === 'stopped' || this.#stopping) return;
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
   * whatever the start or a reload was doing is let finish (for START_SETTLE_MS at most), and the daemon stops.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#requestStop();
    this.#notifier?.stopping();
    this.#watchdog?.stop();
    await this.#daemon?.stop();
    if (!(await this.#settles(this.#busy, START_SETTLE_MS))) {
      this.#logger.warn(
        { code: 'W_STOP_START_HELD', waitedMs: START_SETTLE_MS },
        'the start was still under way after the stop; stopping without it',
      );
    }
    await this.#daemon?.stop();
    this.#daemon = null;
    // STOPPING=1 (and what was asked before it) delivered before the process may end: each child is bounded.
    await this.#notifier?.drained();
  }

  /** Whether `p` settles within `ms`. */
  async #settles(p: Promise<void>, ms: number): Promise<boolean> {
    let timer: unknown = null;
    const late = new Promise<boolean>((resolve) => {
      timer = this.#clock.setTimeout(() => resolve(false), ms);
    });
    const settled = await Promise.race([p.then(() => true), late]);
    this.#clock.clearTimeout(timer);
    return settled;
  }

  async #reload(): Promise<void> {
    if (this.#daemon === null || this.#stopping) return;
    this.#notifier?.reloading();
    let next: LoadedConfig;
    try {
      next = await loadConfig(this.#loaded.file);
    } catch (err) {
      const problems = err instanceof ConfigError ? err.problems : [(err as Error).message];
      this.#logger.error(
        { file: this.#loaded.file, problems, err },
        'reload refused: the new config has problems; the running one is kept',
      );
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

  /**
   * Builds the daemon and makes it this service's before starting it, so that a stop can reach it at once. A daemon
   * built after the stop has passed (it no longer waits for this) is stopped here, never started.
   */
  async #startDaemon(loaded: LoadedConfig): Promise<Daemon> {
    const daemon = await buildDaemon({
      loaded,
      logger: this.#logger,
      clock: this.#clock,
      ...(this.#draw !== undefined && { draw: this.#draw }),
    });
    this.#daemon = daemon;
    if (this.#stopping) {
      await daemon.stop();
      return daemon;
    }
    await daemon.start();
    return daemon;
  }

  #statusText(): string {
    const n = this.#loaded.config.displays.length;
    return `${n} display${n === 1 ? '' : 's'}`;
  }
}
