import type { PanelProfile } from '../../src/panels/panels.js';
import { ProtocolModel, type CommandTable } from './protocol-model.js';

/**
 * A model of the Solomon SSD1680 (Waveshare 2.13" V4, 2.9" V2) and SSD1683 (4.2" V2) as far as a full refresh uses
 * them, built from the controllers' datasheets, not from the driver: it takes the capture ops one at a time, keeps
 * the controller's state (deep sleep, BUSY, analog power, gate count, data entry mode, RAM window and address
 * counters, both RAM planes, the waveform) and on Master Activation with a display sequence turns the black/white
 * RAM into the glass. It refuses what the hardware would not take, with E_PANEL_PROTOCOL and a stable reason (the
 * checks every model makes are protocol-model.ts's).
 */

export const SSD168X_PROTOCOL_REASONS = [
  'data-before-command',
  'command-while-busy',
  'command-after-deep-sleep',
  'unknown-command',
  'bad-data-length',
  'window-outside-ram',
  'ram-outside-window',
  'refresh-before-power-on',
  'refresh-without-waveform',
] as const;
export type Ssd168xProtocolReason = (typeof SSD168X_PROTOCOL_REASONS)[number];

interface Chip {
  name: 'SSD1680' | 'SSD1683';
  /** RAM: sources (bits a row) x gates (rows). */
  ramWidth: number;
  ramHeight: number;
  /** Gates driven after a reset, before Driver Output Control (0x01). */
  defaultGates: number;
  /** Bytes of the waveform register (0x32). */
  lutBytes: number;
}
const SSD1680: Chip = { name: 'SSD1680', ramWidth: 176, ramHeight: 296, defaultGates: 296, lutBytes: 153 };
const SSD1683: Chip = { name: 'SSD1683', ramWidth: 400, ramHeight: 300, defaultGates: 300, lutBytes: 227 };

interface Glass {
  chip: Chip;
  /** Source lines and gate lines the glass is wired to. */
  width: number;
  height: number;
  /** The first source the glass is wired to: S8 on the SSD1680 panels, reached from RAM column 0 with 0x21 B=0x80. */
  firstSource: number;
  /** The profile's landscape is the glass turned a quarter clockwise (the vendors' getbuffer turns it back). */
  turned: boolean;
}
/** By the profile's `controller.vendor_driver`: the glass that vendor driver is written for. */
const GLASS: Readonly<Record<string, Glass>> = {
  epd2in13_V4: { chip: SSD1680, width: 122, height: 250, firstSource: 8, turned: true },
  epd2in9_V2: { chip: SSD1680, width: 128, height: 296, firstSource: 8, turned: true },
  epd4in2_V2: { chip: SSD1683, width: 400, height: 300, firstSource: 0, turned: false },
};

/** Data bytes each command takes: [min, max]; RAM writes any number. */
function commands(chip: Chip): CommandTable {
  const bytes = new Map<number, readonly [number, number]>([
    [0x01, [3, 3]], // driver output control: gates - 1 (LE), scan order
    [0x03, [1, 1]], // gate driving voltage
    [0x04, [3, 3]], // source driving voltages
    [0x0c, [4, 5]], // booster soft start
    [0x10, [1, 1]], // deep sleep mode
    [0x11, [1, 1]], // data entry mode
    [0x12, [0, 0]], // software reset
    [0x18, [1, 1]], // temperature sensor selection
    [0x1a, [1, 2]], // temperature register
    [0x20, [0, 0]], // master activation
    [0x21, [1, 2]], // display update control 1: RAM options, source output mode
    [0x22, [1, 1]], // display update control 2: the sequence 0x20 runs
    [0x24, [0, Infinity]], // write black/white RAM
    [0x26, [0, Infinity]], // write the second RAM
    [0x2c, [1, 1]], // VCOM
    [0x32, [chip.lutBytes, chip.lutBytes]], // waveform
    [0x3c, [1, 1]], // border waveform
    [0x3f, [1, 1]], // end option
    [0x44, [2, 2]], // RAM X window, in bytes
    [0x45, [4, 4]], // RAM Y window, LE
    [0x4e, [1, 1]], // RAM X counter
    [0x4f, [2, 2]], // RAM Y counter
  ]);
  return new Map([...bytes].map(([cmd, b]) => [cmd, { bytes: b }]));
}

export interface Ssd168xModelOptions {
  /** The panel the glass belongs to (display/panels/<id>.json): its vendor driver says which chip and how the glass is wired. */
  panel: Pick<PanelProfile, 'id' | 'width' | 'height' | 'palette' | 'controller'>;
  /** Called with the new glass after each refresh (the simulator's live view). */
  onRefresh?: (glass: Uint8Array) => void;
}

