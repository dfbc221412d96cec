import type { Condition } from './condition.js';
import type { GarmentId } from './garment-ids.js';
import { numberOrNull } from '../shared/number-or-null.js';

/**
 * What the weather asks of the person at the door, read from the readings (never from the outfit's words), and the
 * thresholds every part of the frame judges it by: the garment row's order and its tick (pictogram row), and the
 * colours that ask for action (render/draw/colour-meaning.ts). One table, so that a colour, a tick and an order
 * never disagree about what "cold" or "rain likely" means.
 */

export const WEATHER_THRESHOLDS = {
  /** °C at or below which it freezes (coloured: the temperature, and cold wear by the feels-like too). */
  freezingC: 0,
  /** Feels-like °C below which it is cold: warm hat, gloves and scarf come first in the row. */
  coldC: 10,
  /** Feels-like °C from which it is no longer comfortable (the heat index's "caution" starts at 27 °C, 80 °F). */
  warmC: 27,
  /** °C from which it is hot (coloured). */
  heatC: 30,
  /** Rain chance, %, from which rain is likely enough to act on: rain gear comes first, the reading is coloured. */
  rainLikelyPct: 50,
  /** Rain chance, %, from which rain is a possibility worth a thought ("chance" rather than "slight chance"). */
  rainPossiblePct: 30,
  /** UV index from which sun protection is advised (WHO: 3 and above, "moderate"): sun gear comes first. */
  uvSunProtection: 3,
  /** UV index from which protection is a must (WHO: 6 and above, "high"): the reading is coloured. */
  uvHigh: 6,
} as const;

/** The readings the demands are read from (all optional, as in a response; the api's Weather has them all). */
export interface DemandFields {
  temp?: number;
  feels_like?: number;
  temp_unit?: string;
  rain_chance_pct?: number;
  uv_index?: number;
  is_day?: boolean;
  alerts?: readonly unknown[];
}

export interface WeatherDemands {
  /** Rain likely, or a wet condition (rain, drizzle, thunder, sleet, a storm): rain gear first. */
  readonly rain: boolean;
  /** Cold by the feels-like (or the temperature), or snow or sleet: warm hat, gloves and scarf first. */
  readonly cold: boolean;
  /** The sun is up with a UV index that asks for protection: sun hat, sunglasses and sunscreen first. */
  readonly sun: boolean;
  /**
   * A day that asks nothing extra: every reading needed to say so is there, and the rain chance is below
   * rainPossiblePct, the feels-like between coldC and warmC, the UV low (or night), no alert, no wet condition.
   * The row's tick ("nothing extra needed") is shown on such a day only, whatever the outfit's words.
   */
  readonly benign: boolean;
}

/** °C of a temperature in the response's unit ("°F", "F", "K"; anything else, or none, is taken as Celsius). */
export function celsiusOf(value: number | undefined, unit: string | undefined): number | null {
  const v = numberOrNull(value);
  if (v === null) return null;
  const u = (unit ?? '').replace(/[°\s]/g, '').toUpperCase();
  if (u === 'F' || u === 'FAHRENHEIT') return ((v - 32) * 5) / 9;
  if (u === 'K' || u === 'KELVIN') return v - 273.15;
  return v;
}

const WET: ReadonlySet<Condition> = new Set(['rain', 'drizzle', 'thunder', 'sleet', 'storm']);
const WINTRY: ReadonlySet<Condition> = new Set(['snow', 'sleet']);

/** What the weather asks for (see WeatherDemands). Pure. */
export function weatherDemands(w: DemandFields, condition: Condition): WeatherDemands {
  const T = WEATHER_THRESHOLDS;
  const feels = celsiusOf(w.feels_like, w.temp_unit) ?? celsiusOf(w.temp, w.temp_unit);
  const rainPct = numberOrNull(w.rain_chance_pct);
  const uv = numberOrNull(w.uv_index);
  const night = w.is_day === false;
  const rain = WET.has(condition) || (rainPct !== null && rainPct >= T.rainLikelyPct);
  const cold = WINTRY.has(condition) || (feels !== null && feels < T.coldC);
  const sun = !night && uv !== null && uv >= T.uvSunProtection;
  const alerts = Array.isArray(w.alerts) && w.alerts.length > 0;
  const benign =
    !rain &&
    !cold &&
    !sun &&
    !alerts &&
    condition !== 'wind' &&
    feels !== null &&
    feels < T.warmC &&
    rainPct !== null &&
    rainPct < T.rainPossiblePct &&
    (night || uv !== null);
  return { rain, cold, sun, benign };
}

/** Garments that answer to the weather: a row with none of them may end with the tick, on a benign day. */
const GEAR = {
  rain: ['raincoat', 'umbrella'],
  cold: ['warm-hat', 'gloves', 'scarf'],
  sun: ['sun-hat', 'sunglasses', 'sunscreen'],
} as const satisfies Record<string, readonly GarmentId[]>;
const EXTRAS: ReadonlySet<GarmentId> = new Set(Object.values(GEAR).flat());
/** What the top of the body and the feet wear whatever the weather: last in the row. */
const BASICS: ReadonlySet<GarmentId> = new Set([
  'tshirt',
  'shirt',
  'trousers',
  'shorts',
  'dress-or-skirt',
  'closed-shoes',
  'sandals',
]);

/** One item of the garment row: a garment, or the tick that says nothing extra is needed. */
export type RowItem = GarmentId | 'nothing-extra';

/**
 * The garment row, in the order a person at the door needs it: what the weather demands first (rain gear in rain,
 * then warm hat, gloves and scarf in the cold, then sun gear in sun), then the outer layers and the rest, the
 * basics (trousers, shirts, shoes) last; within a rank, the vocabulary's order. A row that cannot show all keeps
 * the first and counts the rest, so what the weather demands is the last to go. The tick ends the row on a benign
 * day when no garment answers to the weather.
 */
export function garmentRow(garments: readonly GarmentId[], demands: WeatherDemands): readonly RowItem[] {
  if (garments.length === 0) return [];
  const rank = (g: GarmentId): number => {
    if (demands.rain && (GEAR.rain as readonly GarmentId[]).includes(g)) return 0;
    if (demands.cold && (GEAR.cold as readonly GarmentId[]).includes(g)) return 1;
    if (demands.sun && (GEAR.sun as readonly GarmentId[]).includes(g)) return 2;
    return BASICS.has(g) ? 4 : 3;
  };
  // Array.prototype.sort is stable: within a rank, the vocabulary's order stays.
  const ordered: RowItem[] = [...garments].sort((a, b) => rank(a) - rank(b));
  if (demands.benign && !garments.some((g) => EXTRAS.has(g))) ordered.push('nothing-extra');
  return ordered;
}
