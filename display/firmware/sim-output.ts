import { appendFile, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DayReport } from './day-report.js';
import type { WakeRecord } from './device.js';

/**
 * What the simulator leaves in --out DIR after each wake:
 *   wake-0001.png …  what the glass shows after that wake (8-bit grey, or the panel's colours)
 *   glass.png        the newest of them
 *   glass-ink.png    the newest in the panel's measured inks, for panels whose profile has them (the 7.3" F, the
 *                    7.5" B, the Inky Impression): how the colours look on the real glass
 *   timeline.jsonl   one JSON line a wake (the WakeRecord plus the file name)
 *   summary.json     at the end: the run's counts, each press and when its frame came, and the day report
 * Files are written to a temporary name and renamed, so a reader never sees half a picture.
 */

export type TimelineLine = WakeRecord & { glass: string };

/** A press and the wake its new frame came on (this one, the next, or none of the two). */
export interface PressSummary {
  wake: number;
  new_frame: 'this_wake' | 'next_wake' | 'none';
}

export interface SimSummary {
  /** `--model`, or null for the display's own panel. */
  model: string | null;
  panel: string;
  wakes: number;
  /** Wakes that brought a picture the device had not shown. */
  new_frames: number;
  refreshed: number;
  errors: number;
  presses: PressSummary[];
  est_battery_days: number | null;
  /** With `--day`. */
  day: DayReport | null;
}

/** Each press, settled by the wake after it where the press was answered "still running". */
export function pressesOf(records: readonly WakeRecord[]): PressSummary[] {
  return records.flatMap((r, i) => {
    if (r.press === null) return [];
    const next = records[i + 1];
    const settled =
      r.press.new_frame === 'next_wake' && next?.after_press?.new_frame !== true ? 'none' : r.press.new_frame;
    return [{ wake: r.n, new_frame: settled }];
  });
}

export class SimOutput {
  readonly dir: string;
  #ready: Promise<void> | null = null;

  constructor(dir: string) {
    this.dir = dir;
  }

  static glassName(n: number): string {
    return `wake-${String(n).padStart(4, '0')}.png`;
  }

  async #prepare(): Promise<void> {
    this.#ready ??= mkdir(this.dir, { recursive: true }).then(() =>
      writeFile(path.join(this.dir, 'timeline.jsonl'), ''),
    );
    await this.#ready;
  }

  async #atomic(name: string, data: Buffer): Promise<void> {
    const tmp = path.join(this.dir, `.${name}.${process.pid}.tmp`);
    await writeFile(tmp, data);
    await rename(tmp, path.join(this.dir, name));
  }

  /** `inkPng`: the glass in the measured inks, when the panel has them. */
  async write(record: WakeRecord, glassPng: Buffer, inkPng?: Buffer): Promise<TimelineLine> {
    await this.#prepare();
    const glass = SimOutput.glassName(record.n);
    await this.#atomic(glass, glassPng);
    await this.#atomic('glass.png', glassPng);
    if (inkPng) await this.#atomic('glass-ink.png', inkPng);
    const line: TimelineLine = { ...record, glass };
    await appendFile(path.join(this.dir, 'timeline.jsonl'), `${JSON.stringify(line)}\n`);
    return line;
  }

  async writeSummary(summary: SimSummary): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await this.#atomic('summary.json', Buffer.from(`${JSON.stringify(summary, null, 2)}\n`));
  }
}

/** One line for the terminal. */
export function describeWake(r: WakeRecord): string {
  const what =
    r.outcome === 'error'
      ? `error ${r.error?.code ?? ''}: ${r.error?.message ?? ''}`
      : r.outcome === 'refreshed'
        ? `${r.refresh} refresh ${r.refresh_ms} ms, ${r.changed_pixels} px changed${r.ghost_max > 0 ? `, ghosting ${r.ghost_max}` : ''}`
        : r.note;
  const days = r.est_battery_days === null ? '' : `, ~${r.est_battery_days} days a charge`;
  const press = r.press === null ? '' : ` (button: new frame ${r.press.new_frame.replace('_', ' ')})`;
  return `wake ${r.n} [${r.via}]${press} ${what}; battery ${r.battery_pct.toFixed(2)}% (${r.battery_v} V${days}); sleeping ${r.sleep_s} s`;
}
