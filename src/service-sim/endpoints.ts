import type { SimEndpoint } from './credits.js';
import { composeOutfit, OUTFIT_MODEL } from './outfit.js';
import type { PointRequest } from './validation.js';
import { simulateConditions, toFullWeather, toKeyWeather } from './weather.js';

/** The three endpoints of the service under /v1, and the success bodies they answer with. */

export interface Route {
  endpoint: SimEndpoint;
  method: 'GET' | 'POST';
}

export const ROUTES: Readonly<Record<string, Route>> = {
  '/v1/recommend': { endpoint: 'recommend', method: 'POST' },
  '/v1/recweather': { endpoint: 'recweather', method: 'POST' },
  '/v1/weather': { endpoint: 'weather', method: 'GET' },
};

/**
 * The 200 body of an endpoint at time `nowMs`:
 * - GET /weather: the full weather snapshot without `source`, at the top level (the service's `source` is present
 *   only in `/recweather`'s weather object, which is "all fields returned by /weather plus source");
 * - /recweather: a Recommendation whose `weather` is the full snapshot (`source` and fields beyond the spec);
 * - /recommend: a Recommendation whose `weather` holds the spec's listed fields only (no `source`).
 */
export function successBody(endpoint: SimEndpoint, point: PointRequest, nowMs: number): object {
  const conditions = simulateConditions(point.lat, point.lon, nowMs);
  const full = toFullWeather(conditions, point.unit);
  if (endpoint === 'weather') {
    const { source: _source, ...withoutSource } = full;
    return withoutSource;
  }
  const { outfit, reasoning } = composeOutfit(conditions, point.unit, point.gender);
  return {
    outfit,
    reasoning,
    weather: endpoint === 'recweather' ? full : toKeyWeather(full),
    model: OUTFIT_MODEL,
    generated_at: new Date(nowMs).toISOString(),
  };
}
