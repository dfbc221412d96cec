import { fill } from '../../i18n/labels.js';
import { ENGLISH, type Locale } from '../../i18n/locale.js';
import { dayKey } from '../../time/zoned-time.js';
import { zonedFormat } from '../../time/zoned-format.js';
import { alertSeverity, SEVERITY_ORDER, type AlertSeverity } from '../../domain/alert-severity.js';

/**
 * Words and numbers as the frame shows them, in the display's locale (default English): labels from its table,
 * dates, times and decimals by Intl with its tag. Pure; dates in the display's timezone (no Date.now()).
 */

const MINUS = '\u2212';

/** Rounded half away from zero, as a person rounds: 12.5 → 13 and −12.5 → −13 (Math.round gives −12). */
function roundHalfAway(n: number): number {
  return Math.sign(n) * Math.round(Math.abs(n));
}

function signed(n: number): string {
  const r = roundHalfAway(n);
  return r < 0 ? `${MINUS}${-r}` : String(r === 0 ? 0 : r);
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** One decimal at most, no grouping, Latin digits (the fonts' and the panels' own), the locale's decimal sign. */
function numberFormat(tag: string): Intl.NumberFormat {
  let f = numberFormats.get(tag);
  if (!f) {
    f = new Intl.NumberFormat(tag, { maximumFractionDigits: 1, useGrouping: false, numberingSystem: 'latn' });
    numberFormats.set(tag, f);
  }
  return f;
}

/** What the frame shows for a reading the response did not carry (or carried in a form we could not read). */
export const MISSING = '\u2014';

const present = (n: number | undefined): n is number => typeof n === 'number' && Number.isFinite(n);

/** "19°": the degree sign without the scale letter; "—" without a temperature. */
export function formatTempShort(value: number | undefined): string {
  return present(value) ? `${signed(value)}°` : MISSING;
}

/** "71%", "71 %": as the locale writes a percentage; "—" when missing. */
export function formatPercent(value: number | undefined, locale: Locale = ENGLISH): string {
  return present(value) ? fill(locale.labels.percent, { n: signed(value) }) : MISSING;
}

/** "2.5", "2,5" (de), "−3": at most one decimal, the locale's decimal sign, a real minus sign. */
export function formatNumber(value: number, locale: Locale = ENGLISH): string {
  const abs = numberFormat(locale.tag).format(Math.abs(value));
  return value < 0 && abs !== '0' ? `${MINUS}${abs}` : abs;
}

/** A reading rounded to whole units ("3"), or to tenths ("2.5", "2,5"); "—" when missing. */
export function formatReading(value: number | undefined, step: 1 | 0.1 = 1, locale: Locale = ENGLISH): string {
  if (!present(value)) return MISSING;
  return formatNumber(step === 1 ? roundHalfAway(value) : roundHalfAway(value * 10) / 10, locale);
}

/** "14 km/h" (the unit as the response wrote it, if any); "—" without a speed. */
export function formatSpeed(value: number | undefined, unit: string | undefined, locale: Locale = ENGLISH): string {
  if (!present(value)) return MISSING;
  return unit?.trim() ? `${formatReading(value, 1, locale)} ${unit}` : formatReading(value, 1, locale);
}

const TEXT_KEYS = [
  'title',
  'headline',
  'event',
  'description',
  'summary',
  'message',
  'text',
  'name',
  'severity',
] as const;

/**
 * The text of an alert item, whatever its shape: a string; or an object's title, headline, event or
 * description (the first that is a non-empty string), else its first string field in key order, looking one
 * level into nested objects (GeoJSON-like `properties`); else "Weather alert" in the locale's words.
 */
export function alertText(alert: unknown, locale: Locale = ENGLISH): string {
  return textOf(alert, 2) ?? locale.labels.weather_alert;
}

function textOf(v: unknown, depth: number): string | null {
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    for (const item of v) {
      const t = depth > 0 ? textOf(item, depth - 1) : null;
      if (t) return t;
    }
    return null;
  }
  if (!v || typeof v !== 'object') return null;
  const obj = v as Record<string, unknown>;
  for (const key of TEXT_KEYS) {
    const t = obj[key];
    if (typeof t === 'string' && t.trim()) return t.trim();
  }
  const keys = Object.keys(obj).sort();
  for (const key of keys) {
    const t = obj[key];
    if (typeof t === 'string' && t.trim()) return t.trim();
  }
  if (depth > 0) {
    for (const key of keys) {
      const t = obj[key] && typeof obj[key] === 'object' ? textOf(obj[key], depth - 1) : null;
      if (t) return t;
    }
  }
  return null;
}

/** Alert texts, empty strings and repeats left out (an object without any text still counts as an alert). */
export function alertTexts(alerts: readonly unknown[], locale: Locale = ENGLISH): string[] {
  return alertItems(alerts, locale).map((a) => a.text);
}

/** An alert as the frame shows it: its text, and how severe it is (alert-severity.ts). */
export interface FrameAlert {
  text: string;
  severity: AlertSeverity;
}

