import type { PowerProfile } from './power.js';

/**
 * What `simulate --day` measured (day-run.ts): one local day of two simulated devices against a daemon on a virtual
 * clock, each waking on what the wire told it. The counts are of the wakes the devices made, not of a formula:
 *   `refresh_rate`  the device sleeps what the daemon answers (TRMNL `refresh_rate`, `X-Refresh-Rate`, `sleep.txt`);
 *   `stock_15min`   a device on a fixed 15 minutes: 900 s after every wake, whatever the server says.
 * A wake lasts what power.ts says (a download and the panel's refresh, or a short check); the charge a day is that
 * awake time at the wake current and the rest of the day at the sleep current.
 */

export type DayPolicy = 'refresh_rate' | 'stock_15min';

export const DAY_POLICIES: readonly DayPolicy[] = ['refresh_rate', 'stock_15min'];

export interface DayRow {
  policy: DayPolicy;
  wakes: number;
  /** Wakes that put a picture on the glass other than the one it showed. */
  new_frames: number;
  /** null when no new frame came all day. */
  wakes_per_new_frame: number | null;
  /** Bytes of the answers' bodies the device received in the day (HTTP headers not counted). */
  bytes: number;
  mah_per_day: number;
  days_per_charge: number;
}

export interface DayReport {
  /** The schedule the daemon ran for the display (`auto` resolved, or the densest that fits the budget). */
  schedule: string;
  timezone: string;
  /** The local date measured (YYYY-MM-DD). */
  date: string;
  /** How the devices reached the daemon. */
  via: 'http' | 'trmnl' | 'esphome';
  panel: string;
  /** The power profile's capacity, mAh. */
  capacity_mah: number;
  rows: [DayRow, DayRow];
}

/** One wake of a measured day, as the device saw it. */
export interface DayWake {
  /** How long the device was awake, ms (power.ts). */
  awakeMs: number;
  /** A picture other than the one on the glass was shown. */
  newFrame: boolean;
  /** Body bytes received in the wake. */
  bytes: number;
}

/** A device's row from the wakes it began within the day (`dayMs` long: 23, 24 or 25 hours). */
export function dayRow(policy: DayPolicy, wakes: readonly DayWake[], dayMs: number, p: PowerProfile): DayRow {
  const awakeMs = wakes.reduce((sum, w) => sum + w.awakeMs, 0);
  const newFrames = wakes.filter((w) => w.newFrame).length;
  const mah = (p.wakeMa * awakeMs + p.sleepMa * (dayMs - awakeMs)) / 3_600_000;
  return {
    policy,
    wakes: wakes.length,
    new_frames: newFrames,
    wakes_per_new_frame: newFrames === 0 ? null : Math.round((wakes.length / newFrames) * 100) / 100,
    bytes: wakes.reduce((sum, w) => sum + w.bytes, 0),
    mah_per_day: Math.round(mah * 100) / 100,
    days_per_charge: Math.round((p.capacityMah / mah) * 10) / 10,
  };
}

const LABEL: Record<DayPolicy, string> = { refresh_rate: 'our refresh_rate', stock_15min: 'stock, every 15 min' };

/** The report as a small table for the terminal. */
export function formatDayReport(r: DayReport, device: string): string {
  const head = ['policy', 'wakes', 'new frames', 'wakes/new frame', 'bytes', 'mAh/day', 'days/charge'];
  const rows = r.rows.map((x) => [
    LABEL[x.policy],
    String(x.wakes),
    String(x.new_frames),
    x.wakes_per_new_frame === null ? '-' : x.wakes_per_new_frame.toFixed(2),
    String(x.bytes),
    x.mah_per_day.toFixed(1),
    x.days_per_charge.toFixed(1),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    `one day (${r.date}) of "${r.schedule}" (${r.timezone}), ${device} on ${r.panel} via ${r.via}, ${r.capacity_mah} mAh: measured against the daemon on a virtual clock`,
    line(head),
    ...rows.map(line),
  ].join('\n');
}
