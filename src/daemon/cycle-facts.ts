import type { StoredRecommendation } from '../api/schemas.js';
import type { FrameStatus } from '../domain/frame-status.js';
import type { LastError, RefreshNotice } from '../state/display-state.js';
import type { StoreProblem } from '../store/store-error.js';

/**
 * What a display's cycle knows of its display, shared by its two halves: the cycle (cycle.ts) buys and keeps the
 * answer and says what went wrong; its frames (cycle-frames.ts) draw, publish and record what it knows. One record, so
 * that both read the same state and neither keeps a copy that could fall behind.
 */
export class CycleFacts {
  /** The last good answer shown (restored, or bought in this process). */
  rec: StoredRecommendation | null = null;
  status: FrameStatus = { kind: 'ok' };
  lastError: LastError | null = null;
  /** ISO time the answer on show last counted as current (bought, or confirmed by a poll); null: none known. */
  lastSuccessAt: string | null = null;
  failingSince: Date | null = null;
  /** The display's own last good file could not be read or written. */
  storeProblem: StoreProblem | null = null;
  /** When the last answer was bought in this process (ms), for the state-problem limit. */
  lastBoughtAt: number | null = null;
  /** When the answer last bought was bought, while it could not be read back at the start; else null. */
  unreadSince: Date | null = null;
  /** False while rec's fetched_at is not believable (dated in the future): it is shown, but its age is unknown. */
  ageKnown = true;
  refreshRefused: RefreshNotice | null = null;
}
