/**
 * The simulated weather's conditions: what weather.ts works out for a place and time, and the alerts (alerts.ts) and
 * the outfit composer (outfit.ts) reason about. Their own file so that weather.ts and alerts.ts do not import each
 * other.
 */

export const DESCRIPTIONS = [
  'Clear',
  'Mostly clear',
  'Partly cloudy',
  'Mostly cloudy',
  'Overcast',
  'Fog',
  'Drizzle',
  'Light rain',
  'Heavy rain',
  'Thunderstorm',
  'Sleet',
  'Light snow',
  'Snow',
] as const;
export type Description = (typeof DESCRIPTIONS)[number];

/** Conditions in metric units, rounded as served; what the outfit composer reasons about. */
export interface Conditions {
  tempC: number;
  feelsLikeC: number;
  humidityPct: number;
  windKmh: number;
  windDir: string;
  description: Description;
  rainChancePct: number;
  cloudCoverPct: number;
  uvIndex: number;
  isDay: boolean;
  pressureHpa: number;
  solarElevationDeg: number;
  /** Start of the 10-minute bucket the conditions are for (ms since epoch). */
  observedAtMs: number;
  /** Deterministic number in [0, 1) for choices downstream (alert shapes, wording). */
  roll: number;
}
