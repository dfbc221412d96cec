import { offsetAt } from '../../time/zoned-time.js';
import { zonedFormat } from '../../time/zoned-format.js';

/**
 * The frame's dates, times and decimals in a locale: Intl's own words, either asked of Intl or read from a record of
 * them (`IntlWords`) that an earlier process made with Intl and kept on disk (intl-disk-cache.ts). V8's first Intl
 * formatter in a process costs 20-30 ms (it builds its table of the locales it could format for), about a tenth of
 * a cold `render`; a record read back costs well under one. A record holds each string Intl writes for the values
 * the frame can ask for: every minute of a day, every weekday, every day of a span of some 800 days, and the decimal
 * sign. Outside the span, or without a record, Intl answers as before: the same words either way
 * (test/render/intl-words.test.ts holds records to Intl across locales, calendars and zones).
 *
 * A record is the same in every zone: it is made in UTC for local wall times, and an instant is turned into its
 * wall time in the display's zone first (zoned-time.ts: from the zone's table where there is one, else by Intl).
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const DAY_MINUTES = 1440;

/** The frame's dates and times, as Intl formats them. */
export type IntlFormatKind = 'day' | 'time' | 'weekday' | 'dayMonth';

/**
 * Intl's format of `kind` in a locale and zone (the record's are the same in UTC): "Sat 31 Jan", "Sa., 31. Jan.",
 * "Sat, Jan 31" (day); "07:30", "7:30 AM" on the locale's clock (time); "Mon" (weekday); "12 Nov" (dayMonth).
 */
