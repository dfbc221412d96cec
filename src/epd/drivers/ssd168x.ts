import type { PanelProfile } from '../../panels/panels.js';
import type { BusyWait, ResetPulse } from '../bus.js';
import type { EpdDriver, EpdDriverOptions, PanelImage } from '../driver.js';
import { checkPanelImage } from './check-panel-image.js';
import { SleepingDriver } from './sleeping-driver.js';
import { vendorVariant } from './vendor-variant.js';

/**
 * The Solomon SSD1680 / SSD1683 family: Waveshare's 2.13" V4 and 2.9" V2 (SSD1680) and 4.2" V2 (SSD1683). BUSY is
 * high while busy. Each panel's stream is the one Waveshare's Python driver sends for init(), display(getbuffer(img)),
 * sleep(), recorded here as facts from waveshareteam/e-Paper, RaspberryPi_JetsonNano/python/lib/waveshare_epd/
 * (commit 86aa993), file named per panel below; test/epd/ssd168x.test.ts checks it against streams made by running
 * those drivers (test/epd/vendor/, test/tools/vendor-capture/ssd168x_capture.py).
 */

/** A step of a vendor init sequence: a wait on BUSY, or a command with its data (hex). */
type Step = 'busy' | readonly [cmd: number, data: string];

interface SsdPanel {
  /** The vendor's driver the stream is recorded from. */
  vendorFile: string;
  controller: 'SSD1680' | 'SSD1683';
  /** RAM as the vendor's getbuffer() fills it: columns (sources) x rows (gates). */
  ramWidth: number;
  ramHeight: number;
  /** The profile's landscape picture is turned a quarter counter-clockwise into RAM (PIL's rotate(90), getbuffer). */
  turned: boolean;
  /** The bits of a row's last byte beyond ramWidth: PIL's tobytes() of a '1' image pads with 0, the loop-built
   * buffers (0xFF-filled) with 1. */
  padBit: 0 | 1;
  reset: ResetPulse;
  /** After the reset pulse, up to the frame's RAM writes. */
  init: readonly Step[];
  /** The RAM write commands display() sends the frame to (0x24 black/white RAM, 0x26 the second RAM). */
  planes: readonly number[];
  /** Display Update Control 2 (0x22) before Master Activation (0x20): the vendor's TurnOnDisplay(). */
  update: number;
}

/** SetWindow/SetCursor as the vendors write them: whole RAM, cursor at 0,0 (0x44 bytes, 0x45/0x4F little-endian). */
function windowSteps(ramWidth: number, ramHeight: number): Step[] {
  const xEnd = (ramWidth - 1) >> 3;
  const yEnd = ramHeight - 1;
  const hex = (...b: number[]): string => Buffer.from(b).toString('hex');
  return [
    [0x44, hex(0, xEnd)],
    [0x45, hex(0, 0, yEnd & 0xff, yEnd >> 8)],
  ];
}
const CURSOR: Step[] = [
  [0x4e, '00'],
  [0x4f, '0000'],
];

/** epd2in9_V2.py WS_20_30: the full-refresh waveform init() loads with 0x32 (153 bytes), then its last six bytes. */
const WS_20_30_LUT =
  '80660000000000004000000010660000000000002000000080660000000000004000000010660000000000002000000000000000000000000000000014080000000002' +
  '0a0a000a0a00010000000000000000000000000000000000000000000000000000000000000000000000000000000000001408000100000100000000000001000000' +
  '0000000000000000000000444444444444000000';

/** By the profile's `controller.vendor_driver`. */
const PANELS: Readonly<Record<string, SsdPanel>> = {
  epd2in13_V4: {
    vendorFile: 'epd2in13_V4.py',
    controller: 'SSD1680',
    ramWidth: 122,
    ramHeight: 250,
    turned: true,
    padBit: 0,
    reset: { highMs: 20, lowMs: 2, afterMs: 20 },
    // init(): ReadBusy, SWRESET, ReadBusy, driver output 250 gates, data entry X+ Y+, window, cursor, border 0x05,
    // display update control (S8-S167), internal temperature sensor, ReadBusy.
    init: [
      'busy',
      [0x12, ''],
      'busy',
      [0x01, 'f90000'],
      [0x11, '03'],
      ...windowSteps(122, 250),
      ...CURSOR,
      [0x3c, '05'],
      [0x21, '0080'],
      [0x18, '80'],
      'busy',
    ],
    planes: [0x24],
    update: 0xf7,
  },
  epd2in9_V2: {
    vendorFile: 'epd2in9_V2.py',
    controller: 'SSD1680',
    ramWidth: 128,
    ramHeight: 296,
    turned: true,
    padBit: 1,
    reset: { highMs: 50, lowMs: 2, afterMs: 50 },
    // init(): as the 2.13" but 296 gates, no border or sensor commands, then SetLut(WS_20_30): 0x32 and ReadBusy,
    // gate level 0x3F, gate voltage 0x03, source voltages 0x04, VCOM 0x2C.
    init: [
      'busy',
      [0x12, ''],
      'busy',
      [0x01, '270100'],
      [0x11, '03'],
      ...windowSteps(128, 296),
      [0x21, '0080'],
      ...CURSOR,
      'busy',
      [0x32, WS_20_30_LUT],
      'busy',
      [0x3f, '22'],
      [0x03, '17'],
      [0x04, '410032'],
      [0x2c, '36'],
    ],
    planes: [0x24],
    update: 0xc7,
  },
  epd4in2_V2: {
    vendorFile: 'epd4in2_V2.py',
    controller: 'SSD1683',
    ramWidth: 400,
    ramHeight: 300,
    turned: false,
    padBit: 1,
    reset: { highMs: 100, lowMs: 2, afterMs: 100 },
    // init(): no driver output command (the SSD1683's 300 gates are its default); the second RAM bypassed as 0.
    init: [
      'busy',
      [0x12, ''],
      'busy',
      [0x21, '4000'],
      [0x3c, '05'],
      [0x11, '03'],
      ...windowSteps(400, 300),
      ...CURSOR,
      'busy',
    ],
    planes: [0x24, 0x26],
    update: 0xf7,
  },
};

