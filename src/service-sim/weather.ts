import type { Alert, Unit } from '../api/schemas.js';
import { alertsFor } from './alerts.js';
import type { Conditions, Description } from './conditions.js';
import { cToF, kmhToMph, round1 } from './units.js';

/**
 * Simulated current weather: plausible and deterministic for (lat, lon, 10-minute time bucket).
 *
 * Temperature follows latitude (annual mean), season (day of year and hemisphere) and the diurnal cycle of local
 * solar time (from lon); day and night follow an approximate solar elevation. Clouds, rain, wind and noise come from
 * seeded pseudo-random numbers: a "regime" shared by nearby places over 3 hours, and a small per-bucket jitter.
 */

const WEATHER_SOURCE = 'outfit-sim-weather';
const BUCKET_MS = 10 * 60_000;
const REGIME_MS = 3 * 60 * 60_000;

export const COMPASS_16 = [
  'N',
  'NNE',
  'NE',
  'ENE',
  'E',
  'ESE',
  'SE',
  'SSE',
  'S',
  'SSW',
  'SW',
  'WSW',
  'W',
  'WNW',
  'NW',
  'NNW',
] as const;

/** The full weather snapshot: the listed weather fields plus `source` and a few fields beyond them. */
export interface FullWeather {
  temp: number;
  feels_like: number;
  temp_unit: string;
  humidity_pct: number;
  wind_speed: number;
  wind_speed_unit: string;
  wind_dir: string;
  description: string;
  rain_chance_pct: number;
  uv_index: number;
  is_day: boolean;
  alerts: Alert[];
  source: string;
  cloud_cover_pct: number;
  pressure_hpa: number;
  observed_at: string;
}

/** The spec's listed fields only: what /recommend returns (no `source`, nothing beyond the list). */
export type KeyWeather = Omit<FullWeather, 'source' | 'cloud_cover_pct' | 'pressure_hpa' | 'observed_at'>;

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
const rad = (deg: number): number => (deg * Math.PI) / 180;