export function intlFormat(tag: string, timeZone: string, kind: IntlFormatKind): Intl.DateTimeFormat {
  switch (kind) {
    case 'day':
      return zonedFormat(tag, { timeZone, weekday: 'short', day: 'numeric', month: 'short', numberingSystem: 'latn' });
    case 'time': {
      const twelve = ['h11', 'h12'].includes(zonedFormat(tag, { hour: 'numeric' }).resolvedOptions().hourCycle ?? '');
      // h23 where the locale has a 24-hour clock: never "24:05" after midnight.
      return zonedFormat(tag, { timeZone, hour: twelve ? 'numeric' : '2-digit', minute: '2-digit', hourCycle: twelve ? 'h12' : 'h23', numberingSystem: 'latn' });
    }
    case 'weekday':
      return zonedFormat(tag, { timeZone, weekday: 'short' });
    case 'dayMonth':
      return zonedFormat(tag, { timeZone, day: 'numeric', month: 'short', numberingSystem: 'latn' });
  }
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** One decimal at most, no grouping, Latin digits (the fonts' and the panels' own), the locale's decimal sign. */
export function numberFormat(tag: string): Intl.NumberFormat {
  let f = numberFormats.get(tag);
  if (!f) {
    f = new Intl.NumberFormat(tag, { maximumFractionDigits: 1, useGrouping: false, numberingSystem: 'latn' });
    numberFormats.set(tag, f);
  }
  return f;
}

/** Intl's words for one locale (its BCP 47 tag as the display's locale has it). */
export interface IntlWords {
  tag: string;
  /** The first day of `days`: a local date as days since 1970-01-01. */
  fromDay: number;
  /** The time at each minute of a day, 00:00 first (1440). */
  times: string[];
  /** The date ("Sat 31 Jan") of each day from `fromDay` on. */
  days: string[];
  /** Day and month ("12 Nov") of each day from `fromDay` on (as many as `days`). */
  dayMonths: string[];
  /** The weekdays, Sunday first (7). */
  weekdays: string[];
  /** The decimal sign, or null where Intl's numbers are not only digits, the sign and a digit (then Intl writes them). */
  decimal: string | null;
}

/**
 * "2.5" for 2.45 with decimal sign ".": as Intl rounds (half away from zero, to one decimal, of the shortest decimal
 * that reads back as the number: 0.15 → "0.2", where toFixed gives "0.1"); null for what only Intl writes (below 0,
 * 1e21 and above, not a number).
 */
export function decimalText(x: number, decimal: string): string | null {
  if (!(x >= 0 && x < 1e21)) return null;
  const s = String(x);
  // Below 1e-6 String() writes an exponent: too small to round to 0.1.
  if (s.includes('e')) return '0';
  const [whole = '0', frac = ''] = s.split('.');
  let int = whole;
  let digit = frac === '' ? 0 : frac.charCodeAt(0) - 48;
  if (frac.length > 1 && frac.charCodeAt(1) >= 53 && ++digit === 10) {
    digit = 0;
    int = (BigInt(int) + 1n).toString();
  }
  return digit === 0 ? int : `${int}${decimal}${digit}`;
}

/** Values a record's decimal sign is checked on before it is kept (ties, carries, large and small). */
const DECIMAL_CHECKS = [0, 0.04, 0.05, 0.15, 0.95, 1, 1.5, 2.25, 9.95, 10.05, 99.95, 123.4, 1234567.8, 2 ** 53, 1e20];

/** The record of `tag` over `count` days from `fromDay`, made by Intl; null when Intl does not know the tag. */
export function recordIntlWords(tag: string, fromDay: number, count: number): IntlWords | null {
  // Each format taken once, not once a string: some 3,000 of them.
  let time: Intl.DateTimeFormat;
  try {
    time = intlFormat(tag, 'UTC', 'time');
  } catch {
    return null;
  }
  const weekday = intlFormat(tag, 'UTC', 'weekday');
  const day = intlFormat(tag, 'UTC', 'day');
  const dayMonth = intlFormat(tag, 'UTC', 'dayMonth');
  const times = Array.from({ length: DAY_MINUTES }, (_, m) => time.format(m * MINUTE_MS));
  // 1970-01-04 was a Sunday.
  const weekdays = Array.from({ length: 7 }, (_, i) => weekday.format((3 + i) * DAY_MS));
  const noon = (i: number): number => (fromDay + i) * DAY_MS + DAY_MS / 2;
  const days = Array.from({ length: count }, (_, i) => day.format(noon(i)));
  const dayMonths = Array.from({ length: count }, (_, i) => dayMonth.format(noon(i)));
  const n = numberFormat(tag);
  const sign = n.formatToParts(1.5).find((p) => p.type === 'decimal')?.value;
  const decimal = sign !== undefined && DECIMAL_CHECKS.every((x) => decimalText(x, sign) === n.format(x)) ? sign : null;
  return { tag, fromDay, times, days, dayMonths, weekdays, decimal };
}

const records = new Map<string, IntlWords>();
const asked = new Set<string>();

/** From now on, this process reads `words.tag`'s words from the record where it holds them. */
export function useIntlWords(words: IntlWords): void {
  records.set(words.tag, words);
}

/** Back to Intl for `tag` (tests). */
export function dropIntlWords(tag: string): void {
  records.delete(tag);
}

/** The record of `tag` this process reads from, if any. */
export function intlWordsOf(tag: string): IntlWords | undefined {
  return records.get(tag);
}

/** Every locale this process has asked for words in: what intl-disk-cache.ts makes records of. */
export function askedLocales(): ReadonlySet<string> {
  return asked;
}

const mod = (a: number, n: number): number => ((a % n) + n) % n;

/**
 * The words of `t` in `zone` and `tag`: what `pick` takes from the record at `t`'s local wall time (as ms of a UTC
 * date), else (no record, outside its span, an instant that is not one) Intl's format of `kind`.
 */
function words(t: number, zone: string, tag: string, kind: IntlFormatKind, pick: (w: IntlWords, wall: number) => string | undefined): string {
  asked.add(tag);
  const w = records.get(tag);
  const recorded = w !== undefined && Number.isFinite(t) ? pick(w, t + offsetAt(t, zone)) : undefined;
  return recorded ?? intlFormat(tag, zone, kind).format(t);
}

const dayIndex = (w: IntlWords, wall: number): number => Math.floor(wall / DAY_MS) - w.fromDay;

/** "07:30", "7:30 AM": the local time of `t` in `zone`, on the locale's clock. */
export function timeText(t: number, zone: string, tag: string): string {
  return words(t, zone, tag, 'time', (w, wall) => w.times[mod(Math.floor(wall / MINUTE_MS), DAY_MINUTES)]);
}

/** "Sat 31 Jan": the local date of `t` in `zone`. */
export function dayText(t: number, zone: string, tag: string): string {
  return words(t, zone, tag, 'day', (w, wall) => w.days[dayIndex(w, wall)]);
}

/** "12 Nov": the local day and month of `t` in `zone`. */
export function dayMonthText(t: number, zone: string, tag: string): string {
  return words(t, zone, tag, 'dayMonth', (w, wall) => w.dayMonths[dayIndex(w, wall)]);
}

/** "Mon": the local weekday of `t` in `zone` (1970-01-01 was a Thursday). */
export function weekdayText(t: number, zone: string, tag: string): string {
  return words(t, zone, tag, 'weekday', (w, wall) => w.weekdays[mod(Math.floor(wall / DAY_MS) + 4, 7)]);
}

/** "2.5", "2,5": `x` (0 or more) to one decimal at most, with the locale's decimal sign. */
export function numberText(x: number, tag: string): string {
  asked.add(tag);
  const decimal = records.get(tag)?.decimal;
  return (decimal != null ? decimalText(x, decimal) : null) ?? numberFormat(tag).format(x);
}
