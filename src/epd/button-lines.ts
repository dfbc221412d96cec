import { gpioLineError } from './bus-errors.js';
import type { ButtonKey, ButtonPin } from './pins.js';
import { BIAS_FLAG, loadBusLibrary, openChip, type GpiodLib, type GpiodLine } from './gpio-chip.js';

/**
 * A board's button lines, taken through the GPIO character device (node-libgpiod, as the panel's bus) as inputs with
 * the pull-up (Pimoroni's buttons example: active low, nothing else pulls them up). Unlike the panel's bus, which is
 * opened for each refresh, they are held while the daemon runs, and released when it stops.
 */

export interface ButtonLinesOptions {
  /** The buttons' BCM pins. */
  pins: readonly ButtonPin[];
  /** The GPIO chip: its label or /dev path; default the Pi header's (as the panel's bus). */
  gpioChip?: string;
  /** Imports node-libgpiod in place of Node's import (tests: a stand-in for the header this machine lacks). */
  importer?: (lib: string) => Promise<unknown>;
}

export interface ButtonLines {
  /** Each button's level now: 1 released, 0 pressed. */
  read(): Array<{ key: ButtonKey; level: 0 | 1 }>;
  /** Gives the lines back (idempotent). */
  release(): void;
}

/** What the consumer column of `gpioinfo` shows for the buttons' lines. */
const CONSUMER = 'outfit-display-buttons';

/** Takes every button's line, or none: on a failure (EpdError, its fix named) those taken are released again. */
export async function openButtonLines(o: ButtonLinesOptions): Promise<ButtonLines> {
  const gpiod = await loadBusLibrary<GpiodLib>('node-libgpiod', o.importer);
  const chip = openChip(gpiod, o.gpioChip);
  const taken: Array<{ key: ButtonKey; line: GpiodLine }> = [];
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    for (const t of taken) t.line.release();
  };
  try {
    for (const { key, pin } of o.pins) {
      try {
        const line = new gpiod.Line(chip, pin);
        line.requestInputModeFlags(CONSUMER, BIAS_FLAG['pull-up']);
        taken.push({ key, line });
      } catch (err) {
        throw gpioLineError(`button ${key}`, pin, err, `attached.buttons.${key}.pin`);
      }
    }
  } catch (err) {
    release();
    throw err;
  }
  return {
    // The chip is held here as long as its lines.
    read: () => (void chip, taken.map(({ key, line }) => ({ key, level: line.getValue() }))),
    release,
  };
}
