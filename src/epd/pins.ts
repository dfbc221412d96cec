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
export function resolvePins(board: Board, overrides: Partial<PinMap> = {}): PinMap {
  const pins: PinMap = { ...DEFAULT_PINS[board], ...overrides };
  const used = new Map<number, string>();
  for (const [role, pin] of Object.entries(pins) as [keyof PinMap, number | null][]) {
    if (pin === null) continue;
    const other = used.get(pin);
    if (other !== undefined) throw new Error(`pins: GPIO ${pin} is given for both ${other} and ${role}`);
    used.set(pin, role);
  }
  return pins;
}
