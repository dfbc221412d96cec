import { z } from 'zod';

/**
 * The service's resources (spec §2), as zod schemas.
 *
 * Fields beyond the spec are kept (`.loose()`), never a validation failure (DESIGN: "accepted and kept").
 * A missing or mistyped required field fails with the field's path.
 */

/** ISO-8601 UTC with milliseconds and a trailing Z, the spec's form of `generated_at`. */
export const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const isoUtcTimestamp = z
  .string()
  .regex(ISO_UTC_MS, 'must be an ISO-8601 UTC timestamp with milliseconds and Z (2026-01-31T07:00:00.000Z)')
  .refine((s) => !Number.isNaN(Date.parse(s)), 'must be a real date and time');

/** An alert item: its shape is not in the spec; strings or objects are both accepted. */
export const AlertSchema = z.union([z.string(), z.record(z.string(), z.unknown())]);

/** Weather fields common to every endpoint (spec §2.2, without `source`). */
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
    source: z.string().optional(),
  })
  .loose();

/** `/recweather` carries the full snapshot, `source` included. */
export const FullWeatherSchema = WeatherSchema.extend({ source: z.string() }).loose();

export const RecommendationSchema = z
  .object({
    outfit: z.string(),
    reasoning: z.string(),
    weather: WeatherSchema,
    model: z.string(),
    generated_at: isoUtcTimestamp,
  })
  .loose();

export const RecWeatherSchema = RecommendationSchema.extend({ weather: FullWeatherSchema }).loose();

export const ErrorBodySchema = z.object({ error: z.string() }).loose();

export type Alert = z.infer<typeof AlertSchema>;
export type Weather = z.infer<typeof WeatherSchema>;
export type Recommendation = z.infer<typeof RecommendationSchema>;

export type Unit = 'metric' | 'imperial';

/** Body of POST /recommend and POST /recweather (spec §4.1). */
export interface RecommendRequest {
  lat: number;
  lon: number;
  unit?: Unit;
  gender?: string;
}

export type Endpoint = 'recweather' | 'recommend';

/** A Recommendation as we keep and publish it: the service's response plus when we fetched it. */
export type StoredRecommendation = Recommendation & { fetched_at: string };
