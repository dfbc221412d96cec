import { parse, validateDetailed } from 'node-cron';
import {
  addDays,
  dateKey,
  daysInMonth,
  localParts,
  offsetAt,
  wallOf,
  weekdayOf,
  type LocalDate,
} from '../time/zoned-time.js';

/**
 * The instants a node-cron expression fires at, in a time zone, by enumeration.
 *
 * Semantics (those of node-cron's matcher): an instant fires when its local wall time in the time zone matches
 * every field; day-of-month AND day-of-week must both match. So on a spring-forward day a time in the skipped
 * hour does not fire, and on a fall-back day a time in the repeated hour fires twice (once per instant).
 * The planner and the scheduler both use this class: what the plan counts is what the scheduler runs.
 */

const HOUR_MS = 3_600_000;

/** The UTC offsets of a local day: `before` until instant `at`, `after` from then on (at = Infinity: no change). */
interface DayOffsets {
  before: number;
  after: number;
  at: number;
}

const dayOffsetCache = new Map<string, DayOffsets>();

/** Offsets of local date `d`, assuming at most one change a day (true of every zone in use). */
function dayOffsets(d: LocalDate, tz: string): DayOffsets {
  const key = `${tz} ${dateKey(d)}`;
  const cached = dayOffsetCache.get(key);
  if (cached !== undefined) return cached;
  // The local day lies within [wall0 - 14 h, wall0 + 38 h] in UTC: the probes bracket it.
  const wall0 = wallOf(d);
  let lo = wall0 - 15 * HOUR_MS;
  let hi = wall0 + 39 * HOUR_MS;
  const before = offsetAt(lo, tz);
  const after = offsetAt(hi, tz);
  let result: DayOffsets = { before, after: before, at: Infinity };
  if (before !== after) {
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (offsetAt(mid, tz) === before) lo = mid;
      else hi = mid;
    }
    result = { before, after, at: hi };
  }
  if (dayOffsetCache.size > 50_000) dayOffsetCache.clear();
  dayOffsetCache.set(key, result);
  return result;
}

/** The instants (0, 1 or 2, ascending) whose local wall time is `wall`, on a day with offsets `o`. */
function instantsOfWall(wall: number, o: DayOffsets): number[] {
  const a = wall - o.before;
  if (o.at === Infinity) return [a];
  const out: number[] = [];
  if (a < o.at) out.push(a);
  const b = wall - o.after;
  if (b >= o.at && b !== a) out.push(b);
  return out.sort((x, y) => x - y);
}

function matchesDayOfMonth(field: ReadonlyArray<number | string>, d: LocalDate): boolean {
  const last = daysInMonth(d.year, d.month);
  const nearestWeekday = (target: number): number => {
    if (target < 1 || target > last) return -1;
    const wd = weekdayOf({ ...d, day: target });
    if (wd === 6) return target === 1 ? target + 2 : target - 1;
    if (wd === 0) return target === last ? target - 2 : target + 1;
    return target;
  };
  for (const v of field) {
    if (v === d.day) return true;
    if (typeof v !== 'string') continue;
    if (v === 'L' && d.day === last) return true;
    const w = /^(\d{1,2}|L)W$/.exec(v);
    if (w && nearestWeekday(w[1] === 'L' ? last : Number(w[1])) === d.day) return true;
    const off = /^L-(\d{1,2})$/.exec(v);
    if (off && last - Number(off[1]) === d.day) return true;
  }
  return false;
}

function matchesDayOfWeek(field: ReadonlyArray<number | string>, d: LocalDate): boolean {
  const wd = weekdayOf(d);
  for (const v of field) {
    if (v === wd) return true;
    if (typeof v !== 'string') continue;
    const nth = /^([0-7])#([1-5])$/.exec(v);
    if (nth && Number(nth[1]) % 7 === wd && Math.floor((d.day - 1) / 7) + 1 === Number(nth[2])) return true;
    const lastW = /^([0-7])L$/i.exec(v);
    if (lastW && Number(lastW[1]) % 7 === wd && d.day + 7 > daysInMonth(d.year, d.month)) return true;
  }
  return false;
}

