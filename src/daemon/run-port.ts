import type { FetchReason } from '../budget/governor-types.js';
import type { CycleResult } from './cycle-result.js';
import type { DisplayRuns } from './display-runner.js';

/**
 * The one edge of the daemon's wiring that points forward. The cycles hand their frames to the publishers, and the
 * publishers (the MQTT button, the status page) and the scheduler's ticks ask for cycles: one of them must be built
 * before the other exists. The port is built first and given to the publishers and the scheduler; buildDaemon binds
 * it to the runner once the cycles exist, before it returns, so nothing can press it unbound.
 */
export class RunPort implements DisplayRuns {
  #target: DisplayRuns | null = null;

  /** Once: a second binding is a wiring mistake. */
  bind(target: DisplayRuns): void {
    if (this.#target !== null) throw new Error('RunPort is already bound');
    this.#target = target;
  }

  run(displayId: string, reason: FetchReason): Promise<CycleResult> {
    return this.#bound().run(displayId, reason);
  }

  refresh(displayId: string): Promise<CycleResult | null> {
    return this.#bound().refresh(displayId);
  }

  redraw(displayId: string): Promise<unknown> {
    return this.#bound().redraw(displayId);
  }

  #bound(): DisplayRuns {
    if (this.#target === null) throw new Error('RunPort used before the runner was bound');
    return this.#target;
  }
}
