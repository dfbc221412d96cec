import { CronTimes } from '../../src/budget/cron-times.js';
import type { PanelProfile } from '../../src/panels/panels.js';
import { refreshRateFor } from '../../src/trmnl/refresh-rate.js';
import { addDays, dateKey, localParts, startOfDay } from '../../src/time/zoned-time.js';
import { PowerModel, type PowerProfile } from './power.js';

/**
 * One day of a device on the display's schedule, in simulated time (no network, no waiting): how often it wakes,
 * how many of those wakes bring a new frame, and what that costs the battery, for two sleep policies:
 *   `refresh_rate`  the device sleeps what the daemon tells it: until the display's next update plus the margin
 *                   (src/trmnl/refresh-rate.ts, the same function the daemon answers with);
 *   `stock_15min`   the stock firmware's fixed cadence: 900 s after every wake, whatever the server says.
 * A wake lasts what power.ts says (a download and the panel's refresh, or a short check) and the device sleeps
 * after it, as Device does. A model, not a measurement.
 */

export type DayPolicy = 'refresh_rate' | 'stock_15min';

export interface DayRow {
  policy: DayPolicy;
  wakes: number;
  /** Wakes that downloaded a frame the device had not shown. */
  new_frames: number;
  /** null when no new frame came all day. */
  wakes_per_new_frame: number | null;
  mah_per_day: number;
  days_per_charge: number;
}

export interface DayReport {
  schedule: string;
  timezone: string;
  /** The local date simulated (YYYY-MM-DD). */
  date: string;
  panel: string;
  /** The power profile's capacity, mAh. */
  capacity_mah: number;
  rows: [DayRow, DayRow];
}

export interface DayReportOptions {
  /** The display's schedule (cron, in `timezone`). */
  schedule: string;
  timezone: string;
  /** The device's glass: full or partial refresh, and how long each takes. */
  panel: PanelProfile;
  power: PowerProfile;
  /** Any instant of the day before the one simulated (the simulated day is the next local date: a full one). */
  from: number;
  /** The daemon's margin after an update (default 30 s, as the daemon's refreshMarginS). */
  marginS?: number;
  /** Seconds after a scheduled update until its frame is served (default 20: a fetch and a render; an assumption). */
  readyS?: number;
}

const DAY_MS = 86_400_000;
const STOCK_S = 900;

/** The refresh the panel does for a new frame: full for greys and colours, else partial but every full_every-th. */
function refreshMs(panel: PanelProfile, partials: number): { ms: number; partials: number } {
  const r = panel.refresh;
  const partial = panel.palette.length <= 2 && r.partial && r.partial_ms !== null && partials + 1 < r.full_every;
  return partial ? { ms: r.partial_ms!, partials: partials + 1 } : { ms: r.full_ms, partials: 0 };
}

function simulate(o: DayReportOptions, cron: CronTimes, dayStart: number, policy: DayPolicy): DayRow {
  const ready = (o.readyS ?? 20) * 1000;
  const power = new PowerModel(o.power);
  const dayEnd = dayStart + DAY_MS;
  // A day of warm-up, so the day counted starts where the rhythm has settled.
  let t = dayStart - DAY_MS;
  let shown = cron.lastAtOrBefore(t, t - 40 * DAY_MS);
  let partials = 0;
  let wakes = 0;
  let newFrames = 0;
  let awakeMsInDay = 0;
  while (t < dayEnd) {
    const latest = cron.lastAtOrBefore(t - ready, t - 40 * DAY_MS);
    const isNew = latest !== null && latest !== shown;
    let panelMs = 0;
    if (isNew) {
      shown = latest;
      ({ ms: panelMs, partials } = refreshMs(o.panel, partials));
    }
    const awakeMs = power.awakeMs(isNew, panelMs);
    if (t >= dayStart) {
      wakes++;
      if (isNew) newFrames++;
      awakeMsInDay += awakeMs;
    }
    const next = cron.nextAfter(t);
    const sleepS =
      policy === 'stock_15min' ? STOCK_S : refreshRateFor(next === null ? null : new Date(next), t, o.marginS ?? 30);
    t += awakeMs + sleepS * 1000;
  }
  const p = o.power;
  const mah = (p.wakeMa * awakeMsInDay + p.sleepMa * (DAY_MS - awakeMsInDay)) / 3_600_000;
  return {
    policy,
    wakes,
    new_frames: newFrames,
    wakes_per_new_frame: newFrames === 0 ? null : Math.round((wakes / newFrames) * 100) / 100,
    mah_per_day: Math.round(mah * 100) / 100,
    days_per_charge: Math.round((p.capacityMah / mah) * 10) / 10,
  };
}

/** Throws an Error when the schedule is not valid cron. */
export function dayReport(o: DayReportOptions): DayReport {
  const cron = new CronTimes(o.schedule, o.timezone);
  const date = addDays(localParts(o.from, o.timezone), 1);
  const dayStart = startOfDay(date, o.timezone);
  return {
    schedule: o.schedule,
    timezone: o.timezone,
    date: dateKey(date),
    panel: o.panel.id,
    capacity_mah: o.power.capacityMah,
    rows: [simulate(o, cron, dayStart, 'refresh_rate'), simulate(o, cron, dayStart, 'stock_15min')],
  };
}

const LABEL: Record<DayPolicy, string> = { refresh_rate: 'our refresh_rate', stock_15min: 'stock, every 15 min' };

/** The report as a small table for the terminal. */
export function formatDayReport(r: DayReport, device: string): string {
  const head = ['policy', 'wakes', 'new frames', 'wakes/new frame', 'mAh/day', 'days/charge'];
  const rows = r.rows.map((x) => [
    LABEL[x.policy],
    String(x.wakes),
    String(x.new_frames),
    x.wakes_per_new_frame === null ? '-' : x.wakes_per_new_frame.toFixed(2),
    x.mah_per_day.toFixed(1),
    x.days_per_charge.toFixed(1),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    `one day (${r.date}) of "${r.schedule}" (${r.timezone}), ${device} on ${r.panel}, ${r.capacity_mah} mAh: a model, not a measurement`,
    line(head),
    ...rows.map(line),
  ].join('\n');
}
