import type { StoredRecommendation } from '../api/schemas.js';
import type { DisplayConfig } from '../config/schema.js';
import type { FrameStatus } from '../domain/frame-status.js';
import type { Frame, FramePerson } from '../render/frame.js';
import type { StoreProblem } from '../store/store-error.js';
import type { OutputProblem } from './output-problem.js';
import type { RenderProblem } from './render-problem.js';

/**
 * One display's state, as its cycle records it in the daemon's display book (display-book.ts) whenever it changes: the
 * answer, the frame drawn from it, how stale it was drawn, and every problem. The publishers never see this record
 * itself; they read the display's view of it (display-views.ts), which adds what the schedule, the budget and an
 * attached panel say.
 */

/** The last failure of the display's cycle (a fetch or a publisher), kept until another. */
export interface LastError {
  code: string;
  message: string;
  /** ISO time of the failure. */
  at: string;
}

/** Why a refresh press was refused (src/daemon/refresh-gate.ts, RefreshRefusal). */
export type RefreshRefusalKind = 'no-reserve' | 'too-soon' | 'budget';

/** A refused refresh, shown in the diagnostics and on the status page for REFRESH_NOTICE_MS. */
export interface RefreshNotice {
  kind: RefreshRefusalKind;
  text: string;
  /** ISO time of the press. */
  at: string;
}

/** How long a refused refresh stays in the diagnostics and on the status page. */
export const REFRESH_NOTICE_MS = 5 * 60_000;

/** The notice while it is recent (REFRESH_NOTICE_MS), else null. */
export function recentNotice(notice: RefreshNotice | null, now: number): RefreshNotice | null {
  return notice !== null && now - Date.parse(notice.at) < REFRESH_NOTICE_MS ? notice : null;
}

export interface DisplayState {
  readonly display: DisplayConfig;
  /** The last good Recommendation (kept through failures), or null before the first. */
  readonly rec: StoredRecommendation | null;
  readonly status: FrameStatus;
  /** The frame on the wall, or null before the first. */
  readonly frame: Frame | null;
  /** Whether `frame` was drawn with the outfit out of date (staleness()): a publisher that draws it again draws it so. */
  readonly stale: boolean;
  /** Since when the answer on show is stale by its schedule, as worked out when `frame` was drawn; null while current. */
  readonly staleSince: Date | null;
  readonly lastError: LastError | null;
  /** When the shown answer was bought; null when never, or when its date cannot be believed (a clock that was wrong). */
  readonly lastSuccessAt: string | null;
  /** This display's own state problem (its last good answer cannot be saved); the ledger's is the budget's. */
  readonly storeProblem: StoreProblem | null;
  /** This display's frame files could not be written (E_OUTPUT_WRITE), until a write succeeds. */
  readonly outputProblem: OutputProblem | null;
  /** This display's last frame could not be drawn (E_RENDER_…): `frame` is an older one, until a draw succeeds. */
  readonly renderProblem: RenderProblem | null;
  /** The last refused refresh (the view hides it once it is old). */
  readonly refreshRefused: RefreshNotice | null;
  /** The next update the cycle announced: used only where nothing reads the schedule itself (a cycle alone). */
  readonly nextUpdateAt: Date | null;
  /**
   * A household display's people, as `frame` was drawn with them (each one's answer, warmth, additions, away, stale);
   * absent for a display of one outfit. `rec` is then the first person at home's answer.
   */
  readonly people?: readonly FramePerson[];
  /** Whom a one-person frame of the household shows now (the display's turn, household/person-turn.ts). */
  readonly onePerson?: string;
}

export interface StalenessInput {
  /** When the answer on show was bought (ms), or null: never, or at a time that cannot be believed. */
  servedAt: number | null;
  /** An answer is on show whose date cannot be believed (dated ahead): it is not current, whatever the schedule. */
  ageUnknown: boolean;
  /** When an answer served at `servedAt` goes stale by the schedule (Scheduler.staleFrom), or null: never. */
  staleFrom: (servedAt: number) => Date | null;
  now: number;
}

/**
 * Whether the answer on show is out of date now: a slot after it passed without a new one (`since` is when that
 * began), or its age is unknown (`since` null). The frame's age badge, `stale` and `stale_since` everywhere, and
 * /healthz all come from this one answer.
 */
export function staleness(i: StalenessInput): { stale: boolean; since: Date | null } {
  const from = i.servedAt === null ? null : i.staleFrom(i.servedAt);
  const since = from !== null && i.now >= from.getTime() ? from : null;
  return { stale: since !== null || i.ageUnknown, since };
}
