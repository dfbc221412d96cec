import type { Logger } from 'pino';
import type { CodeIn } from '../shared/codes.js';
import { systemClock, type Clock } from '../time/clock.js';

/**
 * Refused HTTP requests in the log without letting a client flood it: the first refusal from a source (the remote
 * address) is logged at once with `count: 1`; after that, at most one line a minute per source, with the number of
 * refusals since its last line (`count`) and how many of each code (`codes`). A source that stops is summed up once
 * at the end of its minute; a quiet source is forgotten.
 */

/**
 * The stable warning codes of refused requests (docs/reference/http.md, "Refused requests"): the
 * registry's `http-refusal` set, each with its status there.
 */
export type RefusalCode = CodeIn<'http-refusal'>;

/** What a line may say about a refusal besides its code: short, never a secret (the caller's promise). */
export type RefusalDetail = Record<string, string | number | null>;

export interface RefusalLogOptions {
  logger: Logger | undefined;
  /** Time and the timer that sums a source up at the end of its minute. */
  clock?: Clock;
  /** Default 60,000. */
  intervalMs?: number;
  /** Sources tracked at once (default 1,000); refusals from further sources share the source "other". */
  maxSources?: number;
}

interface Window {
  /** When this source may have its next line. */
  until: number;
  /** Refusals since its last line, by code. */
  codes: Map<RefusalCode, number>;
  last: RefusalDetail;
}

const OVERFLOW_SOURCE = 'other';

export class RefusalLog {
  readonly #log: Logger | undefined;
  readonly #clock: Clock;
  readonly #interval: number;
  readonly #max: number;
  readonly #windows = new Map<string, Window>();
  #timer: unknown = null;
  #timerAt = Infinity;

  constructor(opts: RefusalLogOptions) {
    this.#log = opts.logger;
    this.#clock = opts.clock ?? systemClock;
    this.#interval = opts.intervalMs ?? 60_000;
    this.#max = opts.maxSources ?? 1_000;
  }

  /** Sources with an open window (for tests: the memory stays bounded). */
  get sources(): number {
    return this.#windows.size;
  }

  refuse(source: string | undefined, code: RefusalCode, detail: RefusalDetail = {}): void {
    let key = source ?? 'unknown';
    if (!this.#windows.has(key) && this.#windows.size >= this.#max) key = OVERFLOW_SOURCE;
    const now = this.#clock.now();
    const w = this.#windows.get(key);
    if (w === undefined) {
      this.#log?.warn({ code, source: key, count: 1, ...detail }, 'request refused');
      this.#windows.set(key, { until: now + this.#interval, codes: new Map(), last: detail });
      this.#schedule(now + this.#interval);
      return;
    }
    w.codes.set(code, (w.codes.get(code) ?? 0) + 1);
    w.last = detail;
  }

  /** Logs what is left of every window at once (on stop) and forgets every source. */
  flush(): void {
    this.#cancel();
    for (const [source, w] of this.#windows) this.#summary(source, w);
    this.#windows.clear();
  }

  #summary(source: string, w: Window): boolean {
    let count = 0;
    let top: RefusalCode | null = null;
    for (const [code, n] of w.codes) {
      count += n;
      if (top === null || n > (w.codes.get(top) ?? 0)) top = code;
    }
    if (top === null) return false;
    this.#log?.warn(
      {
        code: top,
        source,
        count,
        codes: Object.fromEntries(w.codes),
        window_s: Math.round(this.#interval / 1000),
        ...w.last,
      },
      'requests refused',
    );
    return true;
  }

  #sweep(): void {
    this.#timer = null;
    this.#timerAt = Infinity;
    const now = this.#clock.now();
    let next = Infinity;
    for (const [source, w] of this.#windows) {
      if (w.until > now) {
        next = Math.min(next, w.until);
        continue;
      }
      if (this.#summary(source, w)) {
        // Still refusing: a new window, so the next line comes a minute after this one at the earliest.
        w.codes.clear();
        w.until = now + this.#interval;
        next = Math.min(next, w.until);
      } else {
        this.#windows.delete(source);
      }
    }
    if (next !== Infinity) this.#schedule(next);
  }

  #schedule(at: number): void {
    if (at >= this.#timerAt) return;
    this.#cancel();
    this.#timerAt = at;
    const handle = this.#clock.setTimeout(() => this.#sweep(), Math.max(0, at - this.#clock.now()));
    // A pending summary never keeps the process alive.
    (handle as { unref?: () => void } | null)?.unref?.();
    this.#timer = handle;
  }

  #cancel(): void {
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.#timerAt = Infinity;
  }
}
