import { loadPanel } from '../panels/panels.js';
import { HEADER_BOARDS, type HeaderBoard } from '../panels/panel-controller.js';

/**
 * Which header pins a panel's board uses, by BCM GPIO number. The defaults are the boards' own wiring (Waveshare's
 * epdconfig.py RaspberryPi class; Pimoroni's inky_e673.py), each overridable in the config (`attached.pins`).
 */

/** The boards that sit on the Pi's 40-pin header (named where the panel profiles name theirs). */
export const BOARDS = HEADER_BOARDS;
export type Board = HeaderBoard;

export interface PinMap {
  /** Reset, driven by us (active low). */
  rst: number;
  /** Data/command select: low for a command byte, high for its data. */
  dc: number;
  /** BUSY from the controller, read by us. */
  busy: number;
  /** The HAT's power switch (Waveshare HAT rev 2.3+), high while in use; null where the board has none. */
  pwr: number | null;
  /**
   * Chip select driven as a GPIO, or null when the SPI device drives it (CE0 of /dev/spidev0.0). The Inky needs it
   * as a GPIO: Pimoroni's setup frees CE0 from the SPI driver with `dtoverlay=spi0-0cs`.
   */
  cs: number | null;
}

/** Each board's wiring, from the vendor's driver (named beside each). */
export const DEFAULT_PINS: Readonly<Record<Board, Readonly<PinMap>>> = {
  // waveshare_epd/epdconfig.py, class RaspberryPi: RST_PIN 17, DC_PIN 25, CS_PIN 8 (CE0, the SPI driver's), BUSY_PIN 24, PWR_PIN 18.
  'waveshare-hat': { rst: 17, dc: 25, busy: 24, pwr: 18, cs: null },
  // inky/inky_e673.py: RESET_PIN 27, DC_PIN 22, BUSY_PIN 17, CS0_PIN 8 (a GPIO: SPI with no_cs).
  inky: { rst: 27, dc: 22, busy: 17, pwr: null, cs: 8 },
};

/**
 * How each board's vendor driver sets up its lines: BUSY's bias (epdconfig.py: gpiozero Button(pull_up=False), a
 * pull-down; inky_e673.py: Bias.PULL_UP) and RST's level before the first reset (gpiozero LED: off; Inky: ACTIVE).
 * A panel that is not connected then reads as busy, and the wait ends in E_PANEL_BUSY_TIMEOUT, not at random.
 */
export const LINE_SETUP: Readonly<Record<Board, { busyBias: 'pull-down' | 'pull-up'; rstIdle: 0 | 1 }>> = {
  'waveshare-hat': { busyBias: 'pull-down', rstIdle: 0 },
  inky: { busyBias: 'pull-up', rstIdle: 1 },
};

/** The SPI clock each board's vendor driver sets (epdconfig.py: 4 MHz; inky_e673.py: 1 MHz). */
export const SPI_HZ: Readonly<Record<Board, number>> = { 'waveshare-hat': 4_000_000, inky: 1_000_000 };

/** The board a panel sits on when the config names none: its profile's `controller.board`, else a Waveshare HAT. */
export function defaultBoard(panelId: string): Board {
  return loadPanel(panelId).controller.board ?? 'waveshare-hat';
}

/** The board's pins with the config's overrides; two roles on one pin is refused (it names both). */
export function resolvePins(board: Board, overrides: { [R in keyof PinMap]?: PinMap[R] | undefined } = {}): PinMap {
  const pins: PinMap = { ...DEFAULT_PINS[board] };
  for (const [role, pin] of Object.entries(overrides) as [keyof PinMap, number | null | undefined][])
    if (pin !== undefined) (pins as Record<keyof PinMap, number | null>)[role] = pin;
  const used = new Map<number, string>();
  for (const [role, pin] of Object.entries(pins) as [keyof PinMap, number | null][]) {
    if (pin === null) continue;
    const other = used.get(pin);
    if (other !== undefined) throw new Error(`pins: GPIO ${pin} is given for both ${other} and ${role}`);
    used.set(pin, role);
  }
  return pins;
}

/** The keys of a board's buttons (config `attached.buttons`), in the order they sit on the board. */
export const BUTTON_KEYS = ['a', 'b', 'c', 'd'] as const;
export type ButtonKey = (typeof BUTTON_KEYS)[number];

/**
 * Each board's buttons by BCM GPIO number, active low with the input's pull-up (Pimoroni's buttons example: the Inky
 * Impression's A, B, C, D; the 13.3" Impression has C on 25, set as its `pin`). A Waveshare HAT has none: a button
 * there names its own pin.
 */
export const DEFAULT_BUTTON_PINS: Readonly<Record<Board, Readonly<Partial<Record<ButtonKey, number>>>>> = {
  'waveshare-hat': {},
  inky: { a: 5, b: 6, c: 16, d: 24 },
};

/** A button's pin as the config resolves it. */
export interface ButtonPin {
  key: ButtonKey;
  pin: number;
}

/**
 * The pins of the configured buttons (the board's default unless a button names its `pin`), and what is wrong with
 * them: a button with no pin on a board without button pins, a pin that is also one of the panel's roles (naming
 * both) or another button's. `panelPins` are the panel's after the config's overrides.
 */
export function resolveButtonPins(
  board: Board,
  panelPins: PinMap,
  buttons: Partial<Record<ButtonKey, { pin?: number | undefined } | undefined>>,
): { pins: ButtonPin[]; problems: Array<{ key: ButtonKey; message: string }> } {
  const pins: ButtonPin[] = [];
  const problems: Array<{ key: ButtonKey; message: string }> = [];
  const used = new Map<number, string>();
  for (const [role, pin] of Object.entries(panelPins) as [keyof PinMap, number | null][])
    if (pin !== null) used.set(pin, `the panel's ${role}`);
  for (const key of BUTTON_KEYS) {
    const b = buttons[key];
    if (b === undefined) continue;
    const pin = b.pin ?? DEFAULT_BUTTON_PINS[board][key];
    if (pin === undefined) {
      problems.push({ key, message: `the ${board} board has no button ${key}: give its pin (a BCM GPIO number)` });
      continue;
    }
    const other = used.get(pin);
    if (other !== undefined) {
      problems.push({ key, message: `GPIO ${pin} is given for both ${other} and button ${key}` });
      continue;
    }
    used.set(pin, `button ${key}`);
    pins.push({ key, pin });
  }
  return { pins, problems };
}
