import type { ShapeNote } from './field-readers.js';

/**
 * What an answer may add to what we store and publish. The body is filtered as it streams (answer-filter.ts), but
 * what we write is the parsed value written again, and that can be several times larger than the text it came from:
 * a number sent as `1e20` is written as its 21 digits, a byte that is not UTF-8 becomes a three-byte U+FFFD, a redacted secret shorter
 * than `[redacted]` grows, and `<id>.json` is pretty-printed, one indented line per array item. The answer goes
 * to `last/<id>.json`, `<id>.json`, state.json and the MQTT state alike, so an unbounded one filled the disk, took the
 * daemon's memory, and wrote a last good file over the size that a start reads: every restart bought the slot again.
 *
 * So the answer is bounded before the schema reads it (after the redaction, so that no cut leaves part of a secret):
 * - `outfit` and `reasoning` keep their first LONG_TEXT characters (more than the largest panel draws), the other
 *   listed strings SHORT_TEXT;
 * - alerts: each string or shown field of an alert (title, headline, event, description) ALERT_TEXT characters; an
 *   alert object over ALERT_BYTES keeps only its shown fields; alerts beyond ALERTS_BYTES in all are dropped;
 * - fields beyond the spec's (kept, as the design's stance says) within EXTRA_FIELD_BYTES each and EXTRAS_BYTES in all,
 *   at most MAX_DEPTH levels deep; one over is dropped whole (a part of an unknown structure would mislead);
 * - a listed field of a type we cannot read (an object for `model`) is bounded as an extra: the reader drops it anyway.
 *
 * Sizes are counted as `<id>.json` writes them (pretty-printed, at the field's depth, UTF-8), the largest of the
 * files; the others are smaller. Whatever is cut or dropped is a shape note (`too_long`, `too_large`): warning
 * W_RESPONSE_TRIMMED, once per field per day.
 */

export const LONG_TEXT = 4000;
export const SHORT_TEXT = 200;
export const ALERT_TEXT = 1000;
export const ALERT_BYTES = 4 * 1024;
export const ALERTS_BYTES = 32 * 1024;
export const EXTRA_FIELD_BYTES = 16 * 1024;
export const EXTRAS_BYTES = 64 * 1024;
export const MAX_DEPTH = 16;

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const TOP_TEXTS: Readonly<Record<string, number>> = {
  outfit: LONG_TEXT,
  reasoning: LONG_TEXT,
  model: SHORT_TEXT,
  generated_at: SHORT_TEXT,
};
export const WEATHER_LISTED: ReadonlySet<string> = new Set([
  'temp',
  'feels_like',
  'temp_unit',
  'humidity_pct',
  'wind_speed',
  'wind_speed_unit',
  'wind_dir',
  'description',
  'rain_chance_pct',
  'uv_index',
  'is_day',
  'alerts',
  'source',
]);
export const ALERT_SHOWN = ['title', 'headline', 'event', 'description'] as const;

/** The UTF-8 bytes of a string as JSON writes it (quotes and escapes), or Infinity once over `budget`. */
function stringBytes(s: string, budget: number): number {
  // Every character takes at least a byte: a string this long is over without encoding it.
  if (s.length + 2 > budget) return Infinity;
  return Buffer.byteLength(JSON.stringify(s));
}

/**
 * The bytes `v` takes in JSON pretty-printed with two spaces at indentation `level`, or Infinity once over `budget`
 * or deeper than MAX_DEPTH. Never recurses deeper than MAX_DEPTH, whatever the value.
 */
export function writtenBytes(v: unknown, level: number, budget: number, depth = 0): number {
  if (typeof v === 'string') return stringBytes(v, budget);
  if (!(typeof v === 'object' && v !== null)) return (JSON.stringify(v) ?? 'null').length;
  if (depth >= MAX_DEPTH) return Infinity;
  const entries: [string | null, unknown][] = Array.isArray(v) ? v.map((x) => [null, x]) : Object.entries(v);
  if (entries.length === 0) return 2;
  // Brackets and the closing line's indentation; each item's line break, indentation, and comma (the last's: a line break).
  let total = 2 + 2 * level;
  for (const [k, x] of entries) {
    total += 1 + 2 * (level + 1) + 1;
    if (k !== null) total += stringBytes(k, budget) + 2;
    if (total > budget) return Infinity;
    total += writtenBytes(x, level + 1, budget - total, depth + 1);
    if (total > budget) return Infinity;
  }
  return total;
}

/** The first `max` characters of `s`, never half of a surrogate pair, with an ellipsis; `s` itself when short. */
export function cutText(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max - 1;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${s.slice(0, end)}…`;
}

function kib(n: number): string {
  return n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`;
}

class Bounder {
  readonly notes: ShapeNote[] = [];
  #extrasLeft = EXTRAS_BYTES;

  /** A listed string cut to `max`; a listed field of another type bounded as an extra. */
  listed(o: Obj, key: string, path: string, max: number, level: number): void {
    const v = o[key];
    if (typeof v === 'string') {
      if (v.length > max) {
        o[key] = cutText(v, max);
        this.notes.push({ field: path, problem: 'too_long', detail: `${v.length} characters, over the ${max} kept` });
      }
    } else if (typeof v === 'object' && v !== null) {
      this.extra(o, key, path, level);
    }
  }

