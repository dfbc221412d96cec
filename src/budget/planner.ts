import type { Config, DisplayConfig } from '../config/schema.js';
import {
  candidateSchedules,
  activeHourList,
  candidatesLike,
  densestFit,
  type Allowance,
  type FillItem,
} from './auto-schedule.js';
import { tickCost, type TickCost } from './change-aware.js';
import { CronTimes, quietStretch } from './cron-times.js';
import { warning } from './messages.js';
import { purchasesOf, requestsPerSlot, type DisplayPurchases } from './plan-household.js';
import { parseQuietHours, type QuietHours } from '../time/quiet-hours.js';
import { cronOf, dailyCounts, dayLabel, horizonFrom, maxOf, perMonth, typical, type Horizon } from './plan-horizon.js';

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

function figures(h: Horizon, perDay: ArrayLike<number>): Figures {
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

function allowanceOf(config: Config, h: Horizon): Allowance {
  const b = config.budget;
  const reserve = b.refresh_reserve_credits;
  return {
    perDay: b.credits_per_day === undefined ? null : Math.max(0, b.credits_per_day - reserve),
    perMonth:
      b.credits_per_month === undefined
        ? null
        : h.daysPerMonth.map((n) => Math.max(0, (b.credits_per_month ?? 0) - reserve * n)),
  };
}

function costOf(h: Horizon, config: Config, display: DisplayConfig, expr: string): TickCost {
  return tickCost(display, config, cronOf(h, expr).minGapMs());
}

/**
 * A display's credits a tick when its schedule is picked: a household display's distinct requests each, none shared
 * (which schedules share is not known while they are being picked, so the pick errs on the side of the budget).
 */
function fillItem(h: Horizon, config: Config, display: DisplayConfig, candidates: string[]): FillItem {
  const n = requestsPerSlot(display, config);
  return {
    id: display.id,
    candidates,
    creditsPerTick: (e) => n * costOf(h, config, display, e).creditsWorst,
    quiet: quietOf(config, display),
  };
}

/** The display's quiet hours (its own, else the top-level ones): the plan counts no purchase in them. */
function quietOf(config: Config, display: DisplayConfig): QuietHours | null {
  const text = display.quiet_hours ?? config.quiet_hours;
  return text === undefined ? null : parseQuietHours(text);
}

function autoCandidates(display: DisplayConfig): string[] {
  return candidateSchedules(activeHourList(display.active_hours));
}

function resolveIn(h: Horizon, config: Config): { schedules: Map<string, string>; autoFits: boolean } {
  const items = config.displays.map((d) =>
    fillItem(h, config, d, d.schedule === 'auto' ? autoCandidates(d) : [d.schedule]),
  );
  const { chosen, fits } = densestFit(h, items, allowanceOf(config, h));
  return { schedules: chosen, autoFits: fits };
}

/**
 * Display id → the cron expression that runs: fixed ones as written, "auto" derived (densest within budget); over
 * budget and paced, the densest schedules that fit (PlanReport.runs).
 */
export function resolveSchedules(config: Config, opts: PlanOptions = {}): Map<string, string> {
  return planConfig(config, opts).runs;
}

/** The densest schedules that fit, every display adjustable (a fixed one keeps its hours and day fields). */
function propose(h: Horizon, config: Config, current: Map<string, string>): Map<string, string> | null {
  const items = config.displays.map((d) => {
    if (d.schedule === 'auto') return fillItem(h, config, d, autoCandidates(d));
    const expr = current.get(d.id) ?? d.schedule;
    const quiet = quietOf(config, d);
    const total = dailyCounts(h, expr, quiet).reduce((a, b) => a + b, 0);
    const sparser = candidatesLike(expr).filter((e) => dailyCounts(h, e, quiet).reduce((a, b) => a + b, 0) <= total);
    return fillItem(h, config, d, [expr, ...sparser]);
  });
  const { chosen, fits } = densestFit(h, items, allowanceOf(config, h));
  return fits ? chosen : null;
}

const scale = (counts: Int32Array, k: number): Float64Array => Float64Array.from(counts, (c) => c * k);

function add(into: Float64Array, from: ArrayLike<number>): void {
  for (let i = 0; i < into.length; i++) into[i] = (into[i] ?? 0) + (from[i] ?? 0);
}

/** Exact enumeration per display and in total, against the budget (see PlanReport). */
export function planConfig(config: Config, opts: PlanOptions = {}): PlanReport {
  const h = horizonFrom(opts.now ?? Date.now(), config.timezone);
  const { schedules, autoFits } = resolveIn(h, config);
  const allowance = allowanceOf(config, h);
  const n = h.days.length;
  const tot = { calls: new Float64Array(n), credits: new Float64Array(n), expected: new Float64Array(n) };
  const house = new Float64Array(n);
  const bought = purchasesOf(config, schedules);
  const displays: DisplayPlan[] = config.displays.map((d) => {
    const expr = schedules.get(d.id) ?? d.schedule;
    const counts = dailyCounts(h, expr, quietOf(config, d));
    const cost = costOf(h, config, d, expr);
    const purchases = bought.get(d.id) ?? { people: null, requests: 1, purchases: 1, sharesWith: [] };
    const k = purchases.purchases;
    const calls = scale(counts, cost.callsWorst * k);
    const credits = scale(counts, cost.creditsWorst * k);
    const expected = scale(counts, cost.creditsExpected * k);
    add(tot.calls, calls);
    add(tot.credits, credits);
    add(tot.expected, expected);
    if (purchases.people !== null) add(house, credits);
    const ca = d.change_aware !== undefined;
    return {
      id: d.id,
      configured: d.schedule,
      schedule: expr,
      endpoint: d.endpoint,
      changeAware: ca,
      calls: figures(h, calls),
      credits: figures(h, credits),
      expectedCredits: ca ? figures(h, expected) : null,
      plainCredits: ca ? figures(h, scale(counts, cost.creditsPlain * k)) : null,
      purchases,
    };
  });
  const householdIds = displays.filter((d) => d.purchases.people !== null).map((d) => d.id);
  const total = {
    calls: figures(h, tot.calls),
    credits: figures(h, tot.credits),
    expectedCredits: figures(h, tot.expected),
  };
  const overDay = allowance.perDay !== null && total.credits.maxDay > allowance.perDay;
  const overMonth =
    allowance.perMonth !== null && total.credits.months.some((c, i) => c > (allowance.perMonth?.[i] ?? Infinity));
  const proposal = overDay || overMonth ? propose(h, config, schedules) : null;
  const paced = proposal !== null && config.budget.pace_over_budget;
  const warnings: string[] = [];
  if (overDay || overMonth) warnings.push(overBudgetWarning(config, total.credits, allowance, h, proposal));
  if (!autoFits && config.displays.some((d) => d.schedule === 'auto')) {
    warnings.push(
      warning(
        'W_AUTO_DOES_NOT_FIT',
        'even the sparsest automatic schedule does not fit the budget; the governor caps spending at the budget',
      ),
    );
  }
  warnings.push(...rareScheduleWarnings(config, opts.now ?? Date.now()));
  const peak = config.displays.reduce((s, d) => {
    const expr = schedules.get(d.id) ?? d.schedule;
    const k = bought.get(d.id)?.purchases ?? 1;
    return s + cronOf(h, expr).perMinute() * costOf(h, config, d, expr).callsWorst * k;
  }, 0);
  if (peak > config.budget.rate_limit_per_minute) {
    warnings.push(
      warning(
        'W_RATE_PEAK',
        `up to ${peak} requests can fall due in one minute (limit ${config.budget.rate_limit_per_minute}); the rate limiter delays the rest`,
      ),
    );
  }
  return {
    timezone: config.timezone,
    months: h.months,
    budget: {
      creditsPerDay: config.budget.credits_per_day ?? null,
      creditsPerMonth: config.budget.credits_per_month ?? null,
      refreshReserve: config.budget.refresh_reserve_credits,
      dayAllowance: allowance.perDay,
      monthAllowance: allowance.perMonth,
      rateLimitPerMinute: config.budget.rate_limit_per_minute,
    },
    displays,
    total,
    household: householdIds.length === 0 ? null : { displays: householdIds, credits: figures(h, house) },
    overDay,
    overMonth,
    proposal,
    runs: paced ? new Map([...schedules].map(([id, e]) => [id, proposal.get(id) ?? e])) : schedules,
    paced,
    warnings,
  };
}

/**
 * A fixed schedule that goes more than a year without firing ("0 0 29 2 *"): the display would show one outfit for
 * years. Valid cron, so not an error; `check-config`, `plan` and the daemon's start say it, with the key path.
 */
export function rareScheduleWarnings(config: Config, now: number): string[] {
  return config.displays.flatMap((d, i) => {
    if (d.schedule === 'auto') return [];
    const q = quietStretch(new CronTimes(d.schedule, config.timezone), now);
    if (q.days <= 366) return [];
    const when =
      q.firstDates.length === 0 ? 'it does not fire in the next 8 years' : `next on ${q.firstDates.join(', then ')}`;
    return [
      warning(
        'W_SCHEDULE_RARE',
        `displays[${i}].schedule: "${d.schedule}" fires less than once a year (${when}); the display would keep one outfit that long`,
      ),
    ];
  });
}

function overBudgetWarning(
  config: Config,
  credits: Figures,
  a: Allowance,
  h: Horizon,
  proposal: Map<string, string> | null,
): string {
  const parts: string[] = [];
  if (a.perDay !== null && credits.maxDay > a.perDay) {
    parts.push(`up to ${credits.maxDay} credits a day (${credits.maxDayDate}) against ${a.perDay} a day`);
  }
  if (a.perMonth !== null) {
    const excess = credits.months.map((c, k) => c - (a.perMonth?.[k] ?? Infinity));
    const i = maxOf(excess).index;
    if (i >= 0 && (excess[i] ?? 0) > 0)
      parts.push(`${credits.months[i]} credits in ${h.months[i]} against ${a.perMonth[i]}`);
  }
  const reserve = config.budget.refresh_reserve_credits > 0 ? ' (after the refresh reserve)' : '';
  const fitting =
    proposal === null
      ? ''
      : `densest schedules that fit: ${[...proposal].map(([id, e]) => `${id}: "${e}"`).join(', ')}`;
  const runs =
    proposal === null
      ? 'no schedule of the same hours fits; raise the budget or remove a display (the governor caps the spending at the budget)'
      : config.budget.pace_over_budget
        ? `${fitting}; the daemon runs these instead, so the credits last the day`
        : `${fitting}; every tick runs until the budget is spent (pace_over_budget: false)`;
  return warning('W_OVER_BUDGET', `the schedules need ${parts.join(' and ')}${reserve}; ${runs}`);
}

/** True when the planned schedules (worst case) exceed the daily or monthly budget. */
export function overBudget(report: PlanReport): boolean {
  return report.overDay || report.overMonth;
}
