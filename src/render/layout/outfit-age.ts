import { dayKey } from '../../time/zoned-time.js';

/**
 * How old the outfit on show is, as the frame tells it: by the calendar day it was made for in the display's time
 * zone, not by hours, since an outfit is advice for one day's weather. Pure.
 */

/**
 * The most calendar days past its own day an outfit is still shown (marked as old, with its age as the headline):
 * yesterday's weather is a fair guide to today's and the day before's a rough one, so these still tell what to put on;
 * from the third day the garments would answer weather that has most likely moved on, and garments on the wall are
 * read as advice whatever the label says. Then the frame withdraws the outfit (no garments, no readings) and says
 * how old the last one is and why no new one came.
 */
export const MAX_DAYS_SHOWN = 2;

export type OutfitAge =
  /** Made for today and not out of date by the schedule. */
  | { kind: 'current' }
  /**
   * Made for today, but a slot passed without a new answer (the schedule's `stale`): hours old, badged as such.
   * `ms` null: its time is unknown or ahead of the clock.
   */
  | { kind: 'stale'; ms: number | null }
  /** Made for an earlier day, 1 to MAX_DAYS_SHOWN days before today: shown, headed by its age in days. */
  | { kind: 'past_day'; days: number }
  /** Made for a day more than MAX_DAYS_SHOWN days before today: not shown. */
  | { kind: 'withdrawn'; days: number };

export interface OutfitAgeOptions {
  /** When the outfit was fetched (or generated); null when it carries no readable time. */
  made: Date | null;
  now: Date;
  /** The display's IANA time zone: the days are its calendar days. */
  timeZone: string;
  /** Out of date by the schedule (a slot passed without a new answer), or the status `stale`. */
  stale: boolean;
}

/** Whole calendar days from the day of `from` to the day of `to` in `timeZone` (DST days count as one). */
export function calendarDaysBetween(from: Date, to: Date, timeZone: string): number {
  const utc = (key: string): number => {
    const [y, m, d] = key.split('-').map(Number);
    return Date.UTC(y!, m! - 1, d);
  };
  return Math.round((utc(dayKey(to, timeZone)) - utc(dayKey(from, timeZone))) / 86_400_000);
}

export function outfitAge(o: OutfitAgeOptions): OutfitAge {
  // Made ahead of the clock, or at no known time: no age can be told, only the schedule's word.
  if (o.made === null || o.made.getTime() > o.now.getTime())
    return o.stale ? { kind: 'stale', ms: null } : { kind: 'current' };
  const days = calendarDaysBetween(o.made, o.now, o.timeZone);
  if (days > MAX_DAYS_SHOWN) return { kind: 'withdrawn', days };
  if (days >= 1) return { kind: 'past_day', days };
  return o.stale ? { kind: 'stale', ms: o.now.getTime() - o.made.getTime() } : { kind: 'current' };
}
