import type { CronTimes } from '../../src/budget/cron-times.js';
import { localParts } from '../../src/time/zoned-time.js';

/**
 * The figures of a week under faults (week-under-faults.ts), from what the wall showed each minute and what was bought.
 *
 * The promise of a schedule: from `grace` after each of its slots until the next slot, the wall shows an answer bought
 * at or after that slot. So at time t the answer on show is fresh when it was bought at or after the latest slot at
 * or before t − grace (before a display's first slot of a day, the previous day's last one). This is the daemon's own
 * "stale": a scheduled slot has passed without a new answer, after a short grace. It holds for schedules with hours
 * off (a daily one, an `auto` one within active hours) where a fixed maximum age would not.
 */

/** A fault of the trace: while it lasts the wall is not held to the promise. */
export interface FaultWindow {
  /** What it is, for the report ("outage 503", "402 until top-up"). */
  label: string;
  start: number;
  /** When it ends (the restart: its instant). */
  end: number;
  /** How long after the end the wall may take to be fresh again (the backoff or probe that governs it), minutes. */
  boundMin: number;
}

/** The wall at one minute: when the answer on show was bought, or null for none. */
export interface Sample {
  at: number;
  fetchedAt: number | null;
}

/** A purchase the service billed. */
export interface Purchase {
  at: number;
  credits: number;
}

export interface WeekFigures {
  /** Share of active-hour minutes fresh, all of them (faults included), percent. */
  freshnessAll: number;
  /** Share of active-hour minutes fresh outside the fault windows, percent. */
  freshnessOutside: number;
  /** Active-hour minutes stale outside the fault windows. */
  staleOutside: number;
  /** The stretches of stale active minutes outside the fault windows: when each began, and how long it lasted. */
  staleStretches: { from: number; minutes: number }[];
  /** Per fault: minutes from its end until the wall was fresh (null: never within the week). */
  afterFault: { label: string; staleMin: number | null; boundMin: number }[];
  /** The 1 % 5xx that hit a purchase: how many, and the most stale active minutes outside the faults one caused (until a newer answer was on show). */
  errors: { hits: number; maxStaleMin: number };
  purchases: number;
  credits: number;
  /** Purchases beyond the first for one slot (bought while the wall already had that slot's answer), and their credits. */
  twiceForSlot: number;
  wastedCredits: number;
  /**
   * Purchases replaced by the next purchase within half their slot's interval (a late retry just before the
   * next slot): not waste by the rule above, but an answer that was on the wall only briefly.
   */
  shortLived: number;
}

/** Looks back at most this far for a slot (a weekly schedule's gap, and a day). */
const LOOKBACK_MS = 8 * 86_400_000;

/** The slot a time belongs to: the latest scheduled instant at or before it, or null. */
export function slotOf(cron: CronTimes, t: number): number | null {
  return cron.lastAtOrBefore(t, t - LOOKBACK_MS);
}

/** Whether an answer bought at `fetchedAt` keeps the schedule's promise at `t` (see the module comment). */
export function isFresh(cron: CronTimes, graceMs: number, t: number, fetchedAt: number | null): boolean {
  const slot = slotOf(cron, t - graceMs);
  if (slot === null) return true;
  return fetchedAt !== null && fetchedAt >= slot;
}

/** Local minutes of the day [from, to) in which freshness is counted, e.g. 07:00-22:00 → [420, 1320). */
export interface ActiveWindow {
  fromMin: number;
  toMin: number;
}

export function parseWindow(text: string): ActiveWindow {
  const m = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/.exec(text);
  if (!m) throw new Error(`an active window looks like "07:00-22:00", got "${text}"`);
  return { fromMin: Number(m[1]) * 60 + Number(m[2]), toMin: Number(m[3]) * 60 + Number(m[4]) };
}

