import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecWeatherSchema, RecommendationSchema } from './spec-schemas.js';
import { countWords } from '../../src/service-sim/outfit.js';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import type { RunningServiceSim } from '../../src/service-sim/server.js';
import { call, startSim, T0 } from './helpers.js';
import { manualClock } from '../helpers/fake-clock.js';

/** The simulated service's two endpoints over HTTP (their weather and outfits in process: weather-outfit.test.ts). */

describe('over HTTP', () => {
  let sim: RunningServiceSim;
  const clock = manualClock(T0);
  beforeAll(async () => {
    sim = await startSim({ clock, ratePerMinute: 10_000 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('keeps both endpoints within 120 words over many places and times', async () => {
    const places = [
      [52.52, 13.405],
      [-33.87, 151.21],
      [64.15, -21.94],
      [25.2, 55.27],
      [-1.29, 36.82],
      [61.2, -149.9],
    ] as const;
    for (let month = 0; month < 12; month += 2) {
      for (const [lat, lon] of places) {
        clock.set(Date.UTC(2026, month, 10, (month * 5) % 24, 0, 0, 7));
        for (const path of ['/v1/recommend', '/v1/recweather']) {
          const r = await call(sim, 'POST', path, {
            key: DEMO_API_KEY,
            body: { lat, lon, unit: month % 4 ? 'metric' : 'imperial' },
          });
          expect(r.status).toBe(200);
          const rec =
            path === '/v1/recommend' ? RecommendationSchema.parse(r.json()) : RecWeatherSchema.parse(r.json());
          expect(countWords(rec.outfit)).toBeLessThanOrEqual(120);
          expect(rec.generated_at).toBe(new Date(clock.now()).toISOString());
          if (!rec.weather.is_day) expect(rec.weather.uv_index).toBe(0);
        }
      }
    }
  });
});
