/**
 * One button's press, told from its line's samples: a press is the line low (pressed: the buttons are active low, on
 * the input's pull-up) and steady for `debounceMs` after it was high. A contact's bounce, shorter than that, is no
 * press; a hold is one press, until the line has been high again; a line already low when reading starts (a button
 * held, a line stuck low) is no press until it has been high.
 */

export interface ButtonDebouncerOptions {
  /** How long the line stays low before it counts as a press, ms. */
  debounceMs: number;
}

export class ButtonDebouncer {
  readonly #debounceMs: number;
  /** Whether the line was high since the last press (or since reading began): the next steady low is a press. */
  #armed = false;
  /** When the line went low (ms, the sampler's clock), or null while it is high. */
  #lowSince: number | null = null;

  constructor(o: ButtonDebouncerOptions) {
    this.#debounceMs = o.debounceMs;
  }

  /** One sample of the line (1: high, released; 0: low, pressed) at `atMs`; true when it completes a press. */
  sample(level: 0 | 1, atMs: number): boolean {
    if (level === 1) {
      this.#armed = true;
      this.#lowSince = null;
      return false;
    }
    if (!this.#armed) return false;
    this.#lowSince ??= atMs;
    if (atMs - this.#lowSince < this.#debounceMs) return false;
    this.#armed = false;
    return true;
  }
}
