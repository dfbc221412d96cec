import { addDays, instantOfWall, localParts } from './zoned-time.js';

/**
 * Quiet hours (docs/guides/household.md, "Quiet hours"): a daily window in the config's time zone, "22:30-06:30"
 * running past midnight, in which nothing is bought and the devices that pull sleep. Wall-clock minutes, so a
 * daylight-saving change moves the window with the clocks on the wall: a window ending at a time a spring-forward
 * skips ends when the gap does.
 */
export interface QuietHours {
  /** As written ("22:30-06:30"). */
  readonly text: string;
  /** Minutes after local midnight. */
  readonly startMin: number;
  readonly endMin: number;
}

const FORM = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;

/** Reads "HH:MM-HH:MM"; throws an Error naming the text when it is not one (the schema has checked it already). */
export function parseQuietHours(text: string): QuietHours {
  const m = FORM.exec(text);
  if (m === null) throw new Error(`quiet_hours must look like "22:30-06:30" (start-end, 24-hour), got "${text}"`);
  const startMin = Number(m[1]) * 60 + Number(m[2]);
  const endMin = Number(m[3]) * 60 + Number(m[4]);
  if (startMin === endMin) throw new Error(`quiet_hours "${text}": start and end must differ`);
  return { text, startMin, endMin };
}

/** Whether local minute-of-day `m` lies in the window (start included, end not). */
export function quietAtMinute(q: QuietHours, m: number): boolean {
  return q.startMin < q.endMin ? m >= q.startMin && m < q.endMin : m >= q.startMin || m < q.endMin;
}

/** Whether instant `t` falls in the quiet hours, in `tz`. */
export function inQuietHours(q: QuietHours, t: number, tz: string): boolean {
  const p = localParts(t, tz);
  return quietAtMinute(q, p.hour * 60 + p.minute);
}

/** The end of the quiet window that holds `t` (the first instant after it), or null when `t` is not in one. */
export function quietEnd(q: QuietHours, t: number, tz: string): number | null {
  const p = localParts(t, tz);
  const m = p.hour * 60 + p.minute;
  if (!quietAtMinute(q, m)) return null;
  // A window past midnight, entered before midnight, ends tomorrow.
  const day = q.startMin > q.endMin && m >= q.startMin ? addDays(p, 1) : p;
  return instantOfWall(day, q.endMin, tz);
}
