import { z } from '../shared/zod.js';
import { describeIssues } from '../shared/describe-issue.js';
import { LARGE_FILLS } from './large-field.js';

/**
 * Faults the simulated service can be told to commit on its next matching request(s), so tests can drive a client
 * through every way a real service or the network in front of it misbehaves.
 */

const FAULT_PATHS = ['recommend', 'recweather', 'weather'] as const;
export type FaultPath = (typeof FAULT_PATHS)[number];

const common = {
  /** How many matching requests the fault applies to (default 1). */
  count: z.number().int().min(1).max(1_000_000).optional(),
  /** Only requests to this endpoint (default: any of the three). */
  path: z.enum(FAULT_PATHS).optional(),
};
const dottedField = z
  .string()
  .regex(/^[^.\s]+(\.[^.\s]+)*$/, 'must be a field name or a dotted path such as weather.temp');

const FaultSchema = z.discriminatedUnion('kind', [
  /** Answer with this status and a JSON error body. */
  z.strictObject({
    kind: z.literal('status'),
    status: z.number().int().min(400).max(599),
    error: z.string().optional(),
    ...common,
  }),
  /** 429; `retry_after` is the header verbatim (seconds or an HTTP date), null for no header; default "1". */
  z.strictObject({
    kind: z.literal('rate_limit'),
    retry_after: z.union([z.string(), z.number(), z.null()]).optional(),
    ...common,
  }),
  /** Wait `delay_ms` (through the injected sleep) before answering normally. */
  z.strictObject({ kind: z.literal('slow'), delay_ms: z.number().min(0).max(3_600_000), ...common }),
  /** 200 with the success body cut in half. */
  z.strictObject({ kind: z.literal('malformed_json'), ...common }),
  /** 502 with a text/html page, as a proxy in front of the service would send. */
  z.strictObject({ kind: z.literal('html_error'), ...common }),
  /** Destroy the socket without answering. */
  z.strictObject({ kind: z.literal('reset'), ...common }),
  /** 200 with `field` (dotted path allowed) removed from the success body. */
  z.strictObject({ kind: z.literal('missing_field'), field: dottedField, ...common }),
  /** 200 with `field` (dotted path allowed) set to a value of the wrong type. */
  z.strictObject({ kind: z.literal('wrong_type'), field: dottedField, ...common }),
  /** 200 with unknown fields added at the top level and inside the weather object. */
  z.strictObject({ kind: z.literal('extra_fields'), ...common }),
  /** 200 quoting the request's bearer key in every text, in an alert, and as the name and value of an extra field. */
  z.strictObject({ kind: z.literal('echo_key'), ...common }),
  /** 200 with `field` (dotted path, made when missing) holding about `bytes` bytes of JSON text (large-field.ts). */
  z.strictObject({
    kind: z.literal('large_field'),
    field: dottedField,
    bytes: z.number().int().min(2).max(300_000_000),
    fill: z.enum(LARGE_FILLS).optional(),
    ...common,
  }),
]);

export type Fault = z.infer<typeof FaultSchema>;
export type FaultKind = Fault['kind'];

/** Faults that alter a success body (they wait for one: an error response goes out unchanged, fault kept). */
export const BODY_KINDS: ReadonlySet<FaultKind> = new Set([
  'malformed_json',
  'missing_field',
  'wrong_type',
  'extra_fields',
  'echo_key',
  'large_field',
]);

/** Parses one fault or an array of them; throws an Error naming the problem (with its path). */
export function parseFaults(input: unknown): Fault[] {
  const result = Array.isArray(input) ? z.array(FaultSchema).min(1).safeParse(input) : FaultSchema.safeParse(input);
  if (!result.success) {
    throw new Error(`invalid fault: ${describeIssues(result.error)[0] ?? 'unrecognised'}`);
  }
  return Array.isArray(result.data) ? result.data : [result.data];
}

interface Entry {
  fault: Fault;
  left: number;
}

export class FaultQueue {
  private entries: Entry[] = [];

