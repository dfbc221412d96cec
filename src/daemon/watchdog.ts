import type { Clock } from '../time/clock.js';
import type { Notifier } from './systemd-notify.js';

/**
 * Pets the systemd watchdog at half of WATCHDOG_USEC, but only while the daemon is healthy: the event loop
 * runs (a blocked loop never reaches the timer) and the scheduler reports itself healthy. A stuck scheduler
 * therefore gets no WATCHDOG=1, and systemd restarts the service.
 */
export class Watchdog {
  readonly #clock: Clock;
  readonly #notifier: Notifier;
  readonly #intervalMs: number;
  readonly #healthy: () => boolean;
  #timer: unknown = null;

  constructor(opts: { clock: Clock; notifier: Notifier; intervalMs: number; healthy: () => boolean }) {
    this.#clock = opts.clock;
    this.#notifier = opts.notifier;
    this.#intervalMs = opts.intervalMs;
    this.#healthy = opts.healthy;
  }

  start(): void {
    if (this.#timer !== null) return;
    const tick = (): void => {
      if (this.#healthy()) this.#notifier.watchdog();
      this.#timer = this.#clock.setTimeout(tick, this.#intervalMs);
    };
    this.#timer = this.#clock.setTimeout(tick, this.#intervalMs);
  }

  stop(): void {
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer);
    this.#timer = null;
  }
}
