import type { Logger } from 'pino';
import type { ButtonActionConfig } from '../config/schema.js';
import type { PanelProblem } from '../state/panel-status.js';
import type { WarningCode } from '../shared/codes.js';
import type { Clock } from '../time/clock.js';
import { ButtonDebouncer } from './button-debouncer.js';
import { openButtonLines, type ButtonLines } from './button-lines.js';
import { EpdError } from './epd-error.js';
import { resolveAttachment, type AttachedPanel } from './open-driver.js';
import { resolveButtonPins, type ButtonKey } from './pins.js';

/**
 * An attached board's buttons (`attached.buttons`), read while the daemon runs: their lines are sampled every
 * BUTTON_POLL_MS on the daemon's clock, each through its debouncer, and a press is handed to `onPress` once. Lines
 * that cannot be taken are the panel's problem (`onProblem`), never the daemon's end: the panel is refreshed as before.
 * A capture bus has no header: its buttons are not read (W_PANEL_BUTTONS_CAPTURE, once at the start).
 */

/** How often the lines are read: a press is seen within this much of its debounce. */
export const BUTTON_POLL_MS = 20;
/**
 * How long a line stays low before it is a press. Pimoroni's buttons example ignores 100 ms after an edge; here the
 * low must last, so a shorter time keeps a quick tap a press while a contact's bounce (a few ms) is none.
 */
export const BUTTON_DEBOUNCE_MS = 60;

export interface PanelButtonsOptions {
  /** The display (its id for the logs), its panel (the board's default button pins) and `attached.buttons`. */
  display: AttachedPanel & { id: string };
  /** A press: what its button is bound to. */
  onPress: (action: ButtonActionConfig, key: ButtonKey) => void;
  /** The lines could not be taken, or stopped answering (an EpdError's code, and its message naming the fix). */
  onProblem: (problem: PanelProblem) => void;
  /** Times the reads. */
  clock: Clock;
  logger: Logger;
  /** Imports node-libgpiod in place of Node's import (tests: a stand-in for the header this machine lacks). */
  importer?: (lib: string) => Promise<unknown>;
}

export class PanelButtons {
  readonly #o: PanelButtonsOptions;
  #lines: ButtonLines | null = null;
  #timer: unknown = null;
  #stopped = false;

  constructor(o: PanelButtonsOptions) {
    this.#o = o;
  }

  /** Takes the lines and starts reading them; a failure goes to onProblem (and the log), never to the caller. */
  async start(): Promise<void> {
    const { display, logger } = this.#o;
    const displayId = display.id;
    const buttons = display.attached.buttons ?? {};
    if (Object.keys(buttons).length === 0) return;
    const r = resolveAttachment(display);
    if (r.bus.kind === 'capture') {
      logger.warn(
        { display: displayId, code: 'W_PANEL_BUTTONS_CAPTURE' satisfies WarningCode },
        "the panel's buttons are not read: its bus is a capture file, not the header",
      );
      return;
    }
    // The config loader refused every problem of these pins already.
    const { pins } = resolveButtonPins(r.board, r.pins, buttons);
    let lines: ButtonLines;
    try {
      lines = await openButtonLines({
        pins,
        ...(r.bus.gpioChip !== null && { gpioChip: r.bus.gpioChip }),
        ...(this.#o.importer !== undefined && { importer: this.#o.importer }),
      });
    } catch (err) {
      this.#fail(err instanceof EpdError ? err : new EpdError('E_PANEL_BUS', (err as Error).message, { cause: err }));
      return;
    }
    if (this.#stopped) return lines.release();
    this.#lines = lines;
    logger.info({ display: displayId, pins: Object.fromEntries(pins.map((p) => [p.key, p.pin])) }, 'reading buttons');
    const debouncers = new Map(pins.map((p) => [p.key, new ButtonDebouncer({ debounceMs: BUTTON_DEBOUNCE_MS })]));
    this.#poll(debouncers);
  }

  #poll(debouncers: ReadonlyMap<ButtonKey, ButtonDebouncer>): void {
    const lines = this.#lines;
    if (lines === null) return;
    const at = this.#o.clock.monotonic();
    let levels: Array<{ key: ButtonKey; level: 0 | 1 }>;
    try {
      levels = lines.read();
    } catch (err) {
      // A read that fails once (the chip gone) fails again: the lines are given up, the daemon goes on.
      this.#fail(
        new EpdError('E_PANEL_BUS', `the buttons' lines cannot be read: ${(err as Error).message}`, { cause: err }),
      );
      this.stop();
      return;
    }
    for (const { key, level } of levels) {
      if (!debouncers.get(key)!.sample(level, at)) continue;
      const action = this.#o.display.attached.buttons?.[key];
      if (action === undefined) continue;
      try {
        this.#o.onPress(action, key);
      } catch (err) {
        // A press that fails is that press's: the buttons are read on.
        this.#o.logger.error({ display: this.#o.display.id, button: key, err }, "a panel button's press failed");
      }
    }
    this.#timer = this.#o.clock.setTimeout(() => this.#poll(debouncers), BUTTON_POLL_MS);
  }

  #fail(e: EpdError): void {
    this.#o.logger.error({ display: this.#o.display.id, code: e.code, err: e }, "the panel's buttons cannot be read");
    this.#o.onProblem({ code: e.code, message: e.message, since: new Date(this.#o.clock.now()).toISOString() });
  }

  /** Stops reading and releases the lines. */
  stop(): void {
    this.#stopped = true;
    this.#o.clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.#lines?.release();
    this.#lines = null;
  }
}
