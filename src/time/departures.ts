import { addDays, instantOfWall, localParts, type LocalDate } from './zoned-time.js';

/**
 * A person's departures (config `people[].leaves`, docs/guides/household.md "Departures"): weekdays as cron writes
 * them (0 and 7 Sunday, ranges and lists) and a local time, "1-5 07:40", "6,0 10:00"; a time alone is every day.
 */
export interface Departure {
  readonly text: string;
  /** Weekdays it applies on, 0 = Sunday ... 6 = Saturday. */
  readonly weekdays: ReadonlySet<number>;
  /** Minutes after local midnight. */
  readonly minuteOfDay: number;
}

const FORM = /^(?:([0-7](?:-[0-7])?(?:,[0-7](?:-[0-7])?)*) )?([01]\d|2[0-3]):([0-5]\d)$/;

/** Reads one departure; throws an Error naming the text when it is not one. */
export function parseDeparture(text: string): Departure {
  const m = FORM.exec(text);
  if (m === null)
    throw new Error(`a departure must look like "1-5 07:40" (weekdays 0-7, then HH:MM) or "07:40", got "${text}"`);
  const weekdays = new Set<number>();
  if (m[1] === undefined) for (let d = 0; d < 7; d++) weekdays.add(d);
  else
    for (const part of m[1].split(',')) {
      const [a, b] = part.split('-').map(Number) as [number, number | undefined];
      if (b !== undefined && b < a) throw new Error(`departure "${text}": the range ${part} runs backwards`);
      for (let d = a; d <= (b ?? a); d++) weekdays.add(d % 7);
    }
  return { text, weekdays, minuteOfDay: Number(m[2]) * 60 + Number(m[3]) };
}

/** The first instant strictly after `t` at which one of `departures` falls, in `tz`; null for none. */
export function nextDeparture(departures: readonly Departure[], t: number, tz: string): number | null {
  if (departures.length === 0) return null;
  let best: number | null = null;
  let d: LocalDate = localParts(t, tz);
  // Yesterday to a week ahead: every weekday is seen, and a fall-back's repeated hour is covered.
  d = addDays(d, -1);
  for (let i = 0; i < 9; i++, d = addDays(d, 1)) {
    const wd = new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
    for (const dep of departures) {
      if (!dep.weekdays.has(wd)) continue;
      const at = instantOfWall(d, dep.minuteOfDay, tz);
      if (at > t && (best === null || at < best)) best = at;
    }
    if (best !== null && i >= 2) break;
  }
  return best;
}

/** The last departure at or before `t` and after `notBefore`; null for none (looks back at most 8 days). */
export function lastDepartureAtOrBefore(
  departures: readonly Departure[],
  t: number,
  notBefore: number,
  tz: string,
): number | null {
  let best: number | null = null;
  let d: LocalDate = addDays(localParts(t, tz), 1);
  for (let i = 0; i < 10; i++, d = addDays(d, -1)) {
    const wd = new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
    for (const dep of departures) {
      if (!dep.weekdays.has(wd)) continue;
      const at = instantOfWall(d, dep.minuteOfDay, tz);
      if (at <= t && at > notBefore && (best === null || at > best)) best = at;
    }
  }
  return best;
}
