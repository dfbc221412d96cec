import { zonedFormat } from './zoned-format.js';

/**
 * Calendar arithmetic in an IANA time zone, daylight-saving aware, with Intl only (no tz database of our own).
 *
 * A "wall time" is a local date and time written as if it were UTC (Date.UTC of the local parts). An instant maps to
 * exactly one wall time; a wall time maps to zero instants (skipped by a spring-forward), one, or two (repeated by a
 * fall-back).
 */

export interface LocalDate {
  year: number;
  /** 1-12 */
  month: number;
  /** 1-31 */
  day: number;
}

export interface LocalParts extends LocalDate {
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday ... 6 = Saturday */
  weekday: number;
}

const HOUR_MS = 3_600_000;
function formatter(tz: string): Intl.DateTimeFormat {
  return zonedFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
}

/** The local date and time of instant `t` in `tz`. */
export function localParts(t: number, tz: string): LocalParts {
  const p: Record<string, number> = {};
  for (const part of formatter(tz).formatToParts(new Date(t))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  const year = p.year ?? 1970;
  const month = p.month ?? 1;
  const day = p.day ?? 1;
  return {
    year,
    month,
    day,
    hour: (p.hour ?? 0) % 24,
    minute: p.minute ?? 0,
    second: p.second ?? 0,
    weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay(),
  };
}

/** Local wall time minus UTC at instant `t`, ms (e.g. +3 600 000 for CET). */
export function offsetAt(t: number, tz: string): number {
  const p = localParts(t, tz);
  const whole = Math.floor(t / 1000) * 1000;
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - whole;
}

export function wallOf(d: LocalDate, hour = 0, minute = 0, second = 0): number {
  return Date.UTC(d.year, d.month - 1, d.day, hour, minute, second);
}

export function addDays(d: LocalDate, n: number): LocalDate {
  const x = new Date(Date.UTC(d.year, d.month - 1, d.day + n));
  return { year: x.getUTCFullYear(), month: x.getUTCMonth() + 1, day: x.getUTCDate() };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function weekdayOf(d: LocalDate): number {
  return new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** "2026-03-29" */
export function dateKey(d: LocalDate): string {
  return `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
}

/** "2026-03" */
export function monthKeyOf(d: LocalDate): string {
  return `${pad(d.year, 4)}-${pad(d.month)}`;
}

function parseDateKey(key: string): LocalDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key);
  if (!m) return null;
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
}

/** The first instant of local date `d` (its midnight, or the end of a spring-forward gap that swallowed midnight). */
export function startOfDay(d: LocalDate, tz: string): number {
  const wall = wallOf(d);
  const key = dateKey(d);
  let best = Infinity;
  for (const o of new Set([offsetAt(wall - 36 * HOUR_MS, tz), offsetAt(wall, tz), offsetAt(wall + 36 * HOUR_MS, tz)])) {
    const t = wall - o;
    if (dateKey(localParts(t, tz)) === key) best = Math.min(best, t);
  }
  return Number.isFinite(best) ? best : wall - offsetAt(wall, tz);
}

/** A ledger period: a local day (key "2026-11-21") or a local month (key "2026-11"). */
export interface Period {
  scope: 'day' | 'month';
  key: string;
}

/** Where an unparsable period key falls: long past, so its end is too (never seen: the ledger file's schema checks keys). */
const EPOCH_DATE: LocalDate = { year: 1970, month: 1, day: 1 };

/** The first instant after a ledger period. */
export function periodEnd(period: Period, tz: string): number {
  if (period.scope === 'day') return startOfDay(addDays(parseDateKey(period.key) ?? EPOCH_DATE, 1), tz);
  const d = parseDateKey(`${period.key}-01`) ?? EPOCH_DATE;
  return startOfDay(d.month === 12 ? { year: d.year + 1, month: 1, day: 1 } : { ...d, month: d.month + 1, day: 1 }, tz);
}

/** `2026-01-31`: the local calendar day of `date` in `timeZone`, to tell whether two instants share a day. */
export function dayKey(date: Date | number, timeZone: string): string {
  return dateKey(localParts(typeof date === 'number' ? date : date.getTime(), timeZone));
}

/** `+01:00`, `-03:30`, `+00:00`; seconds only where an offset has them (local mean times before 1900). */
function offsetText(ms: number): string {
  const abs = Math.abs(Math.round(ms / 1000));
  const s = abs % 60;
  return `${ms < 0 ? '-' : '+'}${pad(Math.floor(abs / 3600))}:${pad(Math.floor(abs / 60) % 60)}${s === 0 ? '' : `:${pad(s)}`}`;
}

/** `2026-01-31T08:00:00.000+01:00`: the instant in `timeZone`, with its offset. */
export function isoWithOffset(date: Date, timeZone: string): string {
  const t = date.getTime();
  const p = localParts(t, timeZone);
  const ms = pad(date.getUTCMilliseconds(), 3);
  return `${dateKey(p)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}.${ms}${offsetText(offsetAt(t, timeZone))}`;
}

/**
 * A date-like value as `isoWithOffset`, or null when absent or not a date: how every JSON the daemon writes (files,
 * state.json, MQTT, TRMNL telemetry) gives a time, so that Home Assistant's timestamp sensors accept it.
 */
export function timeOrNull(value: Date | string | number | null | undefined, timeZone: string): string | null {
  if (value === null || value === undefined) return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : isoWithOffset(d, timeZone);
}

/**
 * The first instant whose local wall time in `tz` is at or after `minuteOfDay` (0-1439) on local date `d`: the wall
 * time itself, its first occurrence when a fall-back repeats it, or the end of a spring-forward gap that skips it.
 */
export function instantOfWall(d: LocalDate, minuteOfDay: number, tz: string): number {
  const key = `${tz} ${dateKey(d)} ${minuteOfDay}`;
  const cached = wallInstants.get(key);
  if (cached !== undefined) return cached;
  if (wallInstants.size > 50_000) wallInstants.clear();
  const found = findInstantOfWall(d, minuteOfDay, tz);
  wallInstants.set(key, found);
  return found;
}

/** instantOfWall's answers: the departures and quiet hours ask for the same few wall times again and again. */
const wallInstants = new Map<string, number>();

function findInstantOfWall(d: LocalDate, minuteOfDay: number, tz: string): number {
  const wall = wallOf(d, 0, minuteOfDay);
  const tries = [...new Set([offsetAt(wall - 36 * HOUR_MS, tz), offsetAt(wall + 36 * HOUR_MS, tz)])].map(
    (o) => wall - o,
  );
  const exact = tries.filter((t) => t + offsetAt(t, tz) === wall);
  if (exact.length > 0) return Math.min(...exact);
  // Skipped by a spring-forward: the gap's end, the first instant whose wall time is past `wall`.
  let lo = Math.min(...tries);
  let hi = Math.max(...tries);
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (mid + offsetAt(mid, tz) >= wall) hi = mid;
    else lo = mid;
  }
  return hi;
}