/** Alert texts with their severity, in the service's order, empty ones and repeats left out (the first kept). */
function alertItems(alerts: readonly unknown[], locale: Locale): FrameAlert[] {
  const seen = new Set<string>();
  const out: FrameAlert[] = [];
  for (const a of alerts) {
    if (a === null || a === undefined || (typeof a === 'string' && !a.trim())) continue;
    const t = alertText(a, locale).replace(/\s+/g, ' ');
    if (t && !seen.has(t.toLowerCase())) {
      seen.add(t.toLowerCase());
      out.push({ text: t, severity: alertSeverity(a, t) });
    }
  }
  return out;
}

/** The alerts the frame shows, most severe first (SEVERITY_ORDER; the service's order among equals). */
export function frameAlerts(alerts: readonly unknown[], locale: Locale = ENGLISH): FrameAlert[] {
  const rank = (a: FrameAlert): number => SEVERITY_ORDER.indexOf(a.severity);
  return alertItems(alerts, locale).sort((a, b) => rank(a) - rank(b));
}

const COMPASS = ['N', 'NNE', 'NE', 'ENE', 'E', 'ESE', 'SE', 'SSE', 'S', 'SSW', 'SW', 'WSW', 'W', 'WNW', 'NW', 'NNW'];
const WORDS: Record<string, string> = { NORTH: 'N', SOUTH: 'S', EAST: 'E', WEST: 'W' };

/** Degrees (0 = from the north, clockwise) of a wind direction: "NW", "north-west", "315"; null when unknown. */
export function windDegrees(dir: string | undefined): number | null {
  if (dir === undefined) return null;
  const s = dir.trim().toUpperCase();
  if (/^\d+(\.\d+)?°?$/.test(s)) return Number.parseFloat(s) % 360;
  let abbr = s.replace(/[\s-]+/g, '');
  for (const [word, letter] of Object.entries(WORDS)) abbr = abbr.replaceAll(word, letter);
  const i = COMPASS.indexOf(abbr);
  return i >= 0 ? i * 22.5 : null;
}

/**
 * The locale's formats in a timezone: the date as it writes it ("Sat 31 Jan", "Sa., 31. Jan.", "Sat, Jan 31"), the
 * time on its own clock ("07:30", "7:30 AM"), and a locale-free key that tells whether two instants share a day.
 */
function dateFormats(tag: string, timeZone: string): { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat } {
  const twelve = ['h11', 'h12'].includes(zonedFormat(tag, { hour: 'numeric' }).resolvedOptions().hourCycle ?? '');
  return {
    day: zonedFormat(tag, { timeZone, weekday: 'short', day: 'numeric', month: 'short', numberingSystem: 'latn' }),
    // h23 where the locale has a 24-hour clock: never "24:05" after midnight.
    time: zonedFormat(tag, {
      timeZone,
      hour: twelve ? 'numeric' : '2-digit',
      minute: '2-digit',
      hourCycle: twelve ? 'h12' : 'h23',
      numberingSystem: 'latn',
    }),
  };
}

/** Intl separates "7:30" and "AM" with a narrow no-break space; the frame's lines take an ordinary one. */
const plainSpaces = (s: string): string => s.replace(/[\u00a0\u202f]/g, ' ');

/** "07:30" on the same day as `now` in the timezone, else "Sat 31 Jan 07:30": in the locale's words and clock. */
export function formatTime(date: Date, timeZone: string, now: Date, locale: Locale = ENGLISH): string {
  const f = dateFormats(locale.tag, timeZone);
  const hm = plainSpaces(f.time.format(date));
  if (dayKey(date, timeZone) === dayKey(now, timeZone) && Math.abs(date.getTime() - now.getTime()) < 86_400_000)
    return hm;
  return `${plainSpaces(f.day.format(date))} ${hm}`;
}

/** "2 h 5 min", "40 min", "3 d": in the locale's words. */
export function formatAge(ms: number, locale: Locale = ENGLISH): string {
  const l = locale.labels;
  const min = Math.max(0, Math.round(ms / 60_000));
  if (min < 60) return fill(l.age_minutes, { n: min });
  const h = Math.floor(min / 60);
  if (h < 48) return min % 60 ? fill(l.age_hours_minutes, { h, m: min % 60 }) : fill(l.age_hours, { n: h });
  return fill(l.age_days, { n: Math.floor(h / 24) });
}

/**
 * The badge of an outfit out of date on the day it was made for, short enough to be set large: "40 min old",
 * "3 h old" (`ms` its age). An outfit of an earlier day is headed by its age in days instead (content.ts), never by
 * a weekday the reader would have to work out.
 */
export function staleBadgeText(ms: number, locale: Locale = ENGLISH): string {
  const l = locale.labels;
  const min = Math.max(0, Math.round(ms / 60_000));
  if (min < 60) return fill(l.age_old, { age: fill(l.age_minutes, { n: min }) });
  return fill(l.age_old, { age: fill(l.age_hours, { n: Math.floor(min / 60) }) });
}

/**
 * The frame's day for a wall panel's band, in the locale's words and the display's zone: "Saturday 28 November"
 * ("Samstag, 28. November"), and the short form where that does not fit ("Sat 28 Nov").
 */
export function formatDate(now: Date, timeZone: string, locale: Locale = ENGLISH): { long: string; short: string } {
  const long = zonedFormat(locale.tag, {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    numberingSystem: 'latn',
  }).format(now);
  return { long: plainSpaces(long), short: plainSpaces(dateFormats(locale.tag, timeZone).day.format(now)) };
}
