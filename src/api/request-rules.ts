import { describeValue } from '../shared/describe-value.js';
import { InvalidRequestError } from './errors.js';
import { describeNumber } from './field-readers.js';
import type { RecommendRequest, Unit } from './schemas.js';

/** The service's rules for a request (place, unit, gender, base address), checked before anything is sent: a bad request costs nothing. */

const MAX_GENDER_LENGTH = 30;

export interface WeatherQuery {
  lat: number;
  lon: number;
  unit?: Unit;
}

/** The problem with a coordinate, or null when it is a finite number within ±limit. Also the config's rule. */
export function coordinateProblem(value: unknown, limit: number): string | null {
  if (typeof value === 'number' && Number.isFinite(value) && value >= -limit && value <= limit) return null;
  const got =
    typeof value === 'number' ? describeNumber(value) : value === undefined ? 'nothing' : describeValue(value, 60);
  return `must be a finite number between -${limit} and ${limit} (got ${got})`;
}

function checkCoordinate(field: 'lat' | 'lon', value: unknown, limit: number): void {
  const problem = coordinateProblem(value, limit);
  if (problem !== null) throw new InvalidRequestError(field, problem);
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

/** The base address must be http(s) and end with the version segment /v1: every path of the service is under it. */
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
