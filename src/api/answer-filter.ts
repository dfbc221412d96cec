import {
  ALERT_BYTES,
  ALERT_SHOWN,
  ALERT_TEXT,
  ALERTS_BYTES,
  EXTRA_FIELD_BYTES,
  EXTRAS_BYTES,
  LONG_TEXT,
  MAX_DEPTH,
  SHORT_TEXT,
  WEATHER_LISTED,
} from './answer-limits.js';
import type { ShapeNote } from './field-readers.js';

/**
 * The most of a 2xx body that is read: far above any answer the service could mean (its answers are a few KB; a
 * legal one with large fields beyond the spec's is a few MB), far below what would strain a Pi. A body past it is a
 * fault of the service: paid for, not read, not bought again for its slot.
 */
export const ANSWER_HARD_LIMIT = 32 * 1024 * 1024;

/**
 * A value may take this many times, as received, the bytes answer-limits.ts allows it as written: JSON sent compact
 * is written pretty-printed (larger), but a sender's white space and escapes (`\u0041` for "A") make text larger.
 */
const RECEIVED_FACTOR = 4;
/** A field name longer than this is no field we read: its member is skipped unread. */
const KEY_MAX = 1024;
/** The most the filtered text may take, whatever the body: every limit below together stays well under it. */
const KEPT_MAX = 1024 * 1024;
/** Notes kept per answer; the rest are counted in one. */
const MAX_NOTES = 20;
/** A number, `true`, `false` or `null` longer than this is dropped. */
const SCALAR_MAX = 1024;

/** A body that is not JSON, found while it streams: the client reports it as E_BAD_RESPONSE. */
export class NotJsonError extends Error {}

const [QUOTE, BACKSLASH, COMMA, COLON, LBRACE, RBRACE, LBRACK, RBRACK] = [
  0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d,
];
const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
/** The first byte of a JSON value: `{ [ " - 0-9 t f n`. */
const startsValue = (b: number): boolean =>
  b === LBRACE ||
  b === LBRACK ||
  b === QUOTE ||
  b === 0x2d ||
  (b >= 0x30 && b <= 0x39) ||
  b === 0x74 ||
  b === 0x66 ||
  b === 0x6e;
/** Bytes of a string's start as received that hold more than `units` UTF-16 units (an escape is 6 bytes a unit). */
const textCap = (units: number): number => 6 * (units + 256);
/** The escape state after byte `b`: 1 (after a backslash) turns into 5 for `\\u` (four hex digits to come: 5, 4, 3, 2). */
const nextEscape = (escape: number, b: number): number =>
  escape === 1 ? (b === 0x75 ? 5 : 0) : escape === 2 ? 0 : escape - 1;
const kib = (n: number): string => `${Math.round(n / 1024)} KiB`;

/** The containers read member by member; everything else is a value copied within a budget, or skipped. */
type Struct = 'top' | 'weather' | 'alerts' | 'alert';

interface Frame {
  struct: Struct;
  array: boolean;
  path: string;
  state: 'first' | 'key' | 'colon' | 'value' | 'after';
  key: string | null;
  index: number;
  /** Members written to the filtered text, for the commas. */
  written: number;
  /** Bytes its members may still take (alerts: all the alerts; an alert: its fields beyond the shown ones). */
  left: number;
  /** Elements dropped (alerts). */
  dropped: number;
  /** Where the filtered text stood before this container's member began (taken as its size when it closes). */
  start: number;
}

/** A field name being read. */
interface KeyRead {
  buf: Buffer;
  len: number;
  escape: number;
  /** Holds an escape: decoded by JSON.parse (one without is its bytes). */
  escaped: boolean;
  over: boolean;
}

