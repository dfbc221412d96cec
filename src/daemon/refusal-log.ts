import type { Logger } from 'pino';
import { W_REFRESH_REFUSED, type RefreshRefusal } from './refresh-gate.js';

/**
 * A display's refused refresh presses in the log: at most one line a minute (W_REFRESH_REFUSED), with how many
 * presses were refused since the last one, so that a button held down adds no flood of lines.
 */

export interface RefusalLogOptions {
  /** The display whose presses these are. */
  displayId: string;
  logger: Logger;
}

export class RefusalLog {
  readonly #o: RefusalLogOptions;
  /** Refusals not logged yet. */
  #unlogged = 0;
  #loggedAt = -Infinity;

  constructor(opts: RefusalLogOptions) {
    this.#o = opts;
  }

  /** A press refused at `now` (ms), saying `text`: logged unless a line went out within the last minute. */
  refused(refusal: RefreshRefusal, text: string, now: number): void {
    this.#unlogged++;
    if (now - this.#loggedAt < 60_000 && now >= this.#loggedAt) return;
    this.#o.logger.warn(
      { display: this.#o.displayId, code: W_REFRESH_REFUSED, refusal: refusal.kind, count: this.#unlogged },
      text,
    );
    this.#loggedAt = now;
    this.#unlogged = 0;
  }
}