/** FNV-1a over a string: a 32-bit seed. */
function hashSeed(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small, good-enough seeded generator of numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function dayOfYear(d: Date): number {
  return Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
}

/** Approximate solar elevation in degrees (declination by day of year, hour angle from local solar time). */
export function solarElevationDeg(lat: number, lon: number, atMs: number): number {
  const d = new Date(atMs);
  const declination = -23.44 * Math.cos(((2 * Math.PI) / 365) * (dayOfYear(d) + 10));
  const utcHours = d.getUTCHours() + d.getUTCMinutes() / 60;
  const solarHours = (((utcHours + lon / 15) % 24) + 24) % 24;
  const hourAngle = 15 * (solarHours - 12);
  const sinEl =
    Math.sin(rad(lat)) * Math.sin(rad(declination)) +
    Math.cos(rad(lat)) * Math.cos(rad(declination)) * Math.cos(rad(hourAngle));
  return (Math.asin(clamp(sinEl, -1, 1)) * 180) / Math.PI;
}

function describe(
  tempC: number,
  rain: number,
  cloud: number,
  humidity: number,
  wind: number,
  thunderRoll: number,
): Description {
  if (rain >= 75) {
    if (tempC <= 0) return 'Snow';
    if (tempC <= 2) return 'Sleet';
    if (tempC >= 18 && thunderRoll < 0.35) return 'Thunderstorm';
    return 'Heavy rain';
  }
  if (rain >= 55) {
    if (tempC <= 0) return 'Light snow';
    if (tempC <= 2) return 'Sleet';
    return 'Light rain';
  }
  if (rain >= 40) return tempC > 2 ? 'Drizzle' : 'Overcast';
  if (humidity >= 82 && wind < 8 && tempC >= -5 && tempC <= 15) return 'Fog';
  if (cloud >= 85) return 'Overcast';
  if (cloud >= 60) return 'Mostly cloudy';
  if (cloud >= 30) return 'Partly cloudy';
  if (cloud >= 12) return 'Mostly clear';
  return 'Clear';
}

/** Apparent temperature: wind chill when cold and windy, Steadman's apparent temperature otherwise. */
function feelsLike(tempC: number, humidityPct: number, windKmh: number): number {
  if (tempC <= 10 && windKmh > 4.8) {
    const v = windKmh ** 0.16;
    return 13.12 + 0.6215 * tempC - 11.37 * v + 0.3965 * tempC * v;
  }
  const vapour = (humidityPct / 100) * 6.105 * Math.exp((17.27 * tempC) / (237.7 + tempC));
  const apparent = tempC + 0.33 * vapour - 0.7 * (windKmh / 3.6) - 4;
  return tempC <= 10 ? Math.min(tempC, apparent) : apparent;
}

export function simulateConditions(lat: number, lon: number, nowMs: number): Conditions {
  const bucketStart = Math.floor(nowMs / BUCKET_MS) * BUCKET_MS;
  const place = `${lat.toFixed(4)}|${lon.toFixed(4)}`;
  const regimePlace = `${Math.round(lat * 2) / 2}|${Math.round(lon * 2) / 2}`;
  const regime = seededRandom(hashSeed(`regime|${regimePlace}|${Math.floor(nowMs / REGIME_MS)}`));
  const jitter = seededRandom(hashSeed(`bucket|${place}|${bucketStart}`));

  const date = new Date(bucketStart);
  const absLat = Math.abs(lat);
  const hemisphere = lat >= 0 ? 1 : -1;
  const elevation = solarElevationDeg(lat, lon, bucketStart);
  const isDay = elevation > 0;

  // Clouds and rain: wetter in the tropics, drier in the subtropical desert belts.
  const climateWetness = absLat < 12 ? 12 : absLat >= 18 && absLat <= 32 ? -18 : 0;
  const cloud = clamp(regime() ** 0.8 * 100 + climateWetness + (jitter() - 0.5) * 8, 0, 100);
  const rainRaw = cloud < 40 ? cloud * 0.25 : ((cloud - 40) / 60) * 100 * (0.55 + 0.45 * regime());
  const rainChancePct = Math.round(clamp(rainRaw + (jitter() - 0.5) * 4, 0, 100));
  const cloudCoverPct = Math.round(cloud);

  // Temperature: annual mean by latitude, season by hemisphere, diurnal cycle peaking at 15:00 solar time.
  const utcHours = date.getUTCHours() + date.getUTCMinutes() / 60;
  const solarHours = (((utcHours + lon / 15) % 24) + 24) % 24;
  const annualMean = 27 - 0.006 * lat * lat;
  const seasonal = 0.18 * absLat * hemisphere * Math.cos((2 * Math.PI * (dayOfYear(date) - 200)) / 365.25);
  const diurnal = (3 + 4 * (1 - cloud / 100)) * Math.cos((2 * Math.PI * (solarHours - 15)) / 24);
  const tempRaw =
    annualMean + seasonal + diurnal - (rainChancePct / 100) * 3 + (regime() - 0.5) * 4 + (jitter() - 0.5) * 0.6;
  const tempC = round1(tempRaw);

  const humidityPct = Math.round(
    clamp(48 + (rainChancePct - 30) * 0.5 + regime() * 22 + (isDay ? 0 : 10) - (tempC > 30 ? 15 : 0), 8, 100),
  );
  const thunderRoll = regime();
  let windKmh = 2 + regime() ** 3 * 70 + jitter() * 3;
  const provisional = describe(tempC, rainChancePct, cloudCoverPct, humidityPct, windKmh, thunderRoll);
  if (provisional === 'Thunderstorm') windKmh += 15;
  windKmh = round1(windKmh);
  const description = describe(tempC, rainChancePct, cloudCoverPct, humidityPct, windKmh, thunderRoll);
  const windDir = COMPASS_16[Math.floor(regime() * 16) % 16] ?? 'N';
  const sun = Math.max(0, Math.sin(rad(elevation)));
  const uvIndex = isDay ? Math.round(11 * sun ** 1.5 * (1 - 0.65 * (cloud / 100))) : 0;

  return {
    tempC,
    feelsLikeC: round1(feelsLike(tempC, humidityPct, windKmh)),
    humidityPct,
    windKmh,
    windDir,
    description,
    rainChancePct,
    cloudCoverPct,
    uvIndex,
    isDay,
    pressureHpa: Math.round(1013 + (regime() - 0.5) * 24 - rainChancePct * 0.12),
    solarElevationDeg: round1(elevation),
    observedAtMs: bucketStart,
    roll: jitter(),
  };
}

/** The full snapshot in the requested unit (GET /weather and /recweather). */
export function toFullWeather(c: Conditions, unit: Unit): FullWeather {
  const imperial = unit === 'imperial';
  return {
    temp: imperial ? cToF(c.tempC) : c.tempC,
    feels_like: imperial ? cToF(c.feelsLikeC) : c.feelsLikeC,
    temp_unit: imperial ? '°F' : '°C',
    humidity_pct: c.humidityPct,
    wind_speed: imperial ? kmhToMph(c.windKmh) : c.windKmh,
    wind_speed_unit: imperial ? 'mph' : 'km/h',
    wind_dir: c.windDir,
    description: c.description,
    rain_chance_pct: c.rainChancePct,
    uv_index: c.uvIndex,
    is_day: c.isDay,
    alerts: alertsFor(c, unit),
    source: WEATHER_SOURCE,
    cloud_cover_pct: c.cloudCoverPct,
    pressure_hpa: c.pressureHpa,
    observed_at: new Date(c.observedAtMs).toISOString(),
  };
}

/** The key conditions only (/recommend): the spec's listed fields, without `source`. */
export function toKeyWeather(full: FullWeather): KeyWeather {
  return {
    temp: full.temp,
    feels_like: full.feels_like,
    temp_unit: full.temp_unit,
    humidity_pct: full.humidity_pct,
    wind_speed: full.wind_speed,
    wind_speed_unit: full.wind_speed_unit,
    wind_dir: full.wind_dir,
    description: full.description,
    rain_chance_pct: full.rain_chance_pct,
    uv_index: full.uv_index,
    is_day: full.is_day,
    alerts: full.alerts,
  };
}