  add(fault: Fault): void {
    const [checked] = parseFaults(fault);
    if (checked) this.entries.push({ fault: checked, left: checked.count ?? 1 });
  }

  clear(): number {
    const n = this.entries.length;
    this.entries = [];
    return n;
  }

  /** The first queued fault that applies to `path`, left in the queue. */
  peek(path: FaultPath): Fault | undefined {
    return this.entries.find((e) => e.fault.path === undefined || e.fault.path === path)?.fault;
  }

  /** Uses one application of `fault` (as returned by peek); drops it when it has none left. */
  consume(fault: Fault): void {
    const i = this.entries.findIndex((e) => e.fault === fault);
    const entry = this.entries[i];
    if (!entry) return;
    entry.left -= 1;
    if (entry.left <= 0) this.entries.splice(i, 1);
  }

  pending(): Array<Fault & { remaining: number }> {
    return this.entries.map((e) => ({ ...e.fault, remaining: e.left }));
  }
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The object holding the last segment of `dotted`, and that segment; undefined when the path does not exist. */
function parentOf(body: JsonObject, dotted: string): { parent: JsonObject; key: string } | undefined {
  const parts = dotted.split('.');
  const key = parts.pop();
  let cur: Json = body;
  for (const part of parts) {
    if (!isObject(cur)) return undefined;
    cur = cur[part] ?? null;
  }
  return isObject(cur) && key !== undefined ? { parent: cur, key } : undefined;
}

function wrongValue(v: Json | undefined): Json {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return 12345;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return 'none';
  if (isObject(v)) return 'n/a';
  return { unexpected: true };
}

const EXTRA_TOP: JsonObject = {
  request_id: 'req_sim_0001',
  x_experiment: { bucket: 'b', variant: 7 },
  confidence: 0.87,
  deprecated_notice: null,
};
const EXTRA_WEATHER: JsonObject = {
  pollen_level: 'moderate',
  aqi: 42,
  station: { id: 'SIM-0042', distance_km: 3.2 },
  sunrise: '06:42',
};

/** Every string in `v` with ` ${key}` after it (in place). */
function quoteKey(v: Json, key: string): Json {
  if (typeof v === 'string') return `${v} ${key}`;
  if (Array.isArray(v)) return v.map((x) => quoteKey(x, key));
  if (isObject(v)) for (const k of Object.keys(v)) v[k] = quoteKey(v[k] ?? null, key);
  return v;
}

/**
 * Applies a body-altering fault to a success body (a deep copy: the original is left as it was). `key` is the
 * request's bearer key, for echo_key.
 */
export function alterBody(body: unknown, fault: Fault, weatherAtTop: boolean, key = ''): unknown {
  const copy = JSON.parse(JSON.stringify(body)) as Json;
  if (!isObject(copy)) return copy;
  if (fault.kind === 'echo_key') {
    quoteKey(copy, key);
    copy[`echo_${key}`] = key;
    const weather = weatherAtTop ? copy : copy.weather;
    if (isObject(weather)) weather.alerts = [`Alert for ${key}`, { title: `Storm ${key}`, description: key }];
    return copy;
  }
  if (fault.kind === 'missing_field') {
    const at = parentOf(copy, fault.field);
    if (at) delete at.parent[at.key];
  } else if (fault.kind === 'wrong_type') {
    const at = parentOf(copy, fault.field);
    if (at) at.parent[at.key] = wrongValue(at.parent[at.key]);
  } else if (fault.kind === 'extra_fields') {
    Object.assign(copy, EXTRA_TOP);
    const weather = weatherAtTop ? copy : copy.weather;
    if (isObject(weather)) Object.assign(weather, EXTRA_WEATHER);
  }
  return copy;
}

/** A JSON text cut off half-way: never parses. */
export function truncateJson(text: string): string {
  return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
}

export const HTML_ERROR_PAGE = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx</center>
</body>
</html>
`;

export function retryAfterHeader(fault: Extract<Fault, { kind: 'rate_limit' }>): string | undefined {
  if (fault.retry_after === null) return undefined;
  return fault.retry_after === undefined ? '1' : String(fault.retry_after);
}
