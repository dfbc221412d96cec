import type { IncomingMessage } from 'node:http';
import type { SensorReading } from '../state/device-book.js';
import { numberOrNull } from '../shared/number-or-null.js';

/**
 * What a TRMNL device says about itself in the headers of `/api/display` (the firmware's
 * `lib/trmnl/src/api-client/request_headers.cpp`; ../shared/facts/trmnl-protocol.md), read liberally: a header we
 * cannot read is left out (null), never a refusal. Strings are cut short; nothing a device sends reaches a log or a
 * topic unbounded.
 */

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Decimal digits, a sign and a fraction: what the firmware's printf writes (`4.1`, `-55`, `21.500000`). JavaScript's
 * Number() reads more (`0x10`, `0b1`, `0o7`, `1e3`, `Infinity`), none of which a device means.
 */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A header's (or a query parameter's) text as a finite decimal number, else null. */
export function numberIn(v: string | undefined | null): number | null {
  const s = v?.trim();
  return s === undefined || !DECIMAL.test(s) ? null : numberOrNull(Number(s));
}

/** `true`/`false`, `1`/`0` (`Battery-Charging`), `yes`/`no` (a Kindle's query), any case; anything else null. */
export function flagOrNull(v: string | undefined | null): boolean | null {
  const s = v?.trim().toLowerCase();
  if (s === 'true' || s === '1' || s === 'yes') return true;
  if (s === 'false' || s === '0' || s === 'no') return false;
  return null;
}

/** TRMNL's own estimate from the battery voltage: (V − 3.0) / 0.012 %, 100 from 4.08 V, at least 1. */
export function percentFromVolts(volts: number | null): number | null {
  if (volts === null || !Number.isFinite(volts)) return null;
  const pct = (volts - 3) / 0.012;
  return pct >= 90 ? 100 : pct < 10 ? 1 : Math.round(pct * 10) / 10;
}

export function percentOrNull(v: number | null): number | null {
  return v !== null && v >= 0 && v <= 100 ? v : null;
}

function text(v: string | undefined, max: number): string | null {
  const s = v?.trim();
  return s === undefined || s === '' ? null : s.slice(0, max);
}

export interface TrmnlHeaders {
  model: string | null;
  width: number | null;
  height: number | null;
  batteryVoltage: number | null;
  /** `Percent-Charged` (TRMNL X), else from the voltage. */
  batteryPct: number | null;
  charging: boolean | null;
  usbPower: boolean | null;
  rssi: number | null;
  fwVersion: string | null;
  /** `Update-Source`, lower case: `timer`, `button`, `ext0`, `powercycle`, … */
  wakeReason: string | null;
  /** `Refresh-Rate`: the seconds the device slept before this wake. */
  refreshRateS: number | null;
  sensors: SensorReading[];
}

export function readTrmnlHeaders(req: IncomingMessage): TrmnlHeaders {
  const volts = numberIn(header(req, 'battery-voltage'));
  const pct = percentOrNull(numberIn(header(req, 'percent-charged')));
  const size = (h: string, alt: string): number | null => numberIn(header(req, h) ?? header(req, alt));
  return {
    model: text(header(req, 'model'), 40),
    width: size('width', 'png-width'),
    height: size('height', 'png-height'),
    batteryVoltage: volts,
    batteryPct: pct ?? percentFromVolts(volts),
    charging: flagOrNull(header(req, 'battery-charging')),
    usbPower: flagOrNull(header(req, 'usb-connected')),
    rssi: numberIn(header(req, 'rssi')),
    fwVersion: text(header(req, 'fw-version'), 40),
    wakeReason: text(header(req, 'update-source'), 24)?.toLowerCase() ?? null,
    refreshRateS: numberIn(header(req, 'refresh-rate')),
    sensors: readSensors(header(req, 'sensors')),
  };
}

const MAX_SENSORS = 16;

/** The firmware's unit words (`celsius`, `percent`, `parts_per_million`, `hectopascal`) as units are written. */
const UNIT_WORDS: Record<string, string> = {
  celsius: '°C',
  fahrenheit: '°F',
  percent: '%',
  parts_per_million: 'ppm',
  hectopascal: 'hPa',
  c: '°C',
  f: '°F',
};

function unit(raw: string | undefined): string | null {
  const u = text(raw, 24);
  return u === null ? null : (UNIT_WORDS[u.toLowerCase()] ?? u.slice(0, 12));
}

/**
 * `SENSORS`: records separated by `,`, each `key=value` pairs separated by `;` (make, model, kind, value, unit,
 * created_at; src/misc/sensor/environment_sensor.cpp), e.g.
 * `make=Sensirion;model=SCD41;kind=carbon_dioxide;value=612;unit=parts_per_million;created_at=1767225600`.
 * A record without a kind or a number is skipped; a kind is kept once (the first).
 */
export function readSensors(raw: string | undefined): SensorReading[] {
  if (raw === undefined || raw.trim() === '') return [];
  const out: SensorReading[] = [];
  for (const record of raw.slice(0, 4096).split(',')) {
    const f = new Map<string, string>();
    for (const pair of record.split(';')) {
      const i = pair.indexOf('=');
      if (i > 0) f.set(pair.slice(0, i).trim().toLowerCase(), pair.slice(i + 1).trim());
    }
    const kind = f
      .get('kind')
      ?.toLowerCase()
      .replace(/[^a-z0-9_]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 32);
    const value = numberIn(f.get('value'));
    if (!kind || value === null || out.some((s) => s.kind === kind)) continue;
    const source = [f.get('make'), f.get('model')]
      .filter((s) => s !== undefined && s !== '')
      .join(' ')
      .slice(0, 40);
    out.push({ kind, value, unit: unit(f.get('unit')), source: source === '' ? null : source });
    if (out.length === MAX_SENSORS) break;
  }
  return out;
}
