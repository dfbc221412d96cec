import type { StoredRecommendation } from '../api/schemas.js';
import type { DisplayConfig } from '../config/schema.js';
import type { DisplaySnapshot, RefreshNotice } from '../daemon/cycle.js';
import type { OutputProblem } from '../publish/output-error.js';
import type { DisplayUpdate } from '../publish/publisher.js';
import type { Frame, FrameStatus } from '../render/frame.js';
import type { StateProblem } from '../store/state-error.js';
import type { Clock } from '../time/clock.js';

/**
 * What each display's cycle last wrote down: its own state, apart from what the schedule (the next update) and the
 * budget (credits, the ledger's problem) add when it is read (display-views.ts). The cycles write it whenever their
 * state changes (before the publishers hear of a frame); the scheduler reads when each display last had an answer.
 */

/** One display as its cycle last recorded it. */
export interface BoardEntry {
  readonly display: DisplayConfig;
  /** The last good Recommendation (kept through failures), or null before the first. */
  readonly rec: StoredRecommendation | null;
  readonly status: FrameStatus;
  /** The frame on the wall, or null before the first. */
  readonly frame: Frame | null;
  readonly lastError: DisplaySnapshot['lastError'];
  /** When the shown answer was bought; null when never, or when its date cannot be believed (a clock that was wrong). */
  readonly lastSuccessAt: string | null;
  /** This display's own state problem (its last good answer cannot be saved); the ledger's is the budget's. */
  readonly stateProblem: StateProblem | null;
  /** This display's frame files could not be written (E_OUTPUT_WRITE), until a write succeeds; absent: none. */
  readonly outputProblem?: OutputProblem | null;
  /** The last refused refresh (the reader hides it once it is old). */
  readonly refreshRefused: RefreshNotice | null;
  /** The next update the cycle announced: used only where nothing reads the schedule itself (a publisher alone). */
  readonly nextUpdateAt: Date | null;
}

/** A recorded entry and the times the board adds: when its frame's bytes first appeared, when it was recorded. */
export interface BoardRecord {
  readonly entry: BoardEntry;
  /** When a frame with these bytes first appeared (HTTP's Last-Modified: a frame sent again keeps its time). */
  readonly frameSince: Date | null;
  readonly updatedAt: Date;
}

/** The write side, as a cycle sees it. */
export interface BoardWriter {
  record(entry: BoardEntry): void;
}

export interface DisplayBoardOptions {
  /** When frames first appeared and entries were recorded. */
  clock: Pick<Clock, 'now'>;
}

export class DisplayBoard implements BoardWriter {
  readonly #records = new Map<string, BoardRecord>();
  readonly #clock: Pick<Clock, 'now'>;

  constructor(opts: DisplayBoardOptions) {
    this.#clock = opts.clock;
  }

  record(entry: BoardEntry): void {
    const at = new Date(this.#clock.now());
    const prev = this.#records.get(entry.display.id);
    const frame = entry.frame;
    const frameSince = frame === null ? null : prev?.entry.frame?.hash === frame.hash && prev.frameSince !== null ? prev.frameSince : at;
    this.#records.set(entry.display.id, { entry, frameSince, updatedAt: at });
  }

  /**
   * A publisher used without a daemon (tests, the firmware simulator) records what it is handed: the update is all it
   * knows, so the answer's own time counts as the last success.
   */
  recordUpdate(update: DisplayUpdate): void {
    const rec = update.rec ?? this.#records.get(update.display.id)?.entry.rec ?? null;
    this.record({
      display: update.display,
      rec,
      status: update.status,
      frame: update.frame,
      lastError: null,
      lastSuccessAt: rec?.fetched_at ?? null,
      stateProblem: update.stateProblem ?? null,
      outputProblem: update.outputProblem ?? null,
      refreshRefused: update.refreshRefused ?? null,
      nextUpdateAt: update.nextUpdateAt,
    });
  }

  get(displayId: string): BoardRecord | null {
    return this.#records.get(displayId) ?? null;
  }

  /** When the display's shown answer was bought (ms), or null: the scheduler's catch-up ticks skip a fresh one. */
  lastAnswerAt(displayId: string): number | null {
    const at = this.#records.get(displayId)?.entry.lastSuccessAt ?? null;
    return at === null ? null : Date.parse(at);
  }
}
