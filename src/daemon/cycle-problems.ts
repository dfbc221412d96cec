import type { FrameStatus } from '../domain/frame-status.js';
import { RenderError } from '../render/render-process.js';
import type { RenderProblem } from '../state/render-problem.js';
import { localParts } from '../time/zoned-time.js';

/**
 * What a display's cycle records when it cannot show what it should: a frame that could not be drawn, and a first
 * start the service will not sell to yet. Pure: the cycle (cycle.ts) keeps the state.
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
