import type { Logger } from 'pino';
import type { WarningCode } from '../shared/codes.js';
import type { Clock } from '../time/clock.js';
import { timeOrNull } from '../time/zoned-time.js';

/**
 * The devices that pull a display's frame (TRMNL boards, Kindles) and what each said at its last wake: battery,
 * power, signal, firmware, room sensors. One book for the daemon; the TRMNL endpoints and the frame route write it,
 * the status page and Home Assistant read it.
 *
 * A device is available while it keeps its own rhythm: seen within three of its refresh periods (the seconds we
 * told it to sleep, else the ones it said it would). A listener hears every report and every device that went quiet,
 * at the moment it did, from a timer on the injected clock.
 *
 * The room-sensor kinds of a device are its own words (`SENSORS`), each an entity in Home Assistant: the book keeps
 * the first MAX_SENSOR_KINDS a device sends, with the unit first seen, and drops readings of any later kind (said once
 * a device). What a device can make the daemon hold is so bounded, whatever it sends at how many wakes.
 */

/** Sensor kinds kept per device; readings of a kind past them are dropped. */
export const MAX_SENSOR_KINDS = 32;

/** Warning: a device sent more sensor kinds than the book keeps; readings of the rest are dropped. */
export const W_DEVICE_SENSORS_CAPPED = 'W_DEVICE_SENSORS_CAPPED' satisfies WarningCode;

export interface SensorReading {
  /** `temperature`, `humidity`, `co2`, or whatever kind the firmware names (lower case, [a-z0-9_]). */
  kind: string;
  value: number;
  /** As the device sent it (`C`, `%`, `ppm`), or null. */
  unit: string | null;
  /** The sensor's make and model, when sent. */
  source: string | null;
}

export interface DeviceReport {
  /** `trmnl-aabbccddeeff` for a TRMNL, `kindle` for a display's Kindle: unique within a display. */
  key: string;
  display: string;
  kind: 'trmnl' | 'kindle';
  /** `AA:BB:CC:DD:EE:FF`, or null for a Kindle. */
  mac: string | null;
  /** The `Model` header, as sent. */
  model: string | null;
  /** The profile its frames are drawn for. */
  panel: string | null;
  /** 0–100: `Percent-Charged` or the Kindle's batteryLevel when sent, else from the voltage. */
  batteryPct: number | null;
  batteryVoltage: number | null;
  charging: boolean | null;
  usbPower: boolean | null;
  rssi: number | null;
  fwVersion: string | null;
  /** Why it woke (`timer`, `button`, …), as sent. */
  wakeReason: string | null;
  sensors: readonly SensorReading[];
  /** Seconds it sleeps before the next wake (what we told it), or null when unknown. */
  periodS: number | null;
  at: Date;
}

export interface DeviceEntry extends DeviceReport {
  available: boolean;
}

export type DeviceEvent = { kind: 'report'; device: DeviceEntry } | { kind: 'quiet'; device: DeviceEntry };

export interface DeviceBookOptions {
  /** Timers for "went quiet" and the time availability is judged at. */
  clock: Clock;
  /** Periods a device may miss before it is unavailable (default 3). */
  missedPeriods?: number;
  /** Where a device past MAX_SENSOR_KINDS is said (once a device). */
  logger?: Logger;
}

/** A device that never said its period is judged against an hour. */
const DEFAULT_PERIOD_S = 3600;

export class DeviceBook {
  readonly #o: DeviceBookOptions;
  readonly #devices = new Map<string, DeviceReport>();
  readonly #timers = new Map<string, unknown>();
  /** Each device's sensor kinds, in the order first sent, with the unit first seen: at most MAX_SENSOR_KINDS. */
  readonly #kinds = new Map<string, Map<string, string | null>>();
  /** Devices already said to be past MAX_SENSOR_KINDS. */
  readonly #capped = new Set<string>();
  readonly #listeners: Array<(e: DeviceEvent) => void> = [];

  constructor(opts: DeviceBookOptions) {
    this.#o = opts;
  }

  /** Hears every report and every device that went quiet. */
  onEvent(listener: (e: DeviceEvent) => void): void {
    this.#listeners.push(listener);
  }

  /** A device's wake: recorded, announced, and its quiet timer set again. */
  report(r: DeviceReport): DeviceEntry {
    const id = bookKey(r.display, r.key);
    const prev = this.#devices.get(id);
    const sensors = this.#admit(id, r);
    // A Kindle's query carries only its battery: what an earlier request told (its model) is kept.
    const merged: DeviceReport =
      prev === undefined
        ? { ...r, sensors }
        : {
            ...r,
            sensors,
            model: r.model ?? prev.model,
            panel: r.panel ?? prev.panel,
            fwVersion: r.fwVersion ?? prev.fwVersion,
          };
    this.#devices.set(id, merged);
    this.#arm(id, merged);
    const entry = this.#entry(merged);
    this.#emit({ kind: 'report', device: entry });
    return entry;
  }