/** A value being read byte by byte: copied whole within `budget`, its text's start kept, or skipped. */
interface Raw {
  mode: 'copy' | 'text' | 'skip';
  field: string;
  depth: number;
  inString: boolean;
  /** 0: none; 1: after a backslash; 2-5: hex digits of a \u escape to come. */
  escape: number;
  /** Where the filtered text stood before the member (taken back when it is dropped). */
  start: number;
  budget: number;
  received: number;
  cut: boolean;
  extra: boolean;
  /** Why a skipped value is dropped, for its note; null: not noted (the alerts' count says it). */
  why: string | null;
}

type Child =
  | { kind: 'struct'; struct: Struct }
  | { kind: 'copy'; budget: number; extra: boolean }
  | { kind: 'text'; units: number }
  | { kind: 'skip'; why: string | null };

/**
 * Reads a 2xx body as it streams and keeps what the frame and the stored answer need (answer-limits.ts), with memory
 * bounded by those limits, not by the body: the listed fields, a text's start, fields beyond the spec's within their
 * budgets; the rest is read past and dropped with a note. The result is compact JSON (valid when the body is) that
 * boundAnswer() then bounds exactly. Only what is kept is checked as JSON; a dropped part need only be balanced.
 */
export class AnswerFilter {
  readonly #kind: 'recommend' | 'recweather' | 'weather';
  #out = Buffer.alloc(16 * 1024);
  #len = 0;
  readonly #stack: Frame[] = [];
  #raw: Raw | null = null;
  #key: KeyRead | null = null;
  readonly #keyBuf = Buffer.alloc(KEY_MAX);
  #outer: 'start' | 'end' = 'start';
  #extrasLeft = EXTRAS_BYTES * RECEIVED_FACTOR;
  readonly #notes: ShapeNote[] = [];
  #notesOver = 0;

  constructor(kind: 'recommend' | 'recweather' | 'weather') {
    this.#kind = kind;
  }

