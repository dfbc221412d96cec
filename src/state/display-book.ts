import type { Clock } from '../time/clock.js';
import type { DisplayState } from './display-state.js';

/**
 * What each display's cycle last wrote down: its own state, apart from what the schedule (the next update) and the
 * budget (credits, the ledger's problem) add when it is read (display-views.ts). The cycles write it whenever their
 * state changes (before the publishers hear of a frame); the scheduler reads when each display last had an answer.
 */

/** A recorded entry and the times the book adds: when its frame's bytes first appeared, when it was recorded. */
export interface DisplayRecord {
  readonly entry: DisplayState;
  /** When a frame with these bytes first appeared (HTTP's Last-Modified: a frame sent again keeps its time). */
  readonly frameSince: Date | null;
  readonly updatedAt: Date;
}

/** The write side, as a cycle sees it. */
export interface DisplayBookWriter {
  record(entry: DisplayState): void;
}

export interface DisplayBookOptions {
  /** When frames first appeared and entries were recorded. */
  clock: Pick<Clock, 'now'>;
}

export class DisplayBook implements DisplayBookWriter {
  readonly #records = new Map<string, DisplayRecord>();
  readonly #clock: Pick<Clock, 'now'>;

  constructor(opts: DisplayBookOptions) {
    this.#clock = opts.clock;
  }

  record(entry: DisplayState): void {
    const at = new Date(this.#clock.now());
    const prev = this.#records.get(entry.display.id);
    const frame = entry.frame;
    const frameSince =
      frame === null ? null : prev?.entry.frame?.hash === frame.hash && prev.frameSince !== null ? prev.frameSince : at;
    this.#records.set(entry.display.id, { entry, frameSince, updatedAt: at });
  }

  get(displayId: string): DisplayRecord | null {
    return this.#records.get(displayId) ?? null;
  }

  /** When the display's shown answer was bought (ms), or null: the scheduler's catch-up ticks skip a fresh one. */
  lastAnswerAt(displayId: string): number | null {
    const at = this.#records.get(displayId)?.entry.lastSuccessAt ?? null;
    return at === null ? null : Date.parse(at);
  }
}