export class Ssd168xModel extends ProtocolModel<Ssd168xProtocolReason> {
  readonly #glass: Glass;
  readonly #profile: { width: number; height: number; white: number; black: number };
  /** Both RAM planes, one byte a pixel (0/1), ramWidth x ramHeight. */
  readonly #ram: [Uint8Array, Uint8Array];
  /** The glass, native orientation (sources x gates), 1 = white; white before the first refresh. */
  readonly #shown: Uint8Array;
  #analogOn = false;
  #gates: number;
  #gateReversed = false;
  #entry = 0x03;
  #win = { x0: 0, x1: 0, y0: 0, y1: 0 };
  #cur = { x: 0, y: 0, past: false };
  #update1 = [0x00, 0x00];
  #sequence = 0xff;
  #lutLoaded = false;

  constructor(o: Ssd168xModelOptions) {
    const vendor = o.panel.controller.vendor_driver ?? '';
    const glass = Object.hasOwn(GLASS, vendor) ? GLASS[vendor] : undefined;
    if (glass === undefined)
      throw new Error(
        `SSD168x model: panel ${o.panel.id}: controller.vendor_driver "${vendor}" is none of ${Object.keys(GLASS).join(', ')}`,
      );
    super({
      chip: glass.chip.name,
      commands: commands(glass.chip),
      ramCommands: [0x24, 0x26],
      tooManyBytes: 'bad-data-length',
      tooFewBytes: 'bad-data-length',
      onRefresh: o.onRefresh,
    });
    this.#glass = glass;
    const { width, height, palette } = o.panel;
    if (width * height !== glass.width * glass.height)
      throw new Error(
        `SSD168x model: panel ${o.panel.id} is ${width}x${height}, its glass ${glass.width}x${glass.height}`,
      );
    const white = palette.findIndex((e) => e.name === 'white');
    const black = palette.findIndex((e) => e.name === 'black');
    if (white < 0 || black < 0)
      throw new Error(`SSD168x model: panel ${o.panel.id} has no black or no white in its palette`);
    this.#profile = { width, height, white, black };
    this.#shown = new Uint8Array(glass.width * glass.height).fill(1);
    const size = glass.chip.ramWidth * glass.chip.ramHeight;
    this.#ram = [new Uint8Array(size).fill(1), new Uint8Array(size).fill(1)];
    this.#gates = glass.chip.defaultGates;
    this.#porRegisters();
  }

  protected onReset(): void {
    // A hardware reset ends deep sleep and whatever the controller was doing; registers to their reset values.
    this.#analogOn = false;
    this.#porRegisters();
  }

  protected moreRam(cmd: number, data: Buffer): void {
    this.#writeRam(cmd === 0x24 ? 0 : 1, data);
  }