  /** Sets the period of a device already reported (the refresh_rate just sent to it). */
  setPeriod(display: string, key: string, periodS: number): void {
    const id = bookKey(display, key);
    const d = this.#devices.get(id);
    if (d === undefined || d.periodS === periodS) return;
    const next = { ...d, periodS };
    this.#devices.set(id, next);
    this.#arm(id, next);
  }

  /** The sensor kinds a device has sent (those kept), in the order first sent, each with the unit first seen. */
  sensorKinds(display: string, key: string): ReadonlyMap<string, string | null> {
    return this.#kinds.get(bookKey(display, key)) ?? new Map<string, string | null>();
  }

  /** The readings of a report whose kinds are kept: a new kind while there is room, a known kind always. */
  #admit(id: string, r: DeviceReport): readonly SensorReading[] {
    if (r.sensors.length === 0) return r.sensors;
    const kinds = this.#kinds.get(id) ?? new Map<string, string | null>();
    this.#kinds.set(id, kinds);
    const kept: SensorReading[] = [];
    const dropped: string[] = [];
    for (const s of r.sensors) {
      if (!kinds.has(s.kind) && kinds.size >= MAX_SENSOR_KINDS) {
        dropped.push(s.kind);
        continue;
      }
      if (!kinds.has(s.kind)) kinds.set(s.kind, s.unit);
      kept.push(s);
    }
    if (dropped.length > 0 && !this.#capped.has(id)) {
      this.#capped.add(id);
      this.#o.logger?.warn(
        {
          code: W_DEVICE_SENSORS_CAPPED,
          display: r.display,
          device: r.key,
          max_kinds: MAX_SENSOR_KINDS,
          dropped: dropped.slice(0, 4),
        },
        `a device sent more than ${MAX_SENSOR_KINDS} sensor kinds: readings of the others are dropped (said once a device)`,
      );
    }
    return kept.length === r.sensors.length ? r.sensors : kept;
  }

  get(display: string, key: string): DeviceEntry | null {
    const d = this.#devices.get(bookKey(display, key));
    return d === undefined ? null : this.#entry(d);
  }

  /** The devices of a display (all, without `display`), in the order first seen. */
  list(display?: string): DeviceEntry[] {
    return [...this.#devices.values()]
      .filter((d) => display === undefined || d.display === display)
      .map((d) => this.#entry(d));
  }

  /** Stops the quiet timers (the daemon's stop). */
  close(): void {
    for (const t of this.#timers.values()) this.#o.clock.clearTimeout(t);
    this.#timers.clear();
  }

  #quietAfterMs(d: DeviceReport): number {
    return (this.#o.missedPeriods ?? 3) * (d.periodS ?? DEFAULT_PERIOD_S) * 1000;
  }

  #entry(d: DeviceReport): DeviceEntry {
    return { ...d, available: this.#o.clock.now() - d.at.getTime() < this.#quietAfterMs(d) };
  }

  #arm(id: string, d: DeviceReport): void {
    const old = this.#timers.get(id);
    if (old !== undefined) this.#o.clock.clearTimeout(old);
    const due = d.at.getTime() + this.#quietAfterMs(d) - this.#o.clock.now();
    this.#timers.set(
      id,
      this.#o.clock.setTimeout(
        () => {
          this.#timers.delete(id);
          const cur = this.#devices.get(id);
          if (cur !== undefined) this.#emit({ kind: 'quiet', device: this.#entry(cur) });
        },
        Math.max(0, due),
      ),
    );
  }

  #emit(e: DeviceEvent): void {
    for (const l of this.#listeners) l(e);
  }
}

function bookKey(display: string, key: string): string {
  return `${display}\u0000${key}`;
}

/** A device as JSON: its MQTT state and its entry in state.json. */
export function deviceJson(d: DeviceEntry, timeZone: string): Record<string, unknown> {
  return {
    key: d.key,
    kind: d.kind,
    model: d.model,
    panel: d.panel,
    mac: d.mac,
    battery_pct: d.batteryPct,
    battery_voltage: d.batteryVoltage,
    charging: d.charging,
    usb_power: d.usbPower,
    rssi: d.rssi,
    fw_version: d.fwVersion,
    wake_reason: d.wakeReason,
    sensors: Object.fromEntries(d.sensors.map((s) => [s.kind, s.value])),
    sensor_units: Object.fromEntries(d.sensors.map((s) => [s.kind, s.unit])),
    period_s: d.periodS,
    seen_at: timeOrNull(d.at, timeZone),
    available: d.available,
  };
}
