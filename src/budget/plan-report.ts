import type { DisplayConfig } from '../config/schema.js';
import type { DisplayPurchases } from './plan-household.js';
import { dayLabel, maxOf, perMonth, typical, type Horizon } from './plan-horizon.js';

/** What `plan` works out (planner.ts, planConfig): each display's calls and credits over the horizon, and the budget's. */

/** Figures of one quantity (calls or credits) over the horizon. */
export interface Figures {
  maxDay: number;
  /** The local date of the heaviest day ("2027-03-28"). */
  maxDayDate: string;
  typicalDay: number;
  /** One value per month of `PlanReport.months`. */
  months: number[];
  maxMonth: number;
  maxMonthKey: string;
}

export interface DisplayPlan {
  id: string;
  /** As written in the config ("auto" or a cron expression). */
  configured: string;
  /** The cron expression that runs ("auto" resolved). */
  schedule: string;
  endpoint: DisplayConfig['endpoint'];
  changeAware: boolean;
  /** Worst case: every tick buys (and, change-aware, polls the weather first). */
  calls: Figures;
  credits: Figures;
  /** Change-aware only: expected credits, and the credits of a recommendation at every tick, to show the saving. */
  expectedCredits: Figures | null;
  plainCredits: Figures | null;
  /**
   * What a slot buys (plan-household.ts): one answer, or for a household display one per distinct request of its
   * people, less those an earlier display on the same schedule buys. `calls` and `credits` count these purchases.
   */
  purchases: DisplayPurchases;
}

export interface PlanReport {
  timezone: string;
  /** The months enumerated: 12 calendar months from the current one. */
  months: string[];
  budget: {
    creditsPerDay: number | null;
    creditsPerMonth: number | null;
    refreshReserve: number;
    /** What schedules may use a day: credits_per_day minus the refresh reserve. */
    dayAllowance: number | null;
    /** Per month: credits_per_month minus the refresh reserve of each day of the month. */
    monthAllowance: number[] | null;
    rateLimitPerMinute: number;
  };
  displays: DisplayPlan[];
  total: { calls: Figures; credits: Figures; expectedCredits: Figures };
  /** The household displays (`people`) together: their ids and credits (worst case: everyone at home); null without. */
  household: { displays: string[]; credits: Figures } | null;
  overDay: boolean;
  overMonth: boolean;
  /** When over budget: the densest schedules that fit, display id → cron expression. */
  proposal: Map<string, string> | null;
  /**
   * Display id → the cron expression the daemon runs: the configured one ("auto" resolved); over budget, with
   * `budget.pace_over_budget` (the default), the proposal, so the credits last the whole day on wall-clock slots that
   * a restart neither re-runs nor skips. Without a proposal (nothing fits) the configured ones, capped by the governor.
   */
  runs: Map<string, string>;
  /** Whether `runs` is the proposal (over budget, paced). */
  paced: boolean;
  warnings: string[];
}

export interface PlanOptions {
  /** The instant the plan starts from (default now): the horizon is 12 calendar months from its month. */
  now?: number;
}

/** The figures of one quantity a day over the horizon. */
export function figures(h: Horizon, perDay: ArrayLike<number>): Figures {
  const day = maxOf(perDay);
  const months = perMonth(h, perDay);
  const month = maxOf(months);
  return {
    maxDay: day.value,
    maxDayDate: dayLabel(h, day.index),
    typicalDay: typical(perDay),
    months,
    maxMonth: month.value,
    maxMonthKey: h.months[month.index] ?? '-',
  };
}
