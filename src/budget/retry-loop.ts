import type pino from 'pino';
import { AbortedError, type ApiError } from '../api/errors.js';
import { backoffDelay, type BackoffPolicy } from '../time/backoff-delay.js';
import { sleep, type Clock } from '../time/clock.js';
import type { FetchOutcome } from './governor-types.js';
import { REASONS } from './messages.js';

/** Between attempts within one cycle: 2 s, 4 s, 8 s ... at most 30 s (before jitter). */
export const RETRY_BACKOFF: BackoffPolicy = { baseMs: 2_000, maxMs: 30_000 };

/** How one paid request ended: its answer, or the outcome the fetch ends with. */
export type Step<T> = { ok: true; value: T } | { ok: false; outcome: FetchOutcome };

/** How one attempt at a paid request ended; retryLoop decides what follows. */
export type Attempt<T> =
  | { kind: 'answered'; value: T }
  /** Over without an answer: the fetch ends with `outcome`. */
  | { kind: 'over'; outcome: FetchOutcome }
  /** Not sent: the rate limit or Retry-After asks for a pause first (not counted as an attempt). */
  | { kind: 'pause'; ms: number; reason: string }
  /** Refused with a 429: tried again after Retry-After while attempts remain. */
  | { kind: 'rate-limited'; retryAfterMs: number }
  /** Never reached the service: tried again after a short backoff while attempts and waiting time remain. */
  | { kind: 'not-sent'; error: ApiError };

export interface RetryLoopOptions<T> {
  /** Makes one attempt; `n` counts the attempts that reached the send, this one included (from 1). */
  attempt: (n: number) => Promise<Attempt<T>>;
  /** Where pauses are waited out, and what deferred outcomes are dated by. */
  clock: Clock;
  /** Jitter of the backoff between attempts that were never sent. */
  random: () => number;
  /** Attempts that reached the send, at most (a 429 or a request never sent counts as one). */
  maxAttempts: number;
  /** Longest the pauses may add up to before the request is deferred instead. */
  maxWaitMs: number;
  /** Aborts a pause (shutdown): the request ends as failed. */
  signal: AbortSignal | undefined;
  logger: pino.Logger | undefined;
  /** The attempts or the waiting time ran out on requests never sent: the cycle failed for good. */
  onGiveUp: () => void;
}

/** Attempts a paid request until it is answered or over, pausing as the attempts ask, within the bounds given. */
export async function retryLoop<T>(opts: RetryLoopOptions<T>): Promise<Step<T>> {
  let attempts = 0;
  let waited = 0;
  const pause = async (ms: number): Promise<boolean> => {
    try {
      await sleep(opts.clock, ms, opts.signal);
      waited += ms;
      return true;
    } catch {
      return false;
    }
  };
  const deferred = (ms: number, reason: string): Step<T> => ({
    ok: false,
    outcome: { kind: 'deferred', until: new Date(opts.clock.now() + ms), reason },
  });
  for (;;) {
    const a = await opts.attempt(attempts + 1);
    switch (a.kind) {
      case 'answered':
        return { ok: true, value: a.value };
      case 'over':
        return { ok: false, outcome: a.outcome };
      case 'pause':
        if (waited + a.ms > opts.maxWaitMs) return deferred(a.ms, a.reason);
        if (!(await pause(a.ms)))
          return { ok: false, outcome: { kind: 'failed', error: new AbortedError('fetch aborted while waiting') } };
        continue;
      case 'rate-limited':
        if (++attempts < opts.maxAttempts) continue;
        return deferred(a.retryAfterMs, REASONS.retryAfter);
      case 'not-sent': {
        const delay = backoffDelay(++attempts, RETRY_BACKOFF, opts.random);
        if (attempts < opts.maxAttempts && waited + delay <= opts.maxWaitMs) {
          opts.logger?.warn({ err: a.error, attempt: attempts, delayMs: delay }, 'request not sent: trying again');
          if (await pause(delay)) continue;
        } else {
          opts.onGiveUp();
        }
        return { ok: false, outcome: { kind: 'failed', error: a.error } };
      }
    }
  }
}
