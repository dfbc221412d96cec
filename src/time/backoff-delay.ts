/**
 * The one backoff rule every retry in the daemon waits by: the budget's retries and cycles (src/budget), MQTT's
 * reconnects, OpenEPaperLink's pushes and the webhook's POSTs. Bounded and exponential, counted in failures in a row
 * (1 after the first): the step is `baseMs` doubled once for each failure after the first, at most `maxMs`.
 *
 * With a random source the delay has "equal jitter": half the step fixed, half random, in [step/2, step], so that
 * parts that failed together do not retry together. Without one it is the step itself. The source is injected so
 * that a test fixes it.
 */

export interface BackoffPolicy {
  /** The step after the first failure, ms. */
  baseMs: number;
  /** The longest step, ms. */
  maxMs: number;
}

/** The delay before the next try after `failures` failures in a row (1 or more). */
export function backoffDelay(failures: number, policy: BackoffPolicy, random?: () => number): number {
  // Past 2^30 every policy is at its maxMs; the cap keeps a long run of failures from reaching Infinity.
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(30, Math.max(0, failures - 1)));
  if (random === undefined) return step;
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(step / 2 + (r * step) / 2);
}
