import { deviceModel, type DeviceModel } from '../../src/panels/device-models.js';
import { KINDLE_POWER, TRMNL_POWER, TRMNL_X_POWER, type PowerProfile } from './power.js';

/**
 * The devices the simulator can play (`--model`): what each sends, which screen it has, what it downloads and what
 * its battery does. The screen and the download limit come from the model table the daemon reads too
 * (display/panels/device-models.yaml, through src/panels/device-models.ts): data neither side owns, so the simulated
 * device and the server agree on which panel a `Model` header means without the simulator reading the daemon's code.
 */

export type SimModelName = 'og' | 'og_plus' | 'x' | 'reterminal_e1001' | 'xiao' | 'kindle';

export interface SimModel {
  name: SimModelName;
  /** The `Model` header (the firmware's `include/config.h`); null for a Kindle, which sends none. */
  header: string | null;
  /** Its entry in the model table: the panel profile and the download limit. */
  model: DeviceModel;
  power: PowerProfile;
  /** Fuel gauge: `Percent-Charged` (TRMNL X boards only). */
  percentCharged: boolean;
  /** On the 2026 firmware: sends Battery-Charging, USB-Connected, Update-Source and SENSORS. */
  firmware2026: boolean;
  /** The transport it speaks. */
  via: 'trmnl' | 'http';
}

const NAMES: readonly SimModelName[] = ['og', 'og_plus', 'x', 'reterminal_e1001', 'xiao', 'kindle'];

/** `--model` values. */
export function simModelNames(): readonly SimModelName[] {
  return NAMES;
}

/** The daemon's header value for each name (`xiao` is short for the firmware's `xiao_epaper_display`). */
const HEADER: Record<SimModelName, string | null> = {
  og: 'og',
  og_plus: 'og_plus',
  x: 'x',
  reterminal_e1001: 'reterminal_e1001',
  xiao: 'xiao_epaper_display',
  kindle: null,
};

/**
 * Power per model: the TRMNL X its own (power.ts says where the figures come from); the 4-grey OG, the reTerminal
 * and the XIAO kit are ESP32 boards like the original and get its profile (an assumption for the Seeed boards).
 */
const POWER: Record<SimModelName, PowerProfile> = {
  og: TRMNL_POWER,
  og_plus: TRMNL_POWER,
  x: TRMNL_X_POWER,
  reterminal_e1001: TRMNL_POWER,
  xiao: TRMNL_POWER,
  kindle: KINDLE_POWER,
};

/** null for a name that is not one of simModelNames(). */
export function simModel(name: string): SimModel | null {
  if (!(NAMES as readonly string[]).includes(name)) return null;
  const n = name as SimModelName;
  const model = deviceModel(n === 'kindle' ? 'kindle' : HEADER[n]);
  if (model === null) return null;
  return {
    name: n,
    header: HEADER[n],
    model,
    power: POWER[n],
    percentCharged: n === 'x',
    firmware2026: n !== 'kindle',
    via: n === 'kindle' ? 'http' : 'trmnl',
  };
}

/** The firmware's kind and unit for each `--sensors` key (src/misc/sensor/environment_sensor.cpp). */
const SENSOR_KINDS: Record<string, { kind: string; unit: string; decimals: number }> = {
  temperature: { kind: 'temperature', unit: 'celsius', decimals: 6 },
  humidity: { kind: 'humidity', unit: 'percent', decimals: 6 },
  co2: { kind: 'carbon_dioxide', unit: 'parts_per_million', decimals: 0 },
  carbon_dioxide: { kind: 'carbon_dioxide', unit: 'parts_per_million', decimals: 0 },
};

export type SensorValues = ReadonlyArray<{ key: string; value: number }>;

/** `temperature=21.5,humidity=40,co2=612` → the values; throws an Error that names the bad part. */
export function parseSensorsFlag(flag: string): SensorValues {
  return flag.split(',').map((part) => {
    const [key, raw, ...rest] = part.split('=').map((s) => s.trim());
    const value = Number(raw);
    if (
      key === undefined ||
      SENSOR_KINDS[key.toLowerCase()] === undefined ||
      raw === undefined ||
      raw === '' ||
      rest.length > 0 ||
      !Number.isFinite(value)
    ) {
      throw new Error(`--sensors takes temperature=N,humidity=N,co2=N; "${part}" is not one of them`);
    }
    return { key: key.toLowerCase(), value };
  });
}

/**
 * `SENSORS` as the firmware writes it: one record a reading, `,` between records, `;` between fields; the SCD41 the
 * firmware supports measures all three. The firmware prints floats with %f (six decimals) and CO₂ as a whole number.
 */
export function sensorsHeader(values: SensorValues, atS: number): string {
  return values
    .map(({ key, value }) => {
      const k = SENSOR_KINDS[key]!;
      return `make=Sensirion;model=SCD41;kind=${k.kind};value=${value.toFixed(k.decimals)};unit=${k.unit};created_at=${Math.floor(atS)}`;
    })
    .join(',');
}
