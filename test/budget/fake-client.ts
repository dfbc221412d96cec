import type { OutfitClient } from '../../src/api/client.js';
import type { RateLimitInfo } from '../../src/api/rate-limit.js';
import type { Recommendation, Weather } from '../../src/api/schemas.js';
import { COOL_WEATHER, rec } from '../fixtures/rec.js';
import type { FakeClock } from '../helpers/fake-clock.js';

/** A stand-in for OutfitClient: answers from a script (by default rec() on a COOL_WEATHER day), records what was called and when. */

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
    const next =
      script.shift() ?? (kind === 'weather' ? COOL_WEATHER : rec({ weather: COOL_WEATHER, fetchedAt: null }));
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
