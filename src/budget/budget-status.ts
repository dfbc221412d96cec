import type { Config } from '../config/schema.js';
import type { BudgetStatus } from './governor-types.js';
import type { LedgerState } from './ledger-state.js';
import type { StoreProblem } from '../store/store-error.js';

/** After a 402, the empty account is asked again at most this often (a refresh or a reload asks at once). */
export const CREDITS_RETRY_MS = 3_600_000;

export interface BudgetStatusInput {
  state: Readonly<LedgerState>;
  config: Config;
  now: number;
  /** The first instant of the next budget day. */
  periodResetsAt: number;
  /** What still holds requests back from now, in ms: the service's Retry-After, our failure backoff. */
  rateBlockedMs: number;
  backoffMs: number;
  rateRemaining: number | null;
  warnings: string[];
  storeProblem: StoreProblem | null;
}

/** The governor's figures for the status page, Home Assistant and state.json: what is spent, and how it ended. */
export function budgetStatus(i: BudgetStatusInput): BudgetStatus {
  const s = i.state;
  const b = i.config.budget;
  const nextTry = s.creditsOut === null ? 0 : s.creditsOut.lastRefusalAt + CREDITS_RETRY_MS;
  const blocked = Math.max(
    i.rateBlockedMs > 0 ? i.now + i.rateBlockedMs : 0,
    i.backoffMs > 0 ? i.now + i.backoffMs : 0,
    nextTry > i.now ? nextTry : 0,
  );
  return {
    spentToday: s.daySpent,
    spentMonth: s.monthSpent,
    leftToday: b.credits_per_day === undefined ? null : Math.max(0, b.credits_per_day - s.daySpent),
    leftMonth: b.credits_per_month === undefined ? null : Math.max(0, b.credits_per_month - s.monthSpent),
    periodResetsAt: new Date(i.periodResetsAt),
    chargedToday: s.dayCharged,
    unknownToday: s.dayUnknown,
    refusedToday: s.dayRefused,
    chargedMonth: s.monthCharged,
    unknownMonth: s.monthUnknown,
    creditsOut: s.creditsOut === null ? null : { since: new Date(s.creditsOut.since), nextTryAt: new Date(nextTry) },
    rateRemaining: i.rateRemaining,
    blockedUntil: blocked > 0 ? new Date(blocked) : null,
    warnings: i.warnings,
    storeProblem: i.storeProblem,
  };
}
