/**
 * Stable warning and reason texts of the budget (plan, governor, scheduler). Each begins with its code; tests, the
 * status page and Home Assistant may match on the code. Documented in docs/guides/budget-and-schedule.md.
 */

import type { CodeIn } from '../shared/codes.js';

/** The registry's `budget` set. */
export type BudgetWarningCode = CodeIn<'budget'>;

export function warning(code: BudgetWarningCode, text: string): string {
  return `${code}: ${text}`;
}

export const REASONS = {
  rateWindow: 'rate limit: the 60-second window is full',
  rateHeader: 'rate limit: the service reported no requests left in its window',
  retryAfter: 'rate limit: the service asked to wait (Retry-After)',
  backoff: 'backing off after failed requests',
  clock: 'clock not trusted and the last known day has no budget left',
  keyRejected: 'the API key was rejected: no request until the daemon restarts with a new key',
  creditsOut: 'the service account is out of credits; asked again hourly, and at once on refresh or reload (SIGHUP)',
} as const;
