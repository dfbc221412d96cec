import type { PanelProfile } from '../../src/panels/panels.js';
import { sleep, type Clock } from '../../src/time/clock.js';
import { checkImage } from './image-check.js';
import { PanelSim, type RefreshKind } from './panel-sim.js';
import { PowerModel, type PowerProfile } from './power.js';
import { sensorsHeader, type SensorValues } from './sim-models.js';
import type { FetchOutcome, FirmwareExtras, Transport, Via } from './transport.js';

/**
 * The simulated device: it wakes, fetches its picture through a transport, checks it as the firmware does, drives
 * the panel (full or partial refresh, ghosting), charges the battery, and sleeps for the refresh rate the server
 * gave (or its own default). After errors it follows the firmware's retry ladder: 15 s, 30 s, 60 s, then 15 min.
 * Time is injected (the daemon's Clock): `speed` shortens the real sleep, `maxSleepMs` caps it; the simulated
 * clock, the power model and the timeline always count the sleep the device intended.
 */

export const RETRY_LADDER_S = [15, 30, 60, 900] as const;

export interface DeviceOptions {
  panel: PanelProfile;
  /** The picture as seen (after the display's rotation). */
  width: number;
  height: number;
  transport: Transport;
  /** Dates the wakes; the device sleeps on its timers. */
  clock: Clock;
  /** Bytes the firmware accepts: 90,000 on the original TRMNL. */
  maxImageBytes: number;
  /** Sleep when the server says nothing, seconds. Default 900. */
  defaultRefreshS?: number;
  /**
   * A device on a fixed interval: after every good wake it sleeps this long, whatever the server says (the stock
   * 15 minutes of `simulate --day`'s second device). Default: the server's refresh rate.
   */
  fixedSleepS?: number;
  /** Real time runs this many times faster than the device's. Default 1. */
  speed?: number;
  /** The longest real sleep, ms (a demo need not wait 30 minutes). */
  maxSleepMs?: number | null;
  power?: Partial<PowerProfile>;
  /** The battery's charge at the start, percent (default 100): a Kindle started with `--battery N`. */
  startPct?: number;
  rssi?: number;
  fwVersion?: string;
  model?: string;
  /** The 2026 firmware's headers (without `sensors`, which come from `sensors` below); absent: older firmware. */
  firmware?: Omit<FirmwareExtras, 'sensors'>;
  /** Readings of an environment sensor, sent as `SENSORS` by the 2026 firmware. */
  sensors?: SensorValues;
  /** Wake numbers (from 1) that are presses of the button (`Update-Source: button`); the others are the timer's. */
  buttonWakes?: ReadonlySet<number>;
}

/** What a press came to, as the device saw it when it went back to sleep. */
export interface PressRecord {
  /**
   * `this_wake`: the new frame came with the press; `next_wake`: the server asked it back within PRESS_SOON_S (the
   * purchase was still running), and the next wake's `after_press` says whether it came then; `none`: neither.
   */
  new_frame: 'this_wake' | 'next_wake' | 'none';
}

/** A server that wants the device back this soon after a press is still fetching (PRESS_PENDING_REFRESH_S is 30). */
export const PRESS_SOON_S = 60;

export interface WakeRecord {
  n: number;
  /** `button` for a press (`Update-Source: button`), else `timer`. */
  wake_reason: 'timer' | 'button';
  /** Set on a press: whether the new frame arrived with it. */
  press: PressRecord | null;
  /** Set on the wake after a press that was answered "still running": whether the new frame arrived now. */
  after_press: { new_frame: boolean } | null;
  /** A picture the device had not shown before (a new TRMNL filename, an HTTP 200) is on the glass. */
  new_frame: boolean;
  /** Wall-clock time of the wake. */
  at: string;
  /** Simulated seconds since the device booted. */
  sim_time_s: number;
  via: Via;
  outcome: 'refreshed' | 'unchanged' | 'nothing' | 'error';
  refresh: RefreshKind;
  refresh_ms: number;
  changed_pixels: number;
  partials_since_full: number;
  ghost_max: number;
  image: {
    format: 'png' | 'bmp';
    width: number;
    height: number;
    bit_depth: number;
    bytes: number;
    hash: string;
    filename: string | null;
    downloaded: boolean;
  } | null;
  error: { code: string; message: string } | null;
  note: string;
  awake_ms: number;
  wake_mah: number;
  used_mah: number;
  battery_pct: number;
  battery_v: number;
  est_battery_days: number | null;
  sleep_s: number;
  real_sleep_ms: number;
}

export class Device {
  readonly panel: PanelSim;
  readonly power: PowerModel;
  readonly #o: DeviceOptions;
  #n = 0;
  #simMs = 0;
  #refreshS: number;
  #errors = 0;
  /** The last wake was a press answered "still running". */
  #pressPending = false;

  constructor(opts: DeviceOptions) {
    this.#o = opts;
    this.panel = new PanelSim(opts.panel, opts.width, opts.height);
    this.power = new PowerModel(opts.power, opts.startPct);
    this.#refreshS = opts.defaultRefreshS ?? 900;
  }

  get wakes(): number {
    return this.#n;
  }