export class CronTimes {
  readonly #months: ReadonlySet<number>;
  readonly #dom: ReadonlyArray<number | string>;
  readonly #dow: ReadonlyArray<number | string>;
  /** Matching (hour, minute) pairs as minutes of the day, ascending. */
  readonly #minutesOfDay: number[];
  /** Matching seconds, ascending. */
  readonly #seconds: number[];

  /** Throws an Error naming the field when `expression` is not valid node-cron syntax. */
  constructor(
    readonly expression: string,
    readonly timezone: string,
  ) {
    const v = validateDetailed(expression);
    if (!v.valid) {
      throw new Error(
        `not a valid cron expression "${expression}" (${v.errors.map((e) => `${e.field}: ${e.message}`).join('; ')})`,
      );
    }
    const f = parse(expression);
    this.#months = new Set(f.month);
    this.#dom = f.dayOfMonth;
    this.#dow = f.dayOfWeek;
    const hours = [...new Set(f.hour)].sort((a, b) => a - b);
    const minutes = [...new Set(f.minute)].sort((a, b) => a - b);
    this.#minutesOfDay = hours.flatMap((h) => minutes.map((m) => h * 60 + m));
    this.#seconds = [...new Set(f.second)].sort((a, b) => a - b);
  }

  /** Whether the date fields (month, day of month, day of week) match local date `d`. */
  matchesDate(d: LocalDate): boolean {
    return this.#months.has(d.month) && matchesDayOfMonth(this.#dom, d) && matchesDayOfWeek(this.#dow, d);
  }

