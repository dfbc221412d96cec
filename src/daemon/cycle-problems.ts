import type { ApiError } from '../api/errors.js';
import type { FetchOutcome } from '../budget/governor-types.js';
import type { FrameStatus, ServiceProblem } from '../domain/frame-status.js';
import { RenderError } from '../render/render-process.js';
import type { LastError } from '../state/display-state.js';
import type { RenderProblem } from '../state/render-problem.js';
import { W_STATE_IGNORED } from '../store/store-error.js';
import { localParts } from '../time/zoned-time.js';

/**
 * What a display's cycle records when it cannot show what it should: a frame that could not be drawn, a first start
 * the service will not sell to yet, the wall's words for a failure, a refresh refused for the budget. Pure: the cycle
 * (cycle.ts) keeps the state.
 */

/** The render problem of a draw that failed; it keeps the time of the first failure since the last frame drawn. */
export function renderProblemOf(err: unknown, now: Date, before: RenderProblem | null): RenderProblem {
  // A draw in this process (`once`) throws the renderer's own errors: they are frames that could not be drawn too.
  const code = err instanceof RenderError ? err.code : 'E_RENDER_FAILED';
  const message = err instanceof Error ? err.message : String(err);
  return { code, message, since: before?.since ?? now.toISOString() };
}

const pad = (n: number): string => String(n).padStart(2, '0');

/**
 * The status of a display with nothing to show yet whose purchase the service put off (a 429 whose Retry-After is
 * longer than a cycle waits): the service refuses us, so it is a service error, "busy", and says until when. Left at
 * "ok", the wall would say "Waiting for the first outfit" and /healthz 200 for as long as the wait lasts.
 */
export function askedToWait(o: {
  until: Date;
  since: Date;
  retryAt: Date | null;
  timeZone: string;
}): Extract<FrameStatus, { kind: 'service_error' }> {
  // The configured zone's wall time.
  const p = localParts(o.until.getTime(), o.timeZone);
  const message = `the service asked us to wait until ${pad(p.hour)}:${pad(p.minute)} (E_RATE_LIMITED: HTTP 429 with Retry-After)`;
  return { kind: 'service_error', problem: 'busy', since: o.since, message, retryAt: o.retryAt };
}

/** The wall's words for each failure once the service was reached (any other: `refused`). */
export const SERVICE_PROBLEMS: Readonly<Partial<Record<ApiError['code'], ServiceProblem>>> = {
  E_SERVICE: 'error',
  E_TIMEOUT: 'no_answer',
  E_NETWORK: 'connection_lost',
  E_BAD_RESPONSE: 'bad_answer',
  E_RATE_LIMITED: 'busy',
};

/** What a refused refresh says when the governor refused it for the budget. */
export function refusedBudgetWords(o: Extract<FetchOutcome, { kind: 'budget_exhausted' }>): string {
  switch (o.scope) {
    case 'refresh-reserve':
      return "today's refresh reserve is spent";
    case 'credits':
      return 'the service account is out of credits';
    default:
      return `the credit budget is used up until ${o.until.toISOString()}`;
  }
}

/** The status of a purchase our budget or the service's account refused (a 402 is the account: a top-up recovers). */
export function budgetStatus(o: Extract<FetchOutcome, { kind: 'budget_exhausted' }>, now: Date): FrameStatus {
  if (o.scope === 'credits') return { kind: 'credits_out', since: o.since ?? now, until: o.until };
  return {
    kind: 'budget_exhausted',
    until: o.until,
    ...(o.unknownCredits ? { unknownCredits: o.unknownCredits } : {}),
  };
}

/** The ledger says an answer was bought at `bought` (ms) that the last good file does not hold, for `why`. */
export function notReadBackError(bought: number, why: string, now: Date): LastError {
  const at = new Date(bought).toISOString();
  return {
    code: W_STATE_IGNORED,
    message: `the answer bought at ${at} could not be read back (${why}): its slot is paid and not bought again; the next slot buys`,
    at: now.toISOString(),
  };
}

/** The ledger says the slot's answer, paid for at `paid` (ms), could not be used: shown as the cycle that got it did. */
export function unusableAnswer(
  paid: number,
  now: Date,
  retryAt: Date | null,
): { status: Extract<FrameStatus, { kind: 'service_error' }>; lastError: LastError } {
  const since = new Date(paid);
  const message = `the answer bought at ${since.toISOString()} could not be used: its slot is paid and not bought again; the next slot buys`;
  return {
    status: { kind: 'service_error', problem: 'bad_answer', since, message, retryAt },
    lastError: { code: 'E_BAD_RESPONSE', message, at: now.toISOString() },
  };
}