  write(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length) {
      const b = chunk[i] as number;
      const used =
        this.#raw !== null
          ? this.#rawByte(this.#raw, b)
          : this.#key !== null
            ? this.#keyByte(this.#key, b)
            : this.#structByte(b);
      if (used) i++;
    }
  }

  /** The filtered JSON text and the notes on what was cut or dropped; throws NotJsonError on a truncated body. */
  end(): { text: string; notes: ShapeNote[] } {
    const raw = this.#raw;
    // A number or literal as the whole body ends with it.
    if (raw !== null && raw.depth === 0 && !raw.inString && raw.received > 0 && this.#stack.length === 0)
      this.#rawDone(raw);
    if (this.#raw !== null || this.#key !== null || this.#stack.length > 0 || this.#outer === 'start') {
      throw new NotJsonError(
        this.#outer === 'start' && this.#stack.length === 0 && this.#raw === null
          ? 'the body is empty'
          : 'the body ends in the middle of its JSON',
      );
    }
    if (this.#notesOver > 0)
      this.#notes.push({ field: '(more)', problem: 'too_large', detail: `${this.#notesOver} more fields dropped` });
    return { text: this.#out.toString('utf8', 0, this.#len), notes: this.#notes };
  }

  #emit(b: number): void {
    if (this.#len === this.#out.length) {
      const grown = Buffer.alloc(this.#out.length * 2);
      this.#out.copy(grown, 0, 0, this.#len);
      this.#out = grown;
    }
    this.#out[this.#len++] = b;
  }

  #emitText(s: string): void {
    for (const b of Buffer.from(s)) this.#emit(b);
  }

  #note(field: string, problem: ShapeNote['problem'], detail: string): void {
    if (this.#notes.length < MAX_NOTES) this.#notes.push({ field, problem, detail });
    else this.#notesOver++;
  }

  /** Outside every container: the body's one value, then only white space. */
  #outerByte(b: number): boolean {
    if (isSpace(b)) return true;
    if (this.#outer === 'end') throw new NotJsonError('the body has more after its JSON value');
    if (b === LBRACE) {
      this.#open(this.#kind === 'weather' ? 'weather' : 'top', false, '', 0);
      return true;
    }
    if (!startsValue(b))
      throw new NotJsonError(
        `the body starts with ${b < 0x20 || b > 0x7e ? `byte 0x${b.toString(16)}` : `"${String.fromCharCode(b)}"`}, not a JSON value`,
      );
    // Not an object: the reader refuses it; a small one is kept for the reader's message.
    this.#startRaw({ kind: 'copy', budget: EXTRA_FIELD_BYTES, extra: false }, '(the body)');
    return false;
  }

  #open(struct: Struct, array: boolean, path: string, start: number): void {
    const left =
      struct === 'alerts'
        ? ALERTS_BYTES * RECEIVED_FACTOR
        : struct === 'alert'
          ? ALERT_BYTES * RECEIVED_FACTOR
          : Infinity;
    this.#stack.push({ struct, array, path, state: 'first', key: null, index: 0, written: 0, left, dropped: 0, start });
    this.#emit(array ? LBRACK : LBRACE);
  }

  #structByte(b: number): boolean {
    const f = this.#stack.at(-1);
    if (f === undefined) return this.#outerByte(b);
    if (isSpace(b)) return true;
    switch (f.state) {
      case 'first':
        if (b === (f.array ? RBRACK : RBRACE)) return this.#close(f);
        f.state = f.array ? 'value' : 'key';
        return false;
      case 'key':
        if (b !== QUOTE) throw new NotJsonError(`a field name was expected in ${f.path || 'the answer'}`);
        this.#key = { buf: this.#keyBuf, len: 0, escape: 0, escaped: false, over: false };
        this.#key.buf[this.#key.len++] = b;
        return true;
      case 'colon':
        if (b !== COLON)
          throw new NotJsonError(`":" was expected after the field name ${f.key ?? ''} in ${f.path || 'the answer'}`);
        f.state = 'value';
        return true;
      case 'value':
        if (!startsValue(b)) throw new NotJsonError(`a value was expected in ${f.path || 'the answer'}`);
        return this.#startValue(f, b);
      case 'after':
        if (b === COMMA) {
          f.state = f.array ? 'value' : 'key';
          if (f.array) f.index++;
          return true;
        }
        if (b === (f.array ? RBRACK : RBRACE)) return this.#close(f);
        throw new NotJsonError(`"," or "${f.array ? ']' : '}'}" was expected in ${f.path || 'the answer'}`);
    }
  }

  /** A field name, read up to KEY_MAX bytes. */
  #keyByte(k: KeyRead, b: number): boolean {
    if (k.len < KEY_MAX) k.buf[k.len++] = b;
    else k.over = true;
    if (k.escape > 0) k.escape = nextEscape(k.escape, b);
    else if (b === BACKSLASH) {
      k.escape = 1;
      k.escaped = true;
    } else if (b === QUOTE) {
      const f = this.#stack.at(-1) as Frame;
      this.#key = null;
      f.state = 'colon';
      f.key = null;
      if (k.over) return true;
      if (!k.escaped) {
        f.key = k.buf.toString('utf8', 1, k.len - 1);
        return true;
      }
      try {
        f.key = JSON.parse(k.buf.toString('utf8', 0, k.len)) as string;
      } catch {
        throw new NotJsonError(`a field name in ${f.path || 'the answer'} is not a JSON string`);
      }
    }
    return true;
  }

  #fieldOf(f: Frame): string {
    const name = f.array ? `[${f.index}]` : (f.key ?? '(a name over 1 KiB)');
    return f.array ? `${f.path}${name}` : f.path === '' ? name : `${f.path}.${name}`;
  }

  #startValue(f: Frame, b: number): boolean {
    const child = this.#policy(f, b);
    const field = this.#fieldOf(f);
    if (child.kind === 'skip') return this.#startRaw(child, field);
    const start = this.#len;
    if (f.written > 0) this.#emit(COMMA);
    if (!f.array) {
      this.#emitText(JSON.stringify(f.key));
      this.#emit(COLON);
    }
    if (child.kind !== 'struct') return this.#startRaw(child, field, start);
    this.#open(child.struct, b === LBRACK, field, start);
    return true;
  }

  /** What is kept of the value that starts with byte `b` in container `f` (answer-limits.ts, as received). */
  #policy(f: Frame, b: number): Child {
    const room = KEPT_MAX - this.#len;
    if (room <= 0) return { kind: 'skip', why: `the answer's kept part reached ${kib(KEPT_MAX)}` };
    const open = b === LBRACE || b === LBRACK;
    const text = (units: number): Child =>
      b === QUOTE ? { kind: 'text', units } : open ? this.#extra() : { kind: 'copy', budget: SCALAR_MAX, extra: false };
    const key = f.key;
    switch (f.struct) {
      case 'top':
        if (f.array || key === null) return { kind: 'skip', why: 'a field name over 1 KiB' };
        if (key === 'weather') return b === LBRACE ? { kind: 'struct', struct: 'weather' } : this.#extra();
        if (key === 'outfit' || key === 'reasoning') return text(LONG_TEXT);
        if (key === 'model' || key === 'generated_at') return text(SHORT_TEXT);
        return this.#extra();
      case 'weather':
        if (f.array || key === null) return { kind: 'skip', why: 'a field name over 1 KiB' };
        if (key === 'alerts')
          return b === LBRACK
            ? { kind: 'struct', struct: 'alerts' }
            : b === LBRACE
              ? { kind: 'struct', struct: 'alert' }
              : text(ALERT_TEXT);
        return WEATHER_LISTED.has(key) ? text(SHORT_TEXT) : this.#extra();
      case 'alerts':
        if (f.left <= 0) return { kind: 'skip', why: null };
        return b === QUOTE
          ? { kind: 'text', units: ALERT_TEXT }
          : b === LBRACE
            ? { kind: 'struct', struct: 'alert' }
            : { kind: 'copy', budget: Math.min(f.left, ALERT_BYTES * RECEIVED_FACTOR), extra: false };
      case 'alert':
        if (f.array || key === null) return { kind: 'skip', why: 'a field name over 1 KiB' };
        if (b === QUOTE && (ALERT_SHOWN as readonly string[]).includes(key)) return { kind: 'text', units: ALERT_TEXT };
        return f.left <= 0
          ? {
              kind: 'skip',
              why: `over the ${kib(ALERT_BYTES * RECEIVED_FACTOR)} an alert's other fields may take as received`,
            }
          : { kind: 'copy', budget: f.left, extra: false };
    }
  }

  #extra(): Child {
    if (this.#extrasLeft <= 0)
      return {
        kind: 'skip',
        why: `a field beyond the spec's, over the ${kib(EXTRAS_BYTES * RECEIVED_FACTOR)} all such fields may take as received`,
      };
    return { kind: 'copy', budget: Math.min(EXTRA_FIELD_BYTES * RECEIVED_FACTOR, this.#extrasLeft), extra: true };
  }

  #startRaw(child: Exclude<Child, { kind: 'struct' }>, field: string, start = this.#len): false {
    const room = KEPT_MAX - start;
    const budget =
      child.kind === 'copy'
        ? Math.min(child.budget, room)
        : child.kind === 'text'
          ? Math.min(textCap(child.units), room)
          : 0;
    const extra = child.kind === 'copy' && child.extra;
    const why =
      child.kind === 'skip'
        ? child.why
        : extra
          ? `a field beyond the spec's, over ${kib(budget)} as received`
          : `over ${kib(budget)} as received`;
    this.#raw = {
      mode: child.kind,
      field,
      depth: 0,
      inString: false,
      escape: 0,
      start,
      budget,
      received: 0,
      cut: false,
      extra,
      why,
    };
    return false;
  }

  /** One byte of a copied, cut or skipped value; false when the byte ends a number or literal (its container's). */
  #rawByte(r: Raw, b: number): boolean {
    if (r.inString) {
      r.received++;
      const before = r.escape;
      if (r.escape > 0) r.escape = nextEscape(r.escape, b);
      else if (b === BACKSLASH) r.escape = 1;
      else if (b === QUOTE) {
        r.inString = false;
        this.#put(r, b, true);
        if (r.depth === 0) this.#rawDone(r);
        return true;
      }
      // A text is cut where nothing is half written: not inside an escape, nor a UTF-8 sequence.
      if (r.mode === 'text' && !r.cut && this.#len - r.start >= r.budget && before === 0 && (b & 0xc0) !== 0x80) {
        r.cut = true;
        this.#note(r.field, 'too_long', `${r.field} is longer than is kept: only its start was read`);
      }
      this.#put(r, b, false);
      return true;
    }
    if (isSpace(b) || b === COMMA || b === COLON || b === RBRACE || b === RBRACK) {
      // White space, or a delimiter, after a number or literal ends it: the byte is its container's.
      if (r.depth === 0) {
        this.#rawDone(r);
        return false;
      }
      if (isSpace(b)) return true;
    }
    r.received++;
    if (b === QUOTE) {
      if (r.depth === 0 && r.received > 1) throw new NotJsonError(`${r.field} has a quote after its value`);
      r.inString = true;
    } else if (b === LBRACE || b === LBRACK) {
      if (r.depth === 0 && r.received > 1) throw new NotJsonError(`${r.field} has a bracket after its value`);
      r.depth++;
      if (r.depth > MAX_DEPTH && r.mode === 'copy') this.#drop(r, `nested deeper than ${MAX_DEPTH} levels`);
    } else if (b === RBRACE || b === RBRACK) {
      r.depth--;
      this.#put(r, b, false);
      if (r.depth === 0) this.#rawDone(r);
      return true;
    }
    this.#put(r, b, false);
    return true;
  }

  /** Writes a byte of the value to the filtered text, as its mode says; a copy over its budget is dropped. */
  #put(r: Raw, b: number, closing: boolean): void {
    if (r.mode === 'skip' || (r.mode === 'text' && r.cut && !closing)) return;
    if (r.mode === 'copy' && this.#len - r.start >= r.budget) {
      this.#drop(r, r.why ?? 'too large');
      return;
    }
    this.#emit(b);
  }

  /** Takes a copied value back out of the filtered text; the rest of it is read past. */
  #drop(r: Raw, why: string): void {
    this.#len = r.start;
    r.mode = 'skip';
    r.why = why;
  }

  #rawDone(r: Raw): void {
    this.#raw = null;
    const kept = r.mode !== 'skip';
    if (!kept && r.why !== null) this.#note(r.field, 'too_large', r.why);
    if (kept && r.extra) this.#extrasLeft -= this.#len - r.start;
    this.#valueDone(kept, r.start);
  }

  #close(f: Frame): true {
    this.#emit(f.array ? RBRACK : RBRACE);
    this.#stack.pop();
    this.#alertsNote(f);
    this.#valueDone(true, f.start);
    return true;
  }

  #alertsNote(f: Frame): void {
    if (f.struct === 'alerts' && f.dropped > 0)
      this.#note(
        f.path,
        'too_large',
        `alerts: ${f.dropped} dropped, over the ${kib(ALERTS_BYTES * RECEIVED_FACTOR)} alerts may take as received`,
      );
    f.dropped = 0;
  }

  /** The value in the container on top ended: kept (it took the text since `start`) or dropped. */
  #valueDone(kept: boolean, start: number): void {
    const f = this.#stack.at(-1);
    if (f === undefined) {
      this.#outer = 'end';
      return;
    }
    f.state = 'after';
    if (kept) {
      f.written++;
      f.left -= this.#len - start;
    } else if (f.struct === 'alerts') {
      f.dropped++;
    }
  }
}
