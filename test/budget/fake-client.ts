import type { OutfitClient } from '../../src/api/client.js';
import type { RateLimitInfo } from '../../src/api/rate-limit.js';
import type { Recommendation, Weather } from '../../src/api/schemas.js';
import type { FakeClock } from '../helpers/fake-clock.js';

/** A stand-in for OutfitClient: answers from a script, records what was called and when. */

export const WEATHER: Weather = {
  temp: 12,
  feels_like: 10,
  temp_unit: '°C',
  humidity_pct: 70,
  wind_speed: 10,
  wind_speed_unit: 'km/h',
  wind_dir: 'W',
  description: 'Partly cloudy',
  rain_chance_pct: 20,
  uv_index: 2,
  is_day: true,
  alerts: [],
  source: 'test',
};

export function rec(weather: Weather = WEATHER): Recommendation {
  return { outfit: 'a coat', reasoning: 'cool', weather, model: 'm', generated_at: '2027-01-01T00:00:00.000Z' };
}

export type Answer = Recommendation | Weather | Error | ((call: Call) => Promise<Recommendation | Weather>);
export interface Call {
  kind: 'recweather' | 'recommend' | 'weather';
  /** Monotonic and wall time of the call. */
  mono: number;
  wall: number;
}

export function fakeClient(
  clock: FakeClock,
  script: Answer[] = [],
): {
  client: OutfitClient;
  calls: Call[];
  script: Answer[];
  setRateLimit: (info: RateLimitInfo | null) => void;
} {
  const calls: Call[] = [];
  let rateLimit: RateLimitInfo | null = null;
  const answer = async (kind: Call['kind']): Promise<never> => {
    const call = { kind, mono: clock.monotonic(), wall: clock.now() };
    calls.push(call);
    const next = script.shift() ?? (kind === 'weather' ? WEATHER : rec());
    if (next instanceof Error) throw next;
    return (typeof next === 'function' ? await next(call) : next) as never;
  };
  const client = {
    recweather: () => answer('recweather'),
    recommend: () => answer('recommend'),
    weather: () => answer('weather'),
    get rateLimit() {
      return rateLimit;
    },
  } as unknown as OutfitClient;
  return { client, calls, script, setRateLimit: (i) => (rateLimit = i) };
}
