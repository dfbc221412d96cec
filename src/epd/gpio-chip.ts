import { gpioChipError, libraryMissing, noHeaderChip } from './bus-errors.js';
import { importOptional } from './optional-lib.js';

/**
 * The GPIO character device as the panel's bus (real-bus.ts) and a board's buttons (button-lines.ts) both take it:
 * node-libgpiod loaded when first needed, the Pi header's chip found, a line's bias. Apart from the bus, so that the
 * buttons load none of the SPI side.
 */

/** The GPIO chip labels of the Pi's 40-pin header: Pi 5 (RP1), Pi 4 (BCM2711), Pi 3 / Zero 2 (BCM2835). */
const HEADER_CHIP_LABELS = ['pinctrl-rp1', 'pinctrl-bcm2712', 'pinctrl-bcm2711', 'pinctrl-bcm2835'];

/** libgpiod 1.x's GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN / _PULL_UP (node-libgpiod's Line.RequestFlags). */
export const BIAS_FLAG = { 'pull-down': 1 << 4, 'pull-up': 1 << 5 } as const;

/** What the bus and the buttons need of node-libgpiod (libgpiod 1.x). */
export interface GpiodLib {
  getChipNames(): string[];
  Chip: new (name: string) => { label: string; name: string };
  Line: new (chip: unknown, offset: number) => GpiodLine;
}
export interface GpiodLine {
  requestOutputMode(consumer?: string, value?: 0 | 1): void;
  requestInputModeFlags(consumer: string, flags: number): void;
  getValue(): 0 | 1;
  setValue(v: 0 | 1): void;
  release(): void;
}

/** An optional bus library, or E_PANEL_BUS naming how to install it; `importer` in place of Node's (tests). */
export async function loadBusLibrary<T>(
  lib: string,
  importer: (lib: string) => Promise<unknown> = importOptional,
): Promise<T> {
  try {
    return (await importer(lib)) as T;
  } catch (err) {
    throw libraryMissing(lib, err);
  }
}

/** The chip named `wanted` (its label, name or /dev path), else the Pi header's; errors name the fix. */
export function openChip(gpiod: GpiodLib, wanted: string | undefined): unknown {
  let names: string[];
  try {
    names = gpiod.getChipNames();
  } catch (err) {
    throw gpioChipError(wanted ?? '/dev/gpiochip*', err);
  }
  const seen: string[] = [];
  for (const name of names) {
    let chip: { label: string; name: string };
    try {
      chip = new gpiod.Chip(name);
    } catch (err) {
      throw gpioChipError(`/dev/${name}`, err);
    }
    seen.push(`${name} (${chip.label})`);
    const match =
      wanted === undefined
        ? HEADER_CHIP_LABELS.includes(chip.label)
        : wanted === chip.label || wanted === name || wanted === `/dev/${name}`;
    if (match) return chip;
  }
  throw noHeaderChip(seen);
}