  /** A field beyond the spec's: kept within EXTRA_FIELD_BYTES and what is left of EXTRAS_BYTES, else dropped. */
  extra(o: Obj, key: string, path: string, level: number): void {
    const budget = Math.min(EXTRA_FIELD_BYTES, this.#extrasLeft);
    const size = writtenBytes(o[key], level, budget) + stringBytes(key, budget);
    if (size <= budget) {
      this.#extrasLeft -= size;
      return;
    }
    delete o[key];
    const why =
      this.#extrasLeft < EXTRA_FIELD_BYTES
        ? `the ${kib(EXTRAS_BYTES)} all such fields may take together`
        : `the ${kib(EXTRA_FIELD_BYTES)} one may take`;
    this.notes.push({
      field: path,
      problem: 'too_large',
      detail: `a field beyond the spec's, over ${why} (or nested deeper than ${MAX_DEPTH} levels)`,
    });
  }

  /** The alerts: each within its limits, and ALERTS_BYTES in all; an alert that does not fit is dropped. */
  alerts(w: Obj, path: string, level: number): void {
    const raw = w.alerts;
    if (raw === undefined || raw === null) return;
    const items: unknown[] = Array.isArray(raw) ? raw : [raw];
    const kept: unknown[] = [];
    let left = ALERTS_BYTES;
    let cut = 0;
    let dropped = 0;
    for (const item of items) {
      let a: unknown = item;
      if (typeof a === 'string' && a.length > ALERT_TEXT) {
        a = cutText(a, ALERT_TEXT);
        cut++;
      } else if (typeof a === 'object' && a !== null && writtenBytes(a, level + 1, ALERT_BYTES) > ALERT_BYTES) {
        // An array is no alert (the reader drops it): only its size mattered.
        if (!isObj(a)) {
          dropped++;
          continue;
        }
        a = shownPart(a);
        cut++;
      }
      const size = writtenBytes(a, level + 1, left);
      if (size > left) {
        dropped++;
        continue;
      }
      left -= size;
      kept.push(a);
    }
    if (cut === 0 && dropped === 0) return;
    w.alerts = Array.isArray(raw) ? kept : (kept[0] ?? []);
    const parts = [
      cut > 0 ? `${cut} cut to ${ALERT_TEXT} characters or their shown fields` : '',
      dropped > 0 ? `${dropped} dropped, over the ${kib(ALERTS_BYTES)} alerts may take` : '',
    ];
    this.notes.push({
      field: path,
      problem: cut > 0 && dropped === 0 ? 'too_long' : 'too_large',
      detail: `alerts: ${parts.filter(Boolean).join('; ')}`,
    });
  }

  /** The weather object (at `level`), its path prefix `prefix` ("weather." or "" for GET /weather). */
  weather(w: Obj, prefix: string, level: number): void {
    for (const key of Object.keys(w)) {
      if (key === 'alerts') this.alerts(w, `${prefix}alerts`, level + 1);
      else if (WEATHER_LISTED.has(key)) this.listed(w, key, `${prefix}${key}`, SHORT_TEXT, level + 1);
      else this.extra(w, key, `${prefix}${key}`, level + 1);
    }
  }
}

/** An alert object's shown fields, each cut to ALERT_TEXT: what the frame and the status page read of it. */
function shownPart(a: Obj): Obj {
  const out: Obj = {};
  for (const k of ALERT_SHOWN) if (typeof a[k] === 'string') out[k] = cutText(a[k], ALERT_TEXT);
  return out;
}

/**
 * A parsed body bounded as the comment at the top says: a copy where anything was cut or dropped (the input is left
 * as it was), and the notes. A body that is not an object, or a weather object that is not one, is left to the reader
 * (it fails the answer) once it is within EXTRA_FIELD_BYTES; a larger one is replaced by null.
 */
export function boundAnswer(
  kind: 'recommend' | 'recweather' | 'weather',
  json: unknown,
): { value: unknown; notes: ShapeNote[] } {
  const b = new Bounder();
  if (!isObj(json)) {
    const small = writtenBytes(json, 0, EXTRA_FIELD_BYTES) <= EXTRA_FIELD_BYTES;
    return { value: small ? json : null, notes: [] };
  }
  const top: Obj = { ...json };
  if (kind === 'weather') {
    b.weather(top, '', 0);
    return { value: b.notes.length === 0 ? json : top, notes: b.notes };
  }
  for (const key of Object.keys(top)) {
    const max = TOP_TEXTS[key];
    if (key === 'weather') {
      if (isObj(top.weather)) {
        const w = { ...top.weather };
        b.weather(w, 'weather.', 1);
        top.weather = w;
      } else if (writtenBytes(top.weather, 1, EXTRA_FIELD_BYTES) > EXTRA_FIELD_BYTES) {
        top.weather = null;
      }
    } else if (max !== undefined) {
      b.listed(top, key, key, max, 1);
    } else {
      b.extra(top, key, key, 1);
    }
  }
  return { value: b.notes.length === 0 ? json : top, notes: b.notes };
}