  /** One wake: fetch, check, refresh, account; the returned record says how long the device will now sleep. */
  async wake(): Promise<WakeRecord> {
    const o = this.#o;
    const n = ++this.#n;
    const at = new Date(o.clock.now()).toISOString();
    const simStart = this.#simMs;
    const wakeReason = o.buttonWakes?.has(n) ? 'button' : 'timer';
    let outcome: FetchOutcome;
    try {
      outcome = await o.transport.fetch({
        batteryVolts: this.power.batteryVolts,
        batteryPct: this.power.batteryPct,
        rssi: o.rssi ?? -58,
        refreshRateS: this.#refreshS,
        fwVersion: o.fwVersion ?? '1.6.2',
        model: o.model ?? 'og',
        width: o.width,
        height: o.height,
        wakeReason,
        extra:
          o.firmware === undefined
            ? null
            : {
                ...o.firmware,
                sensors:
                  o.sensors === undefined || o.sensors.length === 0
                    ? null
                    : sensorsHeader(o.sensors, o.clock.now() / 1000),
              },
      });
    } catch (err) {
      outcome = { kind: 'error', code: 'HTTPS_CLIENT_FAILED', message: (err as Error).message, refreshRateS: null };
    }
    let refresh = {
      kind: 'none' as RefreshKind,
      ms: 0,
      changedPixels: 0,
      partialsSinceFull: this.panel.partialsSinceFull,
      ghostMax: this.panel.ghostMax(),
    };
    let image: WakeRecord['image'] = null;
    let error: WakeRecord['error'] = null;
    let downloaded = false;
    let note = outcome.kind === 'error' ? outcome.message : outcome.note;
    if (outcome.kind === 'image') {
      downloaded = outcome.downloaded;
      const checked = checkImage(
        outcome.bytes,
        outcome.contentType,
        o.panel,
        { width: o.width, height: o.height },
        { maxBytes: o.maxImageBytes },
      );
      if (checked.ok) {
        refresh = this.panel.show(checked.indices, outcome.fullRefresh === true);
        image = {
          format: checked.format,
          width: checked.width,
          height: checked.height,
          bit_depth: checked.bitDepth,
          bytes: checked.bytes,
          hash: checked.hash,
          filename: outcome.filename,
          downloaded,
        };
      } else {
        error = { code: checked.code, message: checked.message };
        o.transport.refused?.(outcome.filename);
      }
    } else if (outcome.kind === 'error') {
      error = { code: outcome.code, message: outcome.message };
    }
    if (error !== null) {
      note = error.message;
      o.transport.log?.({
        message: `${error.code}: ${error.message}`,
        level: 'error',
        created_at: Math.floor(o.clock.now() / 1000),
        battery_voltage: this.power.batteryVolts,
        wifi_signal: o.rssi ?? -58,
        refresh_rate: this.#refreshS,
        firmware_version: o.fwVersion ?? '1.6.2',
        wake_reason: n === 1 ? 'power_on' : wakeReason,
      });
    }
    const serverRate = outcome.refreshRateS;
    let sleepS: number;
    if (error !== null) {
      this.#errors++;
      sleepS = serverRate ?? RETRY_LADDER_S[Math.min(this.#errors, RETRY_LADDER_S.length) - 1]!;
    } else {
      this.#errors = 0;
      if (serverRate !== null && o.fixedSleepS === undefined) this.#refreshS = serverRate;
      sleepS = o.fixedSleepS ?? this.#refreshS;
    }
    const awakeMs = this.power.awakeMs(downloaded, refresh.ms);
    const wakeMah = this.power.wake(awakeMs);
    this.power.sleep(sleepS * 1000);
    this.#simMs += awakeMs + sleepS * 1000;
    const p = this.power.reading(wakeMah);
    const realSleep = Math.min((sleepS * 1000) / (o.speed ?? 1), o.maxSleepMs ?? Infinity);
    const newFrame = image !== null && image.downloaded;
    const press: PressRecord | null =
      wakeReason === 'button'
        ? {
            new_frame: newFrame
              ? 'this_wake'
              : error === null && serverRate !== null && serverRate <= PRESS_SOON_S
                ? 'next_wake'
                : 'none',
          }
        : null;
    const afterPress = this.#pressPending ? { new_frame: newFrame } : null;
    this.#pressPending = press?.new_frame === 'next_wake';
    return {
      n,
      wake_reason: wakeReason,
      press,
      after_press: afterPress,
      new_frame: newFrame,
      at,
      sim_time_s: Math.round(simStart / 1000),
      via: o.transport.via,
      outcome:
        error !== null
          ? 'error'
          : refresh.kind !== 'none'
            ? 'refreshed'
            : outcome.kind === 'nothing'
              ? 'nothing'
              : 'unchanged',
      refresh: refresh.kind,
      refresh_ms: refresh.ms,
      changed_pixels: refresh.changedPixels,
      partials_since_full: refresh.partialsSinceFull,
      ghost_max: refresh.ghostMax,
      image,
      error,
      note,
      awake_ms: awakeMs,
      wake_mah: p.wakeMah,
      used_mah: p.usedMah,
      battery_pct: p.batteryPct,
      battery_v: p.batteryVolts,
      est_battery_days: p.estDays,
      sleep_s: sleepS,
      real_sleep_ms: Math.round(realSleep),
    };
  }

  /**
   * Wakes `wakes` times (Infinity: until the signal), sleeping between wakes; `onWake` sees every record before
   * the device sleeps. Resolves with the records; an abort ends the sleep at once.
   */
  async run(wakes: number, onWake: (r: WakeRecord) => unknown, signal?: AbortSignal): Promise<WakeRecord[]> {
    const out: WakeRecord[] = [];
    while (out.length < wakes && !signal?.aborted) {
      const r = await this.wake();
      out.push(r);
      await onWake(r);
      if (out.length >= wakes) break;
      // An abort ends the sleep and, through the loop's condition, the run: not an error.
      await sleep(this.#o.clock, r.real_sleep_ms, signal).catch(() => undefined);
    }
    return out;
  }
}
