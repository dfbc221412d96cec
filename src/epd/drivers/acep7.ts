import type { EpdDriver, EpdDriverOptions } from '../driver.js';
import { ColourDriver, type ColourFamily, type ColourStep } from './colour-script.js';
import { vendorVariant } from './vendor-variant.js';

/**
 * Waveshare 7.3" e-Paper (F), 7-colour ACeP (`waveshare-7in3-f`). The stream is what Waveshare's own driver sends
 * for init(), display(getbuffer(frame)), sleep(): RaspberryPi_JetsonNano/python/lib/waveshare_epd/epd7in3f.py of
 * github.com/waveshareteam/e-Paper at commit 86aa993 (register values recorded from it; the fixtures in
 * test/epd/vendor/ are its output). Native colours: BLACK 0 WHITE 1 GREEN 2 BLUE 3 RED 4 YELLOW 5 ORANGE 6, the
 * palette order of display/panels/waveshare-7in3-f.json.
 */

/** epd7in3f.ReadBusyH: BUSY reads 0 while busy, 1 when idle. */
const BUSY_WHEN = 'low' as const;

const cmd = (c: number, ...data: number[]): ColourStep => ({ do: 'cmd', cmd: c, data });

/** epd7in3f.init(): reset (20 ms high, 2 ms low, 20 ms high), wait, 30 ms, then the register writes. */
const INIT: readonly ColourStep[] = [
  { do: 'reset', pulse: { highMs: 20, lowMs: 2, afterMs: 20 } },
  { do: 'busy', after: 'the reset' },
  { do: 'delay', ms: 30 },
  cmd(0xaa, 0x49, 0x55, 0x20, 0x08, 0x09, 0x18), // CMDH
  cmd(0x01, 0x3f, 0x00, 0x32, 0x2a, 0x0e, 0x2a), // power setting
  cmd(0x00, 0x5f, 0x69), // panel setting
  cmd(0x03, 0x00, 0x54, 0x00, 0x44), // power off sequence
  cmd(0x05, 0x40, 0x1f, 0x1f, 0x2c), // booster soft start 1
  cmd(0x06, 0x6f, 0x1f, 0x1f, 0x22), // booster soft start 2
  cmd(0x08, 0x6f, 0x1f, 0x1f, 0x22), // booster soft start 3
  cmd(0x13, 0x00, 0x04), // IPC
  cmd(0x30, 0x3c), // PLL
  cmd(0x41, 0x00), // TSE
  cmd(0x50, 0x3f), // VCOM and data interval
  cmd(0x60, 0x02, 0x00), // TCON
  cmd(0x61, 0x03, 0x20, 0x01, 0xe0), // resolution 800 x 480
  cmd(0x82, 0x1e), // VCOM DC
  cmd(0x84, 0x00),
  cmd(0x86, 0x00), // AGID
  cmd(0xe3, 0x2f), // power saving
  cmd(0xe0, 0x00), // CCSET
  cmd(0xe6, 0x00), // TSSET
];

/** epd7in3f.display(): the frame (DTM 0x10), then TurnOnDisplay(): power on, refresh, power off, each awaited. */
const DISPLAY: readonly ColourStep[] = [
  { do: 'frame', cmd: 0x10 },
  cmd(0x04),
  { do: 'busy', after: 'power on (0x04)' },
  cmd(0x12, 0x00),
  { do: 'busy', after: 'the refresh (0x12)', refresh: true },
  cmd(0x02, 0x00),
  { do: 'busy', after: 'power off (0x02)' },
];

/** epd7in3f.sleep(): deep sleep with its check code, then 2 s before the supply may go. */
const SLEEP: readonly ColourStep[] = [cmd(0x07, 0xa5), { do: 'delay', ms: 2000 }];

const ACEP7_FAMILY: ColourFamily = {
  vendor: 'waveshare_epd/epd7in3f.py',
  busyWhen: BUSY_WHEN,
  // Waveshare gives about 32 s for a full refresh (display/panels/waveshare-7in3-f.json refresh.full_ms); it waits forever.
  refreshTimeoutMs: 120_000,
  shortTimeoutMs: 10_000,
  commandDelayMs: 0,
  show: [...INIT, ...DISPLAY, ...SLEEP],
  showSleeps: true,
  sleep: SLEEP,
};

/** By the profile's `controller.vendor_driver`: the one vendor driver this family's steps come from. */
const VARIANTS: Readonly<Record<string, ColourFamily>> = { epd7in3f: ACEP7_FAMILY };

/** A driver for a panel whose profile names this family; another family is a programming error of the caller. */
export function createAcep7Driver(panelId: string, o: EpdDriverOptions): EpdDriver {
  const { profile, variant } = vendorVariant(panelId, 'acep7', 'ACeP 7-colour', VARIANTS);
  return new ColourDriver(profile, variant, o);
}

/** Which controller and vendor file a panel follows (for `panel info` and docs/guides/panels.md). */
export function acep7PanelFacts(panelId: string): { controller: string; vendorFile: string; busyWhen: 'low' } {
  vendorVariant(panelId, 'acep7', 'ACeP 7-colour', VARIANTS);
  return {
    controller: 'ACeP 7-colour (Waveshare EPD_7IN3F)',
    vendorFile: 'RaspberryPi_JetsonNano/python/lib/waveshare_epd/epd7in3f.py (waveshareteam/e-Paper)',
    busyWhen: BUSY_WHEN,
  };
}
