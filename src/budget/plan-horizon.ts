import { CronTimes } from './cron-times.js';
import { quietAtMinute, type QuietHours } from '../time/quiet-hours.js';
import { addDays, dateKey, daysInMonth, localParts, monthKeyOf, type LocalDate } from '../time/zoned-time.js';

/**
 * The stretch of calendar the planner enumerates: 12 whole calendar months in the config's time zone, starting with
 * the month holding `now`. Every count is per local date, so a 23-hour or 25-hour daylight-saving day counts as
 * what it is.
 */
export interface Horizon {
  timezone: string;
  days: LocalDate[];
  /** Index into `months` of each day. */
  monthOfDay: number[];
  /** "2026-11", ... */
  months: string[];
  daysPerMonth: number[];
  /** Fire counts per day, by cron expression (a cache). */
  counts: Map<string, Int32Array>;
  crons: Map<string, CronTimes>;
}

const HORIZON_MONTHS = 12;

export function horizonFrom(now: number, timezone: string): Horizon {
  const p = localParts(now, timezone);
  const days: LocalDate[] = [];
  const monthOfDay: number[] = [];
  const months: string[] = [];
  const daysPerMonth: number[] = [];
  let d: LocalDate = { year: p.year, month: p.month, day: 1 };
  for (let m = 0; m < HORIZON_MONTHS; m++) {
    months.push(monthKeyOf(d));
    const n = daysInMonth(d.year, d.month);
    daysPerMonth.push(n);
    for (let i = 0; i < n; i++) {
      days.push(d);
      monthOfDay.push(m);
      d = addDays(d, 1);
    }
  }
  return { timezone, days, monthOfDay, months, daysPerMonth, counts: new Map(), crons: new Map() };
}

export function cronOf(h: Horizon, expr: string): CronTimes {
  let c = h.crons.get(expr);
  if (c === undefined) {
    c = new CronTimes(expr, h.timezone);
    h.crons.set(expr, c);
  }
  return c;
}

/** How many times `expr` fires on each day of the horizon; with `quiet`, outside those quiet hours only (no purchase). */
export function dailyCounts(h: Horizon, expr: string, quiet: QuietHours | null = null): Int32Array {
  const key = quiet === null ? expr : `${expr}|${quiet.text}`;
  let counts = h.counts.get(key);
  if (counts === undefined) {
    const cron = cronOf(h, expr);
    counts =
      quiet === null
        ? Int32Array.from(h.days, (d) => cron.countOnDay(d))
        : Int32Array.from(h.days, (d) => cron.countOnDayOutside(d, (m) => quietAtMinute(quiet, m)));
    h.counts.set(key, counts);
  }
  return counts;
}

/** Per-day values summed per month of the horizon. */
export function perMonth(h: Horizon, perDay: ArrayLike<number>): number[] {
  const out = h.months.map(() => 0);
  for (let i = 0; i < h.days.length; i++) {
    const m = h.monthOfDay[i] ?? 0;
    out[m] = (out[m] ?? 0) + (perDay[i] ?? 0);
  }
  return out;
}

/** The median of per-day values: what an ordinary day looks like. */
export function typical(perDay: ArrayLike<number>): number {
  const sorted = Array.from(perDay).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export function maxOf(values: ArrayLike<number>): { value: number; index: number } {
  let value = -Infinity;
  let index = -1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? 0;
    if (v > value) {
      value = v;
      index = i;
    }
  }
  return { value: index === -1 ? 0 : value, index };
}

export function dayLabel(h: Horizon, index: number): string {
  const d = h.days[index];
  return d === undefined ? '-' : dateKey(d);
}
