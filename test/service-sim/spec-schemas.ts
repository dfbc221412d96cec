import { z } from 'zod';
import { ISO_UTC_MS } from '../../src/api/schemas.js';

/**
 * The service's resources exactly as a conforming service sends them: every listed field required, in its
 * type and form. The client reads liberally (src/api/schemas.ts); the simulated service is held to this.
 */

export { ISO_UTC_MS };

export const AlertSchema = z.union([z.string(), z.record(z.string(), z.unknown())]);

/** The weather object's listed fields, without `source`; fields beyond the list are allowed. */
export const WeatherSchema = z
  .object({
    temp: z.number(),
    feels_like: z.number(),
    temp_unit: z.string(),
    humidity_pct: z.number(),
    wind_speed: z.number(),
    wind_speed_unit: z.string(),
    wind_dir: z.string(),
    description: z.string(),
    rain_chance_pct: z.number(),
    uv_index: z.number(),
    is_day: z.boolean(),
    alerts: z.array(AlertSchema),
  })
  .loose();

/** GET /weather: the listed fields, and no `source` (`/recweather` is what adds it). */
export const GetWeatherSchema = WeatherSchema.extend({ source: z.never().optional() }).loose();

/** `/recweather`'s weather: the full snapshot, `source` included. */
export const FullWeatherSchema = WeatherSchema.extend({ source: z.string() }).loose();

export const RecommendationSchema = z
  .object({
    outfit: z.string().min(1),
    reasoning: z.string(),
    weather: WeatherSchema.extend({ source: z.never().optional() }).loose(),
    model: z.string(),
    generated_at: z.string().regex(ISO_UTC_MS),
  })
  .loose();

export const RecWeatherSchema = RecommendationSchema.extend({ weather: FullWeatherSchema }).loose();

export const ErrorBodySchema = z.object({ error: z.string() }).loose();
