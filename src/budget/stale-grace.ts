/**
 * How long after a slot its answer may take before the one on show counts as stale: a purchase takes seconds to most
 * of a minute (a language model writes it), a 429 or a connection retried within the cycle a little more. Its own
 * file: the scheduler and `render --now` (which draws an answer as old as the schedule makes it) both use it, and
 * `render` should not load the scheduler.
 */
export const STALE_GRACE_MS = 10 * 60_000;
