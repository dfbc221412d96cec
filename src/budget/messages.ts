/**
 * Stable warning and reason texts of the budget (plan, governor, scheduler). Each begins with its code; tests, the
 * status page and Home Assistant may match on the code. Documented in docs/guides/budget-and-schedule.md.
 */

import type { WarningCode } from '../shared/codes.js';

export const WARNING_CODES = [
  'W_OVER_BUDGET',
  'W_AUTO_DOES_NOT_FIT',
  'W_RATE_PEAK',
  'W_CLOCK_UNTRUSTED',
  'W_LEDGER_UNREADABLE',
  'W_LEDGER_FUTURE',
  'W_PAID_REQUEST_CUT',
  'W_CREDITS_EXHAUSTED',
  'W_KEY_REJECTED',
  'W_SCHEDULE_RARE',
] as const satisfies readonly WarningCode[];
export type BudgetWarningCode = (typeof WARNING_CODES)[number];

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