/** Deep sleep mode 1 (RAM kept), as every vendor sleep() sends it, then 2 s before the power pin drops. */
const DEEP_SLEEP: readonly [number, number] = [0x10, 0x01];
const SLEEP_SETTLE_MS = 2000;

/** The frame as RAM bytes, as the vendor's getbuffer() makes them: 1 = white, MSB first, rows padded to a byte. */
function ssd168xRam(p: SsdPanel, profile: PanelProfile, image: PanelImage): Uint8Array {
  checkPanelImage(profile, image);
  const white = whiteIndex(profile);
  const stride = Math.ceil(p.ramWidth / 8);
  const out = new Uint8Array(stride * p.ramHeight);
  for (let ry = 0; ry < p.ramHeight; ry++) {
    for (let bx = 0; bx < stride; bx++) {
      let byte = 0;
      for (let bit = 0; bit < 8; bit++) {
        const rx = bx * 8 + bit;
        let on: number = p.padBit;
        if (rx < p.ramWidth) {
          // Turned: RAM (rx, ry) shows the landscape pixel (W-1-ry, rx), as PIL's rotate(90) and the loops place it.
          const i = p.turned ? rx * image.width + (image.width - 1 - ry) : ry * image.width + rx;
          on = image.indices[i] === white ? 1 : 0;
        }
        byte |= on << (7 - bit);
      }
      out[ry * stride + bx] = byte;
    }
  }
  return out;
}

function whiteIndex(profile: PanelProfile): number {
  return profile.palette.findIndex((e) => e.rgb.toLowerCase() === '#ffffff');
}

class Ssd168xDriver extends SleepingDriver {
  readonly panelId: string;
  readonly #p: SsdPanel;
  readonly #profile: PanelProfile;
  readonly #wait: BusyWait;

  constructor(panelId: string, o: EpdDriverOptions) {
    super(o.bus, false);
    this.panelId = panelId;
    const { profile, variant } = vendorVariant(panelId, 'ssd168x', 'SSD1680/SSD1683', PANELS);
    this.#p = variant;
    this.#profile = profile;
    // A few times the slowest refresh the vendor documents (the profile's full_ms), and never under 10 s.
    this.#wait = {
      busyWhen: 'high',
      timeoutMs: o.busyTimeoutMs ?? Math.max(10_000, 5 * this.#profile.refresh.full_ms),
    };
  }

  async showFull(image: PanelImage): Promise<void> {
    const ram = ssd168xRam(this.#p, this.#profile, image);
    await this.#refresh(ram);
  }

  /** The vendor's Clear(): every plane it writes filled with 0xFF (white), then the same update. */
  async clear(): Promise<void> {
    const ram = new Uint8Array(Math.ceil(this.#p.ramWidth / 8) * this.#p.ramHeight).fill(0xff);
    await this.#refresh(ram);
  }

  protected async sendSleep(): Promise<void> {
    await this.bus.command(DEEP_SLEEP[0], Uint8Array.of(DEEP_SLEEP[1]));
    await this.bus.delay(SLEEP_SETTLE_MS);
  }

  /** init(), the RAM writes, TurnOnDisplay(), sleep(): on any failure the panel is still put to sleep. */
  async #refresh(ram: Uint8Array): Promise<void> {
    try {
      await this.bus.reset(this.#p.reset);
      this.awake = true;
      for (const step of this.#p.init) {
        if (step === 'busy') await this.bus.waitIdle(this.#wait);
        else await this.bus.command(step[0], Buffer.from(step[1], 'hex'));
      }
      for (const plane of this.#p.planes) await this.bus.command(plane, ram);
      await this.bus.command(0x22, Uint8Array.of(this.#p.update));
      await this.bus.command(0x20);
      await this.bus.waitIdle(this.#wait);
      await this.sleep();
    } catch (err) {
      await this.#sleepAfterFailure();
      throw err;
    }
  }

  /**
   * After a failure (BUSY never idle, a bus error) the controller may still be busy and would ignore a command: a
   * reset pulse ends whatever it was doing, then deep sleep keeps the glass from a long drive. Best effort: the
   * first error is the one reported.
   */
  async #sleepAfterFailure(): Promise<void> {
    try {
      await this.bus.reset(this.#p.reset);
      await this.bus.command(DEEP_SLEEP[0], Uint8Array.of(DEEP_SLEEP[1]));
    } catch {
      // The bus itself failed; nothing more can be sent.
    }
    this.awake = false;
  }
}

/** A driver for a panel whose profile names this family; another family is a programming error of the caller. */
export function createSsd168xDriver(panelId: string, o: EpdDriverOptions): EpdDriver {
  return new Ssd168xDriver(panelId, o);
}

/** Which controller and vendor file a panel follows (for `panel info` and docs/guides/panels.md). */
export function ssd168xPanelFacts(panelId: string): { controller: string; vendorFile: string; busyWhen: 'high' } {
  const p = vendorVariant(panelId, 'ssd168x', 'SSD1680/SSD1683', PANELS).variant;
  return { controller: p.controller, vendorFile: p.vendorFile, busyWhen: 'high' };
}
