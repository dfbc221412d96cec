import { z } from '../shared/zod.js';
import {
  readAlerts,
  readBoolean,
  readNumber,
  readString,
  readTimestamp,
  type FieldRead,
  type ShapeNote,
} from './field-readers.js';

/**
 * The service's resources (Recommendation, Weather), read liberally: a frame cannot be drawn without `outfit` (a non-empty string)
 * and a `weather` object, so only those are required. Every other listed field that is missing, mistyped or in
 * another valid form is taken when it can be (a number sent as "12.5", a timestamp with an offset), else left
 * undefined, and never fails the response: the service bills the answer whether or not we like its shape.
 * `readResponse` also lists what was off, as shape notes, for the W_RESPONSE_SHAPE warning.
 * Fields beyond the spec are kept (`.loose()`).
 */

export { ISO_UTC_MS, type ShapeNote, type ShapeProblem } from './field-readers.js';

/** A field that never fails: `read` takes what it can and says (elsewhere, in readResponse) what was off. */
function tolerant<T>(read: (v: unknown) => FieldRead<T>) {
  return z
    .unknown()
    .optional()
    .transform((v) => read(v).value)
    .optional();
}

/** An alert item: its shape is not in the spec; strings or objects. */
export type Alert = string | Record<string, unknown>;

/** Readers of the weather object's listed fields, by name. */
const WEATHER_READERS = {
  temp: readNumber,
  feels_like: readNumber,
  temp_unit: readString,
  humidity_pct: readNumber,
  wind_speed: readNumber,
  wind_speed_unit: readString,
  wind_dir: readString,
  description: readString,
  rain_chance_pct: readNumber,
  uv_index: readNumber,
  is_day: readBoolean,
  alerts: readAlerts,
  source: readString,
} as const;

/** The weather object's readings: what a frame shows as "—" and Home Assistant as unknown when missing. */
export const WEATHER_READINGS = Object.keys(WEATHER_READERS).filter((k) => k !== 'alerts' && k !== 'source') as Array<
  Exclude<keyof typeof WEATHER_READERS, 'alerts' | 'source'>
>;

/** The Recommendation's optional fields, by name. */
export const RECOMMENDATION_OPTIONAL = ['reasoning', 'model', 'generated_at'] as const;

/** Readers of the Recommendation's optional fields; `outfit` and `weather` are required. */
const RECOMMENDATION_READERS = {
  reasoning: readString,
  model: readString,
  generated_at: readTimestamp,
} as const;

/** The weather object: any object; each listed field when it can be read; `alerts` an array ([] when missing). */
export const WeatherSchema = z
  .object({
    temp: tolerant(readNumber),
    feels_like: tolerant(readNumber),
    temp_unit: tolerant(readString),
    humidity_pct: tolerant(readNumber),
    wind_speed: tolerant(readNumber),
    wind_speed_unit: tolerant(readString),
    wind_dir: tolerant(readString),
    description: tolerant(readString),
    rain_chance_pct: tolerant(readNumber),
    uv_index: tolerant(readNumber),
    is_day: tolerant(readBoolean),
    alerts: z
      .unknown()
      .optional()
      .transform((v) => readAlerts(v).value ?? []),
    source: tolerant(readString),
  })
  .loose();

/** What a frame needs: an outfit to show, and a weather object (whose readings may each be missing). */
export const RecommendationSchema = z
  .object({
    outfit: z.string().refine((s) => s.trim() !== '', 'must not be empty'),
    reasoning: tolerant(readString),
    weather: WeatherSchema,
    model: tolerant(readString),
    generated_at: tolerant(readTimestamp),
  })
  .loose();

export const ErrorBodySchema = z.object({ error: z.string() }).loose();

export type Weather = z.infer<typeof WeatherSchema>;
export type Recommendation = z.infer<typeof RecommendationSchema>;

export type Unit = 'metric' | 'imperial';

/** Body of POST /recommend and POST /recweather: place, unit and gender; the rules are in request-rules.ts. */
export interface RecommendRequest {
  lat: number;
  lon: number;
  unit?: Unit;
  gender?: string;
}

export type Endpoint = 'recweather' | 'recommend';

/** A Recommendation as we keep and publish it: the service's response plus when we fetched it. */
export type StoredRecommendation = Recommendation & { fetched_at: string };

/** The three responses the client reads. */
export type ResponseKind = Endpoint | 'weather';

export type ResponseRead<T> =
  | { ok: true; value: T; notes: ShapeNote[] }
  /** A required part is missing or unusable: `field` is its path ("outfit", "weather", "(body)"). */
  | { ok: false; field: string; reason: string };

function notesOf(
  obj: Record<string, unknown>,
  readers: Record<string, (v: unknown) => FieldRead<unknown>>,
  prefix: string,
): ShapeNote[] {
  const notes: ShapeNote[] = [];
  for (const [name, read] of Object.entries(readers)) {
    const { note } = read(obj[name]);
    if (note) notes.push({ field: `${prefix}${name}`, ...note });
  }
  return notes;
}

/**
 * The shape notes of a body that parsed: the spec's `source` is expected only in `/recweather`'s weather object
 * (absent from `/recommend`, and `GET /weather` is what `/recweather` adds `source` to).
 */
function shapeNotes(json: Record<string, unknown>, kind: ResponseKind): ShapeNote[] {
  const weather = (kind === 'weather' ? json : json.weather) as Record<string, unknown>;
  const prefix = kind === 'weather' ? '' : 'weather.';
  const weatherNotes = notesOf(weather, WEATHER_READERS, prefix).filter(
    (n) => !(n.field === `${prefix}source` && n.problem === 'missing' && kind !== 'recweather'),
  );
  return kind === 'weather' ? weatherNotes : [...notesOf(json, RECOMMENDATION_READERS, ''), ...weatherNotes];
}

/** Reads a parsed JSON body of `kind`: the value and its shape notes, or the required part that is missing. */
export function readResponse(kind: 'weather', json: unknown): ResponseRead<Weather>;
export function readResponse(kind: Endpoint, json: unknown): ResponseRead<Recommendation>;
export function readResponse(kind: ResponseKind, json: unknown): ResponseRead<Weather | Recommendation>;
export function readResponse(kind: ResponseKind, json: unknown): ResponseRead<Weather | Recommendation> {
  const schema = kind === 'weather' ? WeatherSchema : RecommendationSchema;
  const result = schema.safeParse(json, { reportInput: true });
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(body)';
    const reason =
      issue?.code === 'invalid_type' && issue.input === undefined
        ? 'missing'
        : issue?.code === 'invalid_type'
          ? `must be ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`} (got ${kindOf(issue.input)})`
          : (issue?.message ?? 'invalid');
    return { ok: false, field, reason };
  }
  return { ok: true, value: result.data, notes: shapeNotes(json as Record<string, unknown>, kind) };
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : typeof v;
}
