import type { FetchReason } from '../budget/governor-types.js';
import type { CycleResult } from './cycle-result.js';
import type { DisplayCycle } from './cycle.js';
import type { RefreshGate } from './refresh-gate.js';

/** Runs the displays' cycles: what the schedule's ticks, the refresh buttons and `once` ask for. */
export interface DisplayRuns {
  /** A cycle of the display, shared with one of it in flight. */
  run(displayId: string, reason: FetchReason): Promise<CycleResult>;
  /** A refresh press, through the refresh gate and the budget's reserve; null when refused. */
  refresh(displayId: string): Promise<CycleResult | null>;
  /** Draws and publishes the display's state again, no fetch (its answer went stale). */
  redraw(displayId: string): Promise<unknown>;
}

export interface DisplayRunnerOptions {
  cycles: ReadonlyMap<string, DisplayCycle>;
  /** Refuses presses without a refresh reserve or too soon after the last one. */
  refreshGate: RefreshGate;
  /** Aborted when the daemon stops: a cycle in flight ends early. */
  signal: AbortSignal;
}

/**
 * The one place a display's ticks and presses are coalesced (the governor relies on it): a cycle of a display in
 * flight is shared by whoever asks for another.
 */
export class DisplayRunner implements DisplayRuns {
  readonly #o: DisplayRunnerOptions;
  readonly #inFlight = new Map<string, Promise<CycleResult>>();
  /** Redraws under way (no fetch), which a cycle of the display waits for. */
  readonly #redrawing = new Map<string, Promise<unknown>>();

  constructor(opts: DisplayRunnerOptions) {
    this.#o = opts;
  }

  /** The cycles in flight, for a stop to wait on. */
  inFlight(): Promise<CycleResult>[] {
    return [...this.#inFlight.values()];
  }

  /** The redraws under way (a display whose answer went stale), which never fail. */
  redrawing(): Promise<unknown>[] {
    return [...this.#redrawing.values()];
  }

  run(id: string, reason: FetchReason): Promise<CycleResult> {
    const running = this.#inFlight.get(id);
    if (running) return running;
    const cycle = this.#o.cycles.get(id);
    if (!cycle) return Promise.reject(new Error(`no display with id "${id}"`));
    // After a redraw under way, never beside it: the last frame published is the newest state.
    const redrawing = this.#redrawing.get(id);
    const start = (): Promise<CycleResult> => cycle.run(reason, this.#o.signal);
    // Started in this very step when nothing is redrawn: the governor's gate is taken in the caller's order.
    const p = (redrawing === undefined ? start() : redrawing.then(start)).finally(() => this.#inFlight.delete(id));
    this.#inFlight.set(id, p);
    return p;
  }

  /**
   * Draws and publishes the display's state again, with no fetch (its answer went stale). Skipped while a cycle of
   * it runs: that cycle draws the same state anyway.
   */
  redraw(id: string): Promise<unknown> {
    const cycle = this.#o.cycles.get(id);
    if (!cycle || this.#inFlight.has(id) || this.#redrawing.has(id)) return Promise.resolve();
    const p = cycle.publishCurrent().finally(() => this.#redrawing.delete(id));
    this.#redrawing.set(
      id,
      p.catch(() => undefined),
    );
    return p;
  }

  /**
   * A press shares a cycle of the display in flight; otherwise the refresh gate (no reserve, too soon) and then the
   * governor (the reserve's credits) decide. A refused press changes nothing on the wall.
   */
  async refresh(id: string): Promise<CycleResult | null> {
    const cycle = this.#o.cycles.get(id);
    if (!cycle) return null;
    const running = this.#inFlight.get(id);
    if (running) return running;
    const verdict = this.#o.refreshGate.press(id);
    if (!verdict.ok) {
      await cycle.refuseRefresh(verdict.refusal);
      return null;
    }
    return this.run(id, 'refresh');
  }
}
