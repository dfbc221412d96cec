import type { ShapeNote } from './field-readers.js';
import { dayKey } from '../time/zoned-time.js';
import type { Clock } from '../time/clock.js';

/**
 * The W_RESPONSE_SHAPE warning: a response was accepted although a field differed from the spec; W_RESPONSE_TRIMMED:
 * a field was over what we store and publish (answer-limits.ts), and was cut or dropped. Said at most once
 * per field per day (the service sends the same shape all day long, and the log is on an SD card), for all displays
 * together, since the shape is the service's, not a display's.
 */

export const W_RESPONSE_SHAPE = 'W_RESPONSE_SHAPE';
export const W_RESPONSE_TRIMMED = 'W_RESPONSE_TRIMMED';

export interface ShapeWarning {
  code: typeof W_RESPONSE_SHAPE | typeof W_RESPONSE_TRIMMED;
  /** The request, "POST /recweather". */
  where: string;
  field: string;
  problem: ShapeNote['problem'];
  detail: string;
  /** One line that begins with the code. */
  text: string;
}

export interface ShapeWarningsOptions {
  /** Receives each warning the first time its field shows a problem on a day. */
  warn: (w: ShapeWarning) => void;
  /** Dates each warning's day (said once per field per day). */
  clock: Clock;
  /** IANA time zone whose calendar days count; default UTC. */
  timezone?: string;
}

const OUTCOME: Record<ShapeNote['problem'], string> = {
  missing: 'left out',
  wrong_type: 'left out',
  other_form: 'accepted',
  too_long: 'cut',
  too_large: 'dropped',
};

const TRIMMED: ReadonlySet<ShapeNote['problem']> = new Set(['too_long', 'too_large']);

export class ShapeWarnings {
  readonly #warn: (w: ShapeWarning) => void;
  readonly #clock: Clock;
  readonly #timezone: string;
  #dayKey = '';
  /** Fields warned about on `#dayKey`: a day's set, dropped when the day changes. */
  #said = new Set<string>();

  constructor(opts: ShapeWarningsOptions) {
    this.#warn = opts.warn;
    this.#clock = opts.clock;
    this.#timezone = opts.timezone ?? 'UTC';
  }

  /** Warns about the notes of one response whose fields were not yet warned about today; returns those warnings. */
  note(notes: readonly ShapeNote[], where: string): ShapeWarning[] {
    const day = dayKey(this.#clock.now(), this.#timezone);
    if (day !== this.#dayKey) {
      this.#dayKey = day;
      this.#said = new Set();
    }
    const out: ShapeWarning[] = [];
    for (const n of notes) {
      const code = TRIMMED.has(n.problem) ? W_RESPONSE_TRIMMED : W_RESPONSE_SHAPE;
      // A field both off the spec and over the limits is said once as each.
      const key = `${code} ${n.field}`;
      if (this.#said.has(key)) continue;
      this.#said.add(key);
      const text = `${code}: ${where}: response field ${n.field}: ${n.detail}; ${OUTCOME[n.problem]}`;
      const w: ShapeWarning = { code, where, field: n.field, problem: n.problem, detail: n.detail, text };
      out.push(w);
      this.#warn(w);
    }
    return out;
  }
}
