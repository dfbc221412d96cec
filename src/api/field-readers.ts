/**
 * Liberal readers of single response fields: each takes what it can from a value of any type and says what was
 * off, so one odd field never costs a paid answer. A value of another type is dropped (undefined), never guessed.
 */

/** ISO-8601 UTC with milliseconds and a trailing Z, the spec's form of `generated_at`. */
export const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** ISO-8601 date and time with a zone: seconds and fractions optional, `Z` or an offset (+01:00, +0100). */
const ISO_WITH_ZONE = /^(\d{4})-(\d{2})-(\d{2})[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/;

/** A decimal number written as a string: " 12.5", "-3", "1e2". */
const NUMERIC_STRING = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * How a field differed from the spec: `missing` (absent or null), `wrong_type` (dropped), `other_form` (taken, in
 * another form than the spec's: a number as a string, a timestamp with an offset); or how it was over what we store
 * (answer-limits.ts): `too_long` (a text cut), `too_large` (a field or alerts dropped).
 */
export type ShapeProblem = 'missing' | 'wrong_type' | 'other_form' | 'too_long' | 'too_large';

export interface ShapeNote {
  /** The field's path: `generated_at`, `weather.temp`, or `temp` in a GET /weather body. */
  field: string;
  problem: ShapeProblem;
  /** What was there, in a few words, e.g. "expected a number, got a string". Never the value of a long text. */
  detail: string;
}

export interface FieldRead<T> {
  /** What the field gives: undefined when nothing usable was there. */
  value: T | undefined;
  note: Omit<ShapeNote, 'field'> | null;
}

/**
 * A number as a message shows it. JSON and YAML read 1e400 as Infinity, which JSON.stringify would print as null:
 * say what it was instead.
 */
export function describeNumber(n: number): string {
  if (Number.isNaN(n)) return 'not a number (NaN)';
  if (!Number.isFinite(n)) return `a number too ${n > 0 ? 'large' : 'small'} to represent`;
  return `the number ${n}`;
}

/** A short description of a value, for a note: its type, and the value itself when it is short and not text. */
function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'number') return describeNumber(v);
  if (typeof v === 'boolean') return `the boolean ${v}`;
  return typeof v;
}

const ok = <T>(value: T): FieldRead<T> => ({ value, note: null });
const missing: FieldRead<never> = { value: undefined, note: { problem: 'missing', detail: 'missing' } };
const dropped = (expected: string, v: unknown): FieldRead<never> => ({
  value: undefined,
  note: { problem: 'wrong_type', detail: `expected ${expected}, got ${describeValue(v)}` },
});
const otherForm = <T>(value: T, detail: string): FieldRead<T> => ({ value, note: { problem: 'other_form', detail } });

/** A finite number; a numeric string is taken as its number. */
export function readNumber(v: unknown): FieldRead<number> {
  if (v === undefined || v === null) return missing;
  if (typeof v === 'number' && Number.isFinite(v)) return ok(v);
  if (typeof v === 'string' && NUMERIC_STRING.test(v)) {
    const n = Number(v);
    if (Number.isFinite(n)) return otherForm(n, 'a number sent as a string');
  }
  return dropped('a finite number', v);
}

/** A string; a number or boolean is taken as its text (a wind direction of 315). */
export function readString(v: unknown): FieldRead<string> {
  if (v === undefined || v === null) return missing;
  if (typeof v === 'string') return ok(v);
  if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean')
    return otherForm(String(v), `a string sent as ${typeof v}`);
  return dropped('a string', v);
}

/** A boolean; "true"/"false" (any case) and 1/0 are taken too. */
export function readBoolean(v: unknown): FieldRead<boolean> {
  if (v === undefined || v === null) return missing;
  if (typeof v === 'boolean') return ok(v);
  const s = typeof v === 'string' ? v.trim().toLowerCase() : v;
  if (s === 'true' || s === 1) return otherForm(true, `a boolean sent as ${typeof v}`);
  if (s === 'false' || s === 0) return otherForm(false, `a boolean sent as ${typeof v}`);
  return dropped('a boolean', v);
}

const isAlertItem = (a: unknown): a is string | Record<string, unknown> =>
  typeof a === 'string' || (typeof a === 'object' && a !== null && !Array.isArray(a));

/**
 * The alerts: an array of strings or objects of any shape (the spec does not show it). A single alert not in an
 * array is taken as one; items that are neither a string nor an object are dropped.
 */
export function readAlerts(v: unknown): FieldRead<Array<string | Record<string, unknown>>> {
  if (v === undefined || v === null) return missing;
  if (isAlertItem(v)) return otherForm([v], 'a single alert, not in an array');
  if (!Array.isArray(v)) return dropped('an array', v);
  const items = v.filter(isAlertItem);
  if (items.length === v.length) return ok(items);
  return {
    value: items,
    note: {
      problem: 'wrong_type',
      detail: `${v.length - items.length} item(s) neither a string nor an object, dropped`,
    },
  };
}

function realDate(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/**
 * An ISO-8601 date and time with a zone, kept as the service wrote it: the spec's form (milliseconds, Z) or another
 * (no milliseconds, an offset). A time without a zone names no instant and is dropped.
 */
export function readTimestamp(v: unknown): FieldRead<string> {
  if (v === undefined || v === null) return missing;
  if (typeof v !== 'string') return dropped('an ISO-8601 date and time', v);
  const m = ISO_WITH_ZONE.exec(v.trim());
  const real = m !== null && realDate(Number(m[1]), Number(m[2]), Number(m[3])) && !Number.isNaN(Date.parse(v.trim()));
  if (!real)
    return { value: undefined, note: { problem: 'wrong_type', detail: 'not an ISO-8601 date and time with a zone' } };
  return ISO_UTC_MS.test(v)
    ? ok(v)
    : otherForm(v, 'an ISO-8601 date and time in another form than 2026-01-31T07:00:00.000Z');
}
