import type { StoredRecommendation } from '../api/schemas.js';
import type { FetchOutcome, FetchReason } from '../budget/governor-types.js';
import type { DisplayConfig } from '../config/schema.js';
import type { Publisher } from '../publish/publisher.js';
import type { DisplayRenderOptions, DrawFrame } from '../render/display-frame.js';
import type { GlyphWarnings } from '../render/glyph-warnings.js';
import type { DisplayBookWriter } from '../state/display-book.js';
import type { DisplayViewSource } from '../state/display-views.js';
import type { LastGoodStore } from '../store/last-good.js';
import type { StoreProblem } from '../store/store-error.js';
import type { Clock } from '../time/clock.js';
import type { Logger } from 'pino';
import type { HouseholdCycle } from './household-cycle.js';

/** What a display's cycle (cycle.ts) is built from: its display, its purchases, its frames' drawing and publishers. */

/** Gets a Recommendation for a display within budget and rate limit (the governor). */
export type FetchFn = (
  display: DisplayConfig,
  reason: FetchReason,
  last: StoredRecommendation | null,
  signal?: AbortSignal,
) => Promise<FetchOutcome>;

export interface DisplayCycleDeps {
  display: DisplayConfig;
  /** How the display's frames are drawn (render/display-frame.ts: panel, time zone, rotation, dither, locale). */
  render: DisplayRenderOptions;
  /** Draws its frames: `run` passes a render process's (render-process.ts); default in this process. */
  draw?: DrawFrame;
  store: LastGoodStore;
  fetch: FetchFn;
  /** Told, after each record, that the display changed: each gets the display's view. */
  publishers: readonly Publisher[];
  /** Where the cycle writes its state whenever it changes (the daemon's display book): the one writer of it. */
  displayBook: DisplayBookWriter;
  /** The daemon's views of the display book: the one view of this display that the publishers are handed. */
  views: Pick<DisplayViewSource, 'view'>;
  /** Dates fetches, failures and refresh refusals. */
  clock: Clock;
  /**
   * The display's next update (its next tick or retry, as the budget allows); with `retryAt`, as it will be once the
   * slot that just failed asks for a retry then (the time the frame announces).
   */
  nextUpdateAt: (retryAt?: Date | null) => Date | null;
  logger: Logger;
  /**
   * While this display's state cannot be saved, no purchase sooner than this after the last one (the schedule's
   * shortest gap, at least a minute): what is bought is shown, but a restart would lose it, so nothing extra is bought.
   */
  purchaseIntervalMs: number;
  /** A state problem shared by every display (the credit ledger cannot be written), or null. */
  sharedStoreProblem?: () => StoreProblem | null;
  /** Logs characters drawn as boxes once per process (the daemon shares one); default: one for this cycle. */
  glyphWarnings?: GlyphWarnings;
  /** When an answer served at `servedAt` goes stale by the schedule (Scheduler.staleFrom); default never. */
  staleFrom?: (servedAt: number) => Date | null;
  /**
   * When the display's last recommendation was bought, as the credit ledger keeps it (Governor.lastBoughtAt), or null:
   * a start that cannot read that answer back says so (the scheduler does not buy its slot again).
   */
  lastBoughtAt?: () => number | null;
  /**
   * When the display's slot was last paid for (Governor.lastPaidAt): later than its last purchase, a 2xx whose answer
   * could not be used, which a start says as the cycle that got it did (its slot is not bought again).
   */
  lastPaidAt?: () => number | null;
  /**
   * A household display's people (household-cycle.ts): bought for instead of `fetch`, one answer each; the display's
   * own answer is its first person at home's. Absent: a display of one outfit, as before.
   */
  household?: HouseholdCycle;
}
