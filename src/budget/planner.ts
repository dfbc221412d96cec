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
import { warning } from './messages.js';
import { purchasesOf, requestsPerSlot } from './plan-household.js';
import { figures, type DisplayPlan, type PlanOptions, type PlanReport } from './plan-report.js';
import { overBudgetWarning, rareScheduleWarnings } from './plan-warnings.js';
import { parseQuietHours, type QuietHours } from '../time/quiet-hours.js';
import { cronOf, dailyCounts, horizonFrom, type Horizon } from './plan-horizon.js';

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

/** True when the planned schedules (worst case) exceed the daily or monthly budget. */
export function overBudget(report: PlanReport): boolean {
  return report.overDay || report.overMonth;
}
