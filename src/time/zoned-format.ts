/**
 * Dates and times in a configured IANA time zone, through Intl only. Every `Intl.DateTimeFormat` the daemon uses is
 * made here, once per locale, zone and options: building one costs far more than formatting with it, and the
 * daemon formats the same few on every cycle, page and MQTT message.
 */

const cache = new Map<string, Intl.DateTimeFormat>();

/** The cached `new Intl.DateTimeFormat(locale, options)`; `options.timeZone` is part of the key like the rest. */
export function zonedFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}\n${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (f === undefined) {
    f = new Intl.DateTimeFormat(locale, options);
    cache.set(key, f);
  }
  return f;
}

/** `2026-01-31`: the local calendar day of `date` in `timeZone`, to tell whether two instants share a day. */
export function dayKey(date: Date | number, timeZone: string): string {
  return zonedFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

/** `2026-01-31T08:00:00.000+01:00`: the instant in `timeZone`, with its offset. */
export function isoWithOffset(date: Date, timeZone: string): string {
  const f = zonedFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'longOffset',
  });
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(date)) parts[p.type] = p.value;
  const gmt = parts.timeZoneName ?? 'GMT';
  const offset = gmt === 'GMT' ? '+00:00' : gmt.slice(3);
  const ms = String(date.getUTCMilliseconds()).padStart(3, '0');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${ms}${offset}`;
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
