import { parse } from 'node-cron';
import { dailyCounts, perMonth, typical, type Horizon } from './plan-horizon.js';
import type { QuietHours } from '../time/quiet-hours.js';

/**
 * Deriving "the densest schedule within budget".
 *
 * Candidates are schedules aligned to the clock (every 1, 2, 3, 4, 5, 6, 10, 12, 15, 20 or 30 minutes on the minute;
 * hourly; every 2, 3, 4, 6, 8 or 12 hours; daily; every 2 or 3 days; weekly), limited to a set of hours (from
 * active_hours, or from the hours of a fixed schedule when proposing a replacement). Displays share the budget
 * fairly: starting from the sparsest candidate each, the display with the fewest ticks steps up to
 * its next denser candidate (more ticks over the horizon) while the sum over all displays still fits every day and every month of the horizon.
 */

const MINUTE_STEPS = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30];
const HOUR_STEPS = [2, 3, 4, 6, 8, 12];

/**
 * The whole hours inside an active_hours window ("06:00-23:00" → 6..22), in order from the window's start; a window
 * that crosses midnight ("22:00-06:00") wraps. Partial hours at either end are left out (rounded inward).
 * No window → every hour.
 */
export function activeHourList(active: string | undefined): number[] {
  if (active === undefined) return Array.from({ length: 24 }, (_, i) => i);
  const m = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/.exec(active);
  if (!m) throw new Error(`active_hours must look like "06:00-23:00", got "${active}"`);
  const start = Number(m[1]) * 60 + Number(m[2]);
  let end = Number(m[3]) * 60 + Number(m[4]);
  if (end <= start) end += 24 * 60;
  const hours: number[] = [];
  for (let h = Math.ceil(start / 60); (h + 1) * 60 <= end; h++) hours.push(h % 24);
  if (hours.length === 0) hours.push(Math.ceil(start / 60) % 24);
  return hours;
}

/** An hour list as a cron field: "*", "6-22", "22,23,0-5", "6-22/4", "6,12". */
export function hourField(hours: number[]): string {
  if (hours.length === 24 && hours.every((h, i) => h === i)) return '*';
  const parts: string[] = [];
  let i = 0;
  while (i < hours.length) {
    const a = hours[i] ?? 0;
    const step = (hours[i + 1] ?? a) - a;
    let j = i;
    while (step > 0 && j + 1 < hours.length && (hours[j + 1] ?? 0) - (hours[j] ?? 0) === step) j++;
    if (j - i >= 2) {
      parts.push(step === 1 ? `${a}-${hours[j] ?? a}` : `${a}-${hours[j] ?? a}/${step}`);
      i = j + 1;
    } else {
      parts.push(String(a));
      i++;
    }
  }
  return parts.join(',');
}

/** Candidate schedules over `hours` (in window order), with the given day fields, densest first (by construction). */
export function candidateSchedules(hours: number[], dayFields = '* * *'): string[] {
  const field = hourField(hours);
  const first = hours[0] ?? 0;
  const out: string[] = MINUTE_STEPS.map((n) => `${n === 1 ? '*' : `*/${n}`} ${field} ${dayFields}`);
  out.push(`0 ${field} ${dayFields}`);
  for (const k of HOUR_STEPS) {
    const picked = hours.filter((_, i) => i % k === 0);
    if (picked.length < hours.length && picked.length > 1) out.push(`0 ${hourField(picked)} ${dayFields}`);
  }
  out.push(`0 ${first} ${dayFields}`);
  if (dayFields === '* * *') out.push(`0 ${first} */2 * *`, `0 ${first} */3 * *`, `0 ${first} * * 1`);
  return [...new Set(out)];
}

/** Candidates to propose in place of a fixed schedule: same hours and day fields, other densities. */
export function candidatesLike(expression: string): string[] {
  const fields = expression.trim().split(/\s+/);
  const dayFields = fields.slice(-3).join(' ');
  const hours = [...new Set(parse(expression).hour)].sort((a, b) => a - b);
  return candidateSchedules(hours, dayFields);
}

export interface FillItem {
  id: string;
  /** Candidates, any order; a fixed display has exactly one. */
  candidates: string[];
  /** Credits one tick costs in the worst case, by expression. */
  creditsPerTick: (expression: string) => number;
  /** The display's quiet hours: no tick in them is counted (none is bought). */
  quiet?: QuietHours | null;
}

export interface Allowance {
  /** Credits a day the schedules may use, or null for no daily budget. */
  perDay: number | null;
  /** Credits per month of the horizon the schedules may use, or null for no monthly budget. */
  perMonth: number[] | null;
}

export interface FillResult {
  chosen: Map<string, string>;
  /** False when even the sparsest candidates do not fit (the governor caps spending then). */
  fits: boolean;
}

/** Whether the credits per day of all chosen schedules fit every day and month of the horizon. */
function fitsAllowance(h: Horizon, perDayCredits: Float64Array, allowance: Allowance): boolean {
  if (allowance.perDay !== null && perDayCredits.some((c) => c > allowance.perDay! + 1e-9)) return false;
  if (allowance.perMonth !== null) {
    const months = perMonth(h, perDayCredits);
    if (months.some((c, i) => c > (allowance.perMonth?.[i] ?? Infinity) + 1e-9)) return false;
  }
  return true;
}

/** Fair water-filling over the items' candidates (see the module comment). */
export function densestFit(h: Horizon, items: FillItem[], allowance: Allowance): FillResult {
  const sorted = items.map((item) => {
    const cands = item.candidates.map((e) => ({
      e,
      counts: dailyCounts(h, e, item.quiet ?? null),
      cost: item.creditsPerTick(e),
    }));
    cands.sort((a, b) => sum(b.counts) - sum(a.counts) || typical(b.counts) - typical(a.counts));
    return { item, cands, at: cands.length - 1, saturated: cands.length <= 1 };
  });
  const totalFor = (): Float64Array => {
    const total = new Float64Array(h.days.length);
    for (const s of sorted) {
      const c = s.cands[s.at];
      if (c) for (let i = 0; i < total.length; i++) total[i] = (total[i] ?? 0) + (c.counts[i] ?? 0) * c.cost;
    }
    return total;
  };
  const fits = fitsAllowance(h, totalFor(), allowance);
  if (fits) {
    for (;;) {
      const open = sorted.filter((s) => !s.saturated);
      if (open.length === 0) break;
      const density = (s: (typeof sorted)[number]): number => sum(s.cands[s.at]?.counts ?? []);
      const s = open.reduce((a, b) => (density(b) < density(a) ? b : a));
      const before = s.at;
      const now = sum(s.cands[before]?.counts ?? []);
      let next = before - 1;
      while (next >= 0 && sum(s.cands[next]?.counts ?? []) <= now) next--;
      if (next < 0) {
        s.saturated = true;
        continue;
      }
      s.at = next;
      if (!fitsAllowance(h, totalFor(), allowance)) {
        s.at = before;
        s.saturated = true;
      }
    }
  }
  return { chosen: new Map(sorted.map((s) => [s.item.id, s.cands[s.at]?.e ?? ''])), fits };
}

function sum(a: ArrayLike<number>): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) n += a[i] ?? 0;
  return n;
}
