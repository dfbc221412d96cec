import { InvalidRequestError } from './errors.js';
import type { RecommendRequest, Unit } from './schemas.js';

/** The spec's rules for a request (§4, §8), checked before anything is sent: a bad request costs nothing. */

export const MAX_GENDER_LENGTH = 30;

export interface WeatherQuery {
  lat: number;
  lon: number;
  unit?: Unit;
}

function checkCoordinate(field: 'lat' | 'lon', value: unknown, limit: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InvalidRequestError(field, `must be a finite number (got ${JSON.stringify(value)})`);
  }
  if (value < -limit || value > limit) throw new InvalidRequestError(field, `must be between -${limit} and ${limit}`);
}

function checkUnit(unit: unknown): void {
  if (unit !== undefined && unit !== 'metric' && unit !== 'imperial') {
    throw new InvalidRequestError('unit', `must be "metric" or "imperial" (got ${JSON.stringify(unit)})`);
  }
}

export function checkRecommendRequest(req: RecommendRequest): void {
  checkCoordinate('lat', req.lat, 90);
  checkCoordinate('lon', req.lon, 180);
  checkUnit(req.unit);
  if (req.gender !== undefined) {
    if (typeof req.gender !== 'string') throw new InvalidRequestError('gender', 'must be a string');
    // Characters as a person counts them (code points), not UTF-16 units.
    const length = [...req.gender].length;
    if (length > MAX_GENDER_LENGTH) {
      throw new InvalidRequestError('gender', `must be at most ${MAX_GENDER_LENGTH} characters (has ${length})`);
    }
  }
}

export function checkWeatherQuery(q: WeatherQuery): void {
  checkCoordinate('lat', q.lat, 90);
  checkCoordinate('lon', q.lon, 180);
  checkUnit(q.unit);
}

/** The base address must be http(s) and end with the version segment /v1 (spec §9). */
export function checkBaseUrl(baseUrl: string): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new InvalidRequestError('base_url', `is not a URL (${JSON.stringify(baseUrl)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidRequestError('base_url', `must be http or https (got ${url.protocol})`);
  }
  if (!/\/v1$/.test(url.pathname) || url.search !== '' || url.hash !== '') {
    throw new InvalidRequestError('base_url', `must end with /v1 (got ${JSON.stringify(baseUrl)})`);
  }
}