  /** The glass: palette indices of the profile, rows of its width, landscape as the profile is written (white before
   * the first refresh). */
  glass(): Uint8Array {
    const shown = this.#shown;
    const { width, height, white, black } = this.#profile;
    const g = this.#glass;
    const indices = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        // Turned: the landscape pixel (x, y) is glass source y, gate W-1-x.
        const bit = g.turned ? shown[(width - 1 - x) * g.width + y] : shown[y * g.width + x];
        indices[y * width + x] = bit === 1 ? white : black;
      }
    }
    return indices;
  }

  #porRegisters(): void {
    const chip = this.#glass.chip;
    this.#gates = chip.defaultGates;
    this.#gateReversed = false;
    this.#entry = 0x03;
    this.#win = { x0: 0, x1: chip.ramWidth / 8 - 1, y0: 0, y1: chip.ramHeight - 1 };
    this.#cur = { x: 0, y: 0, past: false };
    this.#update1 = [0x00, 0x00];
    this.#sequence = 0xff;
    this.#lutLoaded = false;
  }

  protected command(cmd: number, data: Buffer): void {
    const chip = this.#glass.chip;
    switch (cmd) {
      case 0x01:
        this.#gates = (data[0]! | (data[1]! << 8)) + 1;
        this.#gateReversed = (data[2]! & 0x01) !== 0;
        if (this.#gates > chip.ramHeight)
          this.refuse('window-outside-ram', `${this.#gates} gates but the ${chip.name} has ${chip.ramHeight}`);
        return;
      case 0x10:
        // Deep sleep mode 1 or 2; 0x00 is normal mode, which the controller is in already.
        if (data[0] !== 0x00) this.enterDeepSleep();
        return;
      case 0x11:
        this.#entry = data[0]! & 0x07;
        return;
      case 0x12:
        // Software reset: registers to their reset values (RAM kept), BUSY high until it is done.
        this.#porRegisters();
        this.holdBusy();
        return;
      case 0x21:
        this.#update1 = [data[0]!, data[1] ?? 0x00];
        return;
      case 0x22:
        this.#sequence = data[0]!;
        return;
      case 0x20:
        this.#activate();
        return;
      case 0x24:
      case 0x26:
        this.#cur.past = false;
        this.#writeRam(cmd === 0x24 ? 0 : 1, data);
        return;
      case 0x32:
        this.#lutLoaded = true;
        return;
      case 0x44: {
        const [x0, x1] = [data[0]!, data[1]!];
        if (Math.max(x0, x1) >= chip.ramWidth / 8)
          this.refuse(
            'window-outside-ram',
            `X window bytes ${x0}-${x1} but the ${chip.name}'s RAM has ${chip.ramWidth / 8}`,
          );
        this.#win.x0 = x0;
        this.#win.x1 = x1;
        return;
      }
      case 0x45: {
        const [y0, y1] = [data[0]! | (data[1]! << 8), data[2]! | (data[3]! << 8)];
        if (Math.max(y0, y1) >= chip.ramHeight)
          this.refuse(
            'window-outside-ram',
            `Y window rows ${y0}-${y1} but the ${chip.name}'s RAM has ${chip.ramHeight}`,
          );
        this.#win.y0 = y0;
        this.#win.y1 = y1;
        return;
      }
      case 0x4e:
        this.#cur = { ...this.#cur, x: data[0]!, past: false };
        return;
      case 0x4f:
        this.#cur = { ...this.#cur, y: data[0]! | (data[1]! << 8), past: false };
        return;
      default:
        // Voltages, border, temperature, booster: taken, and no part of what the glass shows in this model.
        return;
    }
  }

  /** RAM bytes at the address counters, each 8 pixels MSB first, the counters moving as the data entry mode says. */
  #writeRam(plane: 0 | 1, data: Uint8Array): void {
    const ram = this.#ram[plane];
    const w = this.#glass.chip.ramWidth;
    const xInc = (this.#entry & 0x01) !== 0;
    const yInc = (this.#entry & 0x02) !== 0;
    const yFirst = (this.#entry & 0x04) !== 0;
    const [xl, xh] = [Math.min(this.#win.x0, this.#win.x1), Math.max(this.#win.x0, this.#win.x1)];
    const [yl, yh] = [Math.min(this.#win.y0, this.#win.y1), Math.max(this.#win.y0, this.#win.y1)];
    const cur = this.#cur;
    for (let i = 0; i < data.length; i++) {
      if (cur.past || cur.x < xl || cur.x > xh || cur.y < yl || cur.y > yh) {
        const at = cur.past ? 'past the end of the window' : `at byte ${cur.x}, row ${cur.y}`;
        this.refuse(
          'ram-outside-window',
          `RAM byte ${i} of ${data.length} written ${at}, outside the window (bytes ${xl}-${xh}, rows ${yl}-${yh})`,
        );
      }
      const byte = data[i]!;
      for (let b = 0; b < 8; b++) ram[cur.y * w + cur.x * 8 + b] = (byte >> (7 - b)) & 1;
      // Advance: the first direction wraps to the window's other edge and steps the second; past both, the end.
      const stepX = (): boolean => {
        cur.x += xInc ? 1 : -1;
        if (cur.x > xh || cur.x < xl) {
          cur.x = xInc ? xl : xh;
          return true;
        }
        return false;
      };
      const stepY = (): boolean => {
        cur.y += yInc ? 1 : -1;
        if (cur.y > yh || cur.y < yl) {
          cur.y = yInc ? yl : yh;
          return true;
        }
        return false;
      };
      const wrapped = yFirst ? stepY() && stepX() : stepX() && stepY();
      if (wrapped) cur.past = true;
    }
  }

  /** Master Activation: runs the 0x22 sequence; with its display bit the glass takes the black/white RAM. */
  #activate(): void {
    const s = this.#sequence;
    const analog = this.#analogOn || (s & 0x40) !== 0;
    if ((s & 0x04) !== 0) {
      if (!analog)
        this.refuse(
          'refresh-before-power-on',
          `display sequence 0x${hex(s)} without the analog supply on (0x22 bit 0x40)`,
        );
      if (!this.#lutLoaded && (s & 0x10) === 0) {
        this.refuse(
          'refresh-without-waveform',
          `display sequence 0x${hex(s)} with no waveform: write one with 0x32 or load it from OTP (0x22 bit 0x10)`,
        );
      }
      this.#show();
      this.refreshed();
    }
    this.#analogOn = (s & 0x02) !== 0 ? false : analog;
    this.holdBusy();
  }

  /** The black/white RAM through display update control 1 (normal, bypass as 0, inverse) onto the gates driven. */
  #show(): void {
    const g = this.#glass;
    const w = g.chip.ramWidth;
    const bwOption = this.#update1[0]! & 0x0f;
    // With 0x21 B bit 7 the SSD1680's RAM column 0 drives S8; without it S0.
    const offset = g.firstSource - ((this.#update1[1]! & 0x80) !== 0 && g.chip.name === 'SSD1680' ? 8 : 0);
    const shown = this.#shown;
    for (let gy = 0; gy < Math.min(g.height, this.#gates); gy++) {
      const ry = this.#gateReversed ? this.#gates - 1 - gy : gy;
      for (let gx = 0; gx < g.width; gx++) {
        const rx = gx + offset;
        let bit = rx < w ? this.#ram[0][ry * w + rx]! : 0;
        if (bwOption === 0x04) bit = 0;
        else if (bwOption === 0x08) bit ^= 1;
        shown[gy * g.width + gx] = bit;
      }
    }
  }
}

function hex(n: number): string {
  return n.toString(16).padStart(2, '0');
}