export function inWindow(w: ActiveWindow, t: number, timezone: string): boolean {
  const p = localParts(t, timezone);
  const min = p.hour * 60 + p.minute;
  return min >= w.fromMin && min < w.toMin;
}

export interface FigureInput {
  cron: CronTimes;
  timezone: string;
  graceMs: number;
  window: ActiveWindow;
  /** One a minute, in time order. */
  samples: Sample[];
  faults: FaultWindow[];
  purchases: Purchase[];
  /** When the injected 1 % errors hit a purchase. */
  errorHits: number[];
}

export function weekFigures(i: FigureInput): WeekFigures {
  const fresh = i.samples.map((s) => isFresh(i.cron, i.graceMs, s.at, s.fetchedAt));
  const inFault = (t: number): boolean => i.faults.some((f) => t >= f.start && t < f.end);
  let active = 0;
  let activeFresh = 0;
  let outside = 0;
  let outsideFresh = 0;
  const staleStretches: WeekFigures['staleStretches'] = [];
  let stretch: WeekFigures['staleStretches'][number] | null = null;
  i.samples.forEach((s, k) => {
    const counted = inWindow(i.window, s.at, i.timezone);
    if (counted) active++;
    if (counted && fresh[k]) activeFresh++;
    if (!counted || inFault(s.at) || fresh[k]) {
      stretch = null;
      return;
    }
    if (stretch === null) {
      stretch = { from: s.at, minutes: 0 };
      staleStretches.push(stretch);
    }
    stretch.minutes++;
  });
  i.samples.forEach((s, k) => {
    if (!inWindow(i.window, s.at, i.timezone) || inFault(s.at)) return;
    outside++;
    if (fresh[k]) outsideFresh++;
  });
  /** Minutes from `t` until the first fresh sample at or after it (null: none). */
  const staleFrom = (t: number): number | null => {
    const k = i.samples.findIndex((s, n) => s.at >= t && fresh[n]);
    return k < 0 ? null : Math.round(((i.samples[k]?.at ?? t) - t) / 60_000);
  };
  /** Stale active minutes outside the faults from `t` until an answer bought after `t` is on the wall. */
  const staleUntilNewAnswer = (t: number): number => {
    let n = 0;
    for (let k = 0; k < i.samples.length; k++) {
      const s = i.samples[k];
      if (s === undefined || s.at < t) continue;
      if (s.fetchedAt !== null && s.fetchedAt >= t) break;
      if (!fresh[k] && inWindow(i.window, s.at, i.timezone) && !inFault(s.at)) n++;
    }
    return n;
  };
  const bySlot = new Map<number, number>();
  let wastedCredits = 0;
  for (const p of i.purchases) {
    const slot = slotOf(i.cron, p.at) ?? -1;
    const n = (bySlot.get(slot) ?? 0) + 1;
    bySlot.set(slot, n);
    if (n > 1) wastedCredits += p.credits;
  }
  const shortLived = i.purchases.filter((p, k) => {
    const next = i.purchases[k + 1];
    const slot = slotOf(i.cron, p.at);
    const after = slot === null ? null : i.cron.nextAfter(slot);
    return next !== undefined && slot !== null && after !== null && next.at - p.at <= (after - slot) / 2;
  }).length;
  return {
    shortLived,
    freshnessAll: active === 0 ? 100 : (100 * activeFresh) / active,
    freshnessOutside: outside === 0 ? 100 : (100 * outsideFresh) / outside,
    staleOutside: outside - outsideFresh,
    staleStretches,
    afterFault: i.faults.map((f) => ({ label: f.label, staleMin: staleFrom(f.end), boundMin: f.boundMin })),
    errors: { hits: i.errorHits.length, maxStaleMin: Math.max(0, ...i.errorHits.map(staleUntilNewAnswer)) },
    purchases: i.purchases.length,
    credits: i.purchases.reduce((a, p) => a + p.credits, 0),
    twiceForSlot: i.purchases.length - bySlot.size,
    wastedCredits,
  };
}
