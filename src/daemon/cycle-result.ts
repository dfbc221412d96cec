import type { ApiError } from '../api/errors.js';
import type { FetchOutcome } from '../budget/governor-types.js';

/** What one run of a display's cycle (cycle.ts) came to, and when a slot that got no answer may be tried again. */

export interface CycleResult {
  outcome: FetchOutcome['kind'];
  error: ApiError | null;
  /** Whether a frame went out to the publishers. */
  published: boolean;
  /** A refresh the governor did not allow: nothing on the wall changed. */
  refused?: boolean;
  /**
   * When a scheduled slot may be tried again, the purchase not having been made: deferred (backoff, Retry-After, the
   * rate limit, a state that cannot be saved), the empty account's next probe, or a failure that another try may
   * mend; null when it got its answer or trying again cannot help (a rejected key, our own budget used up).
   */
  retryAt: Date | null;
}

/** When a slot whose fetch ended so may be tried again (CycleResult.retryAt). */
export function retryAtOf(o: FetchOutcome): Date | null {
  switch (o.kind) {
    case 'deferred':
      return o.until;
    case 'budget_exhausted':
      // The account's next probe (a 402: a top-up recovers the same day); our own budget used up waits for the
      // display's next slot, rather than buying a night-time answer the moment the new day opens.
      return o.scope === 'credits' ? o.until : null;
    case 'failed':
      return o.retryAt ?? null;
    default:
      return null;
  }
}
