import { CronTimes } from '../budget/cron-times.js';
import { STALE_GRACE_MS } from '../budget/stale-grace.js';
import type { FrameStatus } from '../domain/frame-status.js';
import { staleness } from '../state/display-state.js';
import type { FrameState } from '../render/display-frame.js';
import { UsageError } from './usage-error.js';

/**
 * `render --now ISO --status KIND`: the state a display would be in at `now` with this answer on show, so the frame is
 * drawn as the daemon would draw it then (daemon/cycle.ts builds the same FrameInput fields from what happened). The
 * details the daemon learns from the service (its message, when it failed first) are made up plausibly: the slot
 * after the answer is the one that failed, the next slot the retry, as the scheduler would set them.
 */

/** Every status a display's state.json can have, in the order DESIGN.md lists them. */
export const PREVIEW_STATUSES = [
  'ok',
  'stale',
  'service_error',
  'unreachable',
  'key_rejected',
  'credits_out',
  'budget_exhausted',
] as const;
export type PreviewStatus = (typeof PREVIEW_STATUSES)[number];

// Every FrameStatus kind has a preview, and nothing else does: a new kind fails to compile here until it has one.
const EVERY_KIND: Record<FrameStatus['kind'], true> = Object.fromEntries(
  PREVIEW_STATUSES.map((k) => [k, true]),
) as Record<PreviewStatus, true>;
void EVERY_KIND;

/** `--status`'s value, checked; a usage error names the flag and the values it takes. */
export function parsePreviewStatus(value: string): PreviewStatus {
  const found = PREVIEW_STATUSES.find((s) => s === value);
  if (found === undefined)
    throw new UsageError(`render --status must be one of ${PREVIEW_STATUSES.join(', ')} (got "${value}")`);
  return found;
}

/** `--now`'s value, checked: an ISO 8601 time, with a zone ("2026-11-28T08:00:00Z") or as UTC. */
export function parsePreviewNow(value: string): Date {
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
  const at = iso.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(at))
    throw new UsageError(`render --now must be an ISO 8601 time such as 2026-11-28T08:00:00Z (got "${value}")`);
  return new Date(at);
}

/** One hour: how soon the daemon asks again when the service's account is out of credits. */
const CREDITS_RETRY_MS = 60 * 60_000;

/**
 * The status and staleness of a display at `now` whose answer was fetched at `fetchedAt`, on `schedule` (a cron
 * expression in `timezone`; null: no slot follows, nothing goes stale by the clock).
 */
export function previewState(o: {
  status: PreviewStatus;
  now: Date;
  fetchedAt: Date;
  schedule: string | null;
  timezone: string;
}): Pick<FrameState, 'status' | 'stale'> {
  const cron = o.schedule === null ? null : new CronTimes(o.schedule, o.timezone);
  const now = o.now.getTime();
  const fetched = o.fetchedAt.getTime();
  // As the daemon works it out (state/display-state.ts): stale once the slot after the answer passed, with its grace.
  const staleFrom = (at: number): Date | null => {
    const next = cron?.nextAfter(at) ?? null;
    return next === null ? null : new Date(next + STALE_GRACE_MS);
  };
  const { stale } = staleness({ servedAt: fetched, ageUnknown: fetched > now, staleFrom, now });
  // The first slot after the answer that has come by now failed; without one, the failure is now's.
  const firstFailed = cron?.nextAfter(fetched) ?? null;
  const since = new Date(firstFailed !== null && firstFailed <= now ? firstFailed : now);
  const nextSlot = cron?.nextAfter(now) ?? null;
  const retryAt = nextSlot === null ? null : new Date(nextSlot);
  const status = ((): FrameStatus => {
    switch (o.status) {
      case 'ok':
        return { kind: 'ok' };
      case 'stale':
        return { kind: 'stale', since: o.fetchedAt };
      case 'service_error':
        return {
          kind: 'service_error',
          problem: 'error',
          since,
          message: 'HTTP 502 (render --status preview)',
          retryAt,
        };
      case 'unreachable':
        return { kind: 'unreachable', since, message: 'connect ECONNREFUSED (render --status preview)', retryAt };
      case 'key_rejected':
        return { kind: 'key_rejected', message: 'Invalid API key (render --status preview)' };
      case 'credits_out':
        return { kind: 'credits_out', since, until: new Date(now + CREDITS_RETRY_MS) };
      case 'budget_exhausted': {
        // A day's budget comes back at the next local midnight.
        const midnight = new CronTimes('0 0 * * *', o.timezone).nextAfter(now);
        return { kind: 'budget_exhausted', until: new Date(midnight ?? now + 24 * 3_600_000) };
      }
    }
  })();
  // "ok" at a time the answer is out of date is "stale", as the cycle makes it (cycle-frames.ts #drawAndPublish).
  if (status.kind === 'ok' && stale) return { status: { kind: 'stale', since: o.fetchedAt }, stale };
  return { status, stale: stale || status.kind === 'stale' };
}
