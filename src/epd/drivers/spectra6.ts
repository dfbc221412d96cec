import type { EpdDriver, EpdDriverOptions } from '../driver.js';
import { ColourDriver, type ColourFamily, type ColourStep } from './colour-script.js';
import { vendorVariant } from './vendor-variant.js';

/**
 * Pimoroni Inky Impression 7.3" (2025), Spectra 6 E6 glass (`inky-impression-7in3`). The stream is what Pimoroni's
 * own driver sends for set_image(frame) then show(): inky/inky_e673.py of github.com/pimoroni/inky at commit 07035b3
 * (register values recorded from it; the fixtures in test/epd/vendor/ are its output). Native colours: BLACK 0
 * WHITE 1 YELLOW 2 RED 3 BLUE 5 GREEN 6 (4 is not a colour), the plane values of
 * display/panels/inky-impression-7in3.json.
 *
 * show() ends with the controller powered off (POF) and a panel setting written, not in deep sleep: Pimoroni never
 * sends DSLP. So showFull() sends exactly that, and sleep() adds deep sleep (0x07 with check code 0xA5, as
 * Waveshare's epd7in3e.py sends it to the same Spectra 6 controller), which a reset before the next frame undoes.
 */

/** inky_e673._busy_wait: BUSY is low while busy (the host pulls it up). */
const BUSY_WHEN = 'low' as const;

const cmd = (c: number, ...data: number[]): ColourStep => ({ do: 'cmd', cmd: c, data });

/** inky_e673.setup(): reset (RST low 30 ms, high 30 ms), wait, the register writes. */
const SETUP: readonly ColourStep[] = [
  { do: 'reset', pulse: { highMs: 0, lowMs: 30, afterMs: 30 } },
  { do: 'busy', after: 'the reset' },
  cmd(0xaa, 0x49, 0x55, 0x20, 0x08, 0x09, 0x18),
  cmd(0x01, 0x3f), // PWR
  cmd(0x00, 0x5f, 0x69), // PSR
  cmd(0x05, 0x40, 0x1f, 0x1f, 0x2c), // BTST1
  cmd(0x08, 0x6f, 0x1f, 0x1f, 0x22), // BTST3
  cmd(0x06, 0x6f, 0x1f, 0x17, 0x17), // BTST2
  cmd(0x03, 0x00, 0x54, 0x00, 0x44), // POFS
  cmd(0x60, 0x02, 0x00), // TCON
  cmd(0x30, 0x08), // PLL
  cmd(0x50, 0x3f), // CDI
  cmd(0x61, 0x03, 0x20, 0x01, 0xe0), // TRES 800 x 480
  cmd(0xe3, 0x2f), // PWS
  cmd(0x82, 0x01), // VDCS
];

/** inky_e673._update(): the frame (DTM1), power on, BTST2 again, refresh, power off, panel setting. */
const UPDATE: readonly ColourStep[] = [
  { do: 'frame', cmd: 0x10 },
  cmd(0x04),
  { do: 'busy', after: 'power on (0x04)' },
  cmd(0x06, 0x6f, 0x1f, 0x17, 0x49), // "second setting of the BTST2 register"
  cmd(0x12, 0x00),
  { do: 'busy', after: 'the refresh (0x12)', refresh: true },
  cmd(0x02, 0x00),
  { do: 'busy', after: 'power off (0x02)' },
  cmd(0x00, 0x4f, 0x6e),
  { do: 'busy', after: 'the panel setting (0x00)' },
];

const SLEEP: readonly ColourStep[] = [cmd(0x07, 0xa5)];

const SPECTRA6_FAMILY: ColourFamily = {
  vendor: 'inky/inky_e673.py',
  busyWhen: BUSY_WHEN,
  // inky_e673 gives the refresh 32 s (and then only warns); the other waits 0.3 s.
  refreshTimeoutMs: 120_000,
  shortTimeoutMs: 10_000,
  // inky_e673 sleeps 0.3 s before every command byte; kept, though it makes a refresh about 7 s longer.
  commandDelayMs: 300,
  show: [...SETUP, ...UPDATE],
  showSleeps: false,
  sleep: SLEEP,
};

/** By the profile's `controller.vendor_driver`: the one vendor driver this family's steps come from. */
const VARIANTS: Readonly<Record<string, ColourFamily>> = { inky_e673: SPECTRA6_FAMILY };

/** A driver for a panel whose profile names this family; another family is a programming error of the caller. */
export function createSpectra6Driver(panelId: string, o: EpdDriverOptions): EpdDriver {
  const { profile, variant } = vendorVariant(panelId, 'spectra6', 'Spectra 6', VARIANTS);
  return new ColourDriver(profile, variant, o);
}

/** Which controller and vendor file a panel follows (for `panel info` and docs/guides/panels.md). */
export function spectra6PanelFacts(panelId: string): { controller: string; vendorFile: string; busyWhen: 'low' } {
  vendorVariant(panelId, 'spectra6', 'Spectra 6', VARIANTS);
  return { controller: 'Spectra 6 (E673)', vendorFile: 'inky/inky_e673.py (pimoroni/inky)', busyWhen: BUSY_WHEN };
}