  /** How many times it fires on local date `d`. */
  countOnDay(d: LocalDate): number {
    if (!this.matchesDate(d)) return 0;
    const o = dayOffsets(d, this.timezone);
    if (o.at === Infinity) return this.#minutesOfDay.length * this.#seconds.length;
    let n = 0;
    for (const mod of this.#minutesOfDay) n += instantsOfWall(wallOf(d, 0, mod), o).length;
    return n * this.#seconds.length;
  }

  /**
   * How many times it fires on local date `d` at a wall minute `skip` does not reject (quiet hours: the planner counts
   * no purchase in them).
   */
  countOnDayOutside(d: LocalDate, skip: (minuteOfDay: number) => boolean): number {
    if (!this.matchesDate(d)) return 0;
    const o = dayOffsets(d, this.timezone);
    let n = 0;
    for (const mod of this.#minutesOfDay) {
      if (skip(mod)) continue;
      n += o.at === Infinity ? 1 : instantsOfWall(wallOf(d, 0, mod), o).length;
    }
    return n * this.#seconds.length;
  }

  /** The instants it fires at on local date `d`, ascending. */
  instantsOnDay(d: LocalDate): number[] {
    if (!this.matchesDate(d)) return [];
    const out: number[] = [];
    const o = dayOffsets(d, this.timezone);
    for (const mod of this.#minutesOfDay) {
      for (const base of instantsOfWall(wallOf(d, 0, mod), o)) for (const s of this.#seconds) out.push(base + s * 1000);
    }
    return o.at === Infinity ? out : out.sort((a, b) => a - b);
  }

  /** The first instant strictly after `t`, or null when there is none within 8 years (e.g. "0 0 30 2 *"). */
  nextAfter(t: number): number | null {
    let d = addDays(localParts(t, this.timezone), -1);
    for (let i = 0; i < 366 * 8 + 2; i++, d = addDays(d, 1)) {
      if (!this.matchesDate(d)) continue;
      const found = this.instantsOnDay(d).find((x) => x > t);
      if (found !== undefined) return found;
    }
    return null;
  }

  /** The last instant at or before `t` and after `notBefore`, or null. */
  lastAtOrBefore(t: number, notBefore: number): number | null {
    let d = addDays(localParts(t, this.timezone), 1);
    for (let i = 0; i < 40; i++, d = addDays(d, -1)) {
      const found = this.instantsOnDay(d)
        .filter((x) => x <= t && x > notBefore)
        .pop();
      if (found !== undefined) return found;
      if (wallOf(d) + 36 * HOUR_MS < notBefore) break;
    }
    return null;
  }

  /** The most times it can fire within one minute (the number of matching seconds). */
  perMinute(): number {
    return this.#seconds.length;
  }

  /** The shortest gap between two consecutive times of one day (wrapping to the next day), ms. */
  minGapMs(): number {
    const times = this.#minutesOfDay.flatMap((m) => this.#seconds.map((s) => m * 60 + s));
    let gap = 24 * 3600;
    for (let i = 0; i < times.length; i++) {
      const next = i + 1 < times.length ? (times[i + 1] ?? 0) : (times[0] ?? 0) + 24 * 3600;
      gap = Math.min(gap, next - (times[i] ?? 0));
    }
    return gap * 1000;
  }
}

/** How many years `quietStretch` looks ahead: long enough to see a February 29 schedule skip three years. */
const QUIET_SCAN_YEARS = 8;

/**
 * The longest run of local days, from the day of `from` over the next 8 years, on which the expression never fires,
 * and the first two days it fires on ("2028-02-29"). A run longer than a year means it fires less than once a year
 * ("0 0 29 2 *", or "0 0 1 1 1": both fields must match). Whole days only.
 */
export function quietStretch(cron: CronTimes, from: number): { days: number; firstDates: string[] } {
  const total = Math.round(QUIET_SCAN_YEARS * 365.25);
  const dates: LocalDate[] = [];
  const at: number[] = [];
  let d: LocalDate = localParts(from, cron.timezone);
  for (let i = 0; i < total; i++, d = addDays(d, 1)) {
    if (cron.matchesDate(d)) {
      dates.push({ year: d.year, month: d.month, day: d.day });
      at.push(i);
    }
  }
  // A date that matches fires unless a daylight-saving change skips every time of it. The zone's offsets are read
  // only for a day whose miss would join two quiet runs into one longer than a year: a daily schedule reads none.
  const fires = dates
    .map((_, i) => i)
    .filter((i) => (at[i + 1] ?? total) - (at[i - 1] ?? -1) <= 367 || cron.countOnDay(dates[i]!) > 0);
  let days = 0;
  let prev = -1;
  for (const i of fires) {
    days = Math.max(days, at[i]! - prev - 1);
    prev = at[i]!;
  }
  days = Math.max(days, total - prev - 1);
  return { days, firstDates: fires.slice(0, 2).map((i) => dateKey(dates[i]!)) };
}

/**
 * The longest time between two consecutive firings within `horizonMs` from `from` (the night gap of a schedule
 * limited to daytime hours, for instance); null when it fires fewer than twice in that time.
 */
export function longestGapMs(cron: CronTimes, from: number, horizonMs: number): number | null {
  const end = from + horizonMs;
  let prev: number | null = null;
  let longest: number | null = null;
  // Day by day, each day's instants enumerated once: a schedule with a seconds field fires tens of thousands of times
  // a day, and a nextAfter() per firing (which enumerates the day each time) would take minutes.
  let d = addDays(localParts(from, cron.timezone), -1);
  // A local day starts at most 14 h before its wall-clock midnight read as UTC (the largest UTC offset).
  for (; wallOf(d) - 14 * HOUR_MS <= end; d = addDays(d, 1)) {
    for (const t of cron.instantsOnDay(d)) {
      if (t <= from || t > end) continue;
      if (prev !== null) longest = Math.max(longest ?? 0, t - prev);
      prev = t;
    }
  }
  return longest;
}
