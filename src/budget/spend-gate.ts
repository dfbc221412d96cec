import type { Config } from '../config/schema.js';
import type { FetchReason, Refusal } from './governor-types.js';

/**
 * May a request costing `cost` credits be paid for now? The budget rules, as one pure function.
 *
 * - Every request must fit the daily and the monthly budget.
 * - A refresh (MQTT button, HTTP) may only spend from the refresh reserve: what refreshes spent today plus the
 *   cost must not exceed budget.refresh_reserve_credits. So the button cannot drain the day's budget.
 * - A scheduled request leaves today's unused reserve alone, so the button still works late in the day.
 * - `once` (run by hand from a shell) may use the whole budget.
 */

export interface GateInput {
  reason: FetchReason;
  cost: number;
  /** Credits counted against the day and month (the ledger's, or the untrusted-clock windows'). */
  dayUsed: number;
  monthUsed: number;
  refreshSpentToday: number;
}

export function refusal(config: Config, i: GateInput): Refusal | null {
  const b = config.budget;
  const reserve = b.refresh_reserve_credits;
  if (i.reason === 'refresh' && i.refreshSpentToday + i.cost > reserve) return 'refresh-reserve';
  const hold = i.reason === 'schedule' ? Math.max(0, reserve - i.refreshSpentToday) : 0;
  if (b.credits_per_month !== undefined && i.monthUsed + i.cost > b.credits_per_month - hold) return 'month';
  if (b.credits_per_day !== undefined && i.dayUsed + i.cost > b.credits_per_day - hold) return 'day';
  return null;
}
