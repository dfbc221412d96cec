import type { Unit } from '../api/schemas.js';

/**
 * Request validation of the simulated service. What the real service answers to bad input is not documented;
 * the simulator answers 400 with a message that names the field and the rule.
 */

export interface PointRequest {
  lat: number;
  lon: number;
  unit: Unit;
  gender?: string;
}

const MAX_GENDER_CHARS = 30;

export class ValidationError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = 'ValidationError';
  }
}

function checkRange(name: 'lat' | 'lon', value: number): number {
  const bound = name === 'lat' ? 90 : 180;
  if (value < -bound || value > bound) {
    throw new ValidationError(`${name} must be between -${bound} and ${bound}, got ${value}`);
  }
  return value;
}

function checkUnit(value: unknown): Unit {
  if (value === undefined) return 'metric';
  if (value === 'metric' || value === 'imperial') return value;
  throw new ValidationError(`unit must be "metric" or "imperial", got ${JSON.stringify(value)}`);
}

/** Parses a POST body (already known to be JSON text) into a point request. */
export function parsePointBody(text: string): PointRequest {
  if (text.trim() === '') {
    throw new ValidationError('request body is empty: send a JSON object such as {"lat": 52.52, "lon": 13.405}');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ValidationError('request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError('request body must be a JSON object');
  }
  const b = body as Record<string, unknown>;
  const coord = (name: 'lat' | 'lon'): number => {
    const v = b[name];
    if (v === undefined) throw new ValidationError(`${name} is required`);
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new ValidationError(`${name} must be a number, got ${v === null ? 'null' : typeof v}`);
    }
    return checkRange(name, v);
  };
  const lat = coord('lat');
  const lon = coord('lon');
  const unit = checkUnit(b.unit);
  const gender = b.gender;
  if (gender === undefined) return { lat, lon, unit };
  if (typeof gender !== 'string') {
    throw new ValidationError(`gender must be a string, got ${gender === null ? 'null' : typeof gender}`);
  }
  const chars = [...gender].length;
  if (chars > MAX_GENDER_CHARS) {
    throw new ValidationError(`gender must be at most ${MAX_GENDER_CHARS} characters, got ${chars}`);
  }
  return { lat, lon, unit, gender };
}

/** Parses GET /weather's query: lat and lon required numbers (same ranges as the POST bodies), unit optional. */
export function parsePointQuery(query: URLSearchParams): PointRequest {
  const coord = (name: 'lat' | 'lon'): number => {
    const raw = query.get(name);
    if (raw === null || raw.trim() === '') throw new ValidationError(`${name} query parameter is required`);
    const v = Number(raw);
    if (!Number.isFinite(v)) throw new ValidationError(`${name} must be a number, got ${JSON.stringify(raw)}`);
    return checkRange(name, v);
  };
  const lat = coord('lat');
  const lon = coord('lon');
  const unit = checkUnit(query.get('unit') ?? undefined);
  return { lat, lon, unit };
}

/** True for `application/json`, with or without parameters such as charset. */
export function isJsonContentType(header: string | undefined): boolean {
  const mediaType = (header ?? '').split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
}
