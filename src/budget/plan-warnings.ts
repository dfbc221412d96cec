import type { Config } from '../config/schema.js';
import type { Allowance } from './auto-schedule.js';
import { CronTimes, quietStretch } from './cron-times.js';
import { warning } from './messages.js';
import { maxOf, type Horizon } from './plan-horizon.js';
import type { Figures } from './plan-report.js';

/** The plan's warnings about the schedules themselves: one that hardly ever fires, and schedules over the budget. */

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

/** W_OVER_BUDGET: what the schedules need against the budget, and what runs instead. */
export function overBudgetWarning(
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
