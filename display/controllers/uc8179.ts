import type { PanelProfile } from '../../src/panels/panels.js';
import { ProtocolModel, type CommandTable } from './protocol-model.js';

/**
 * A model of the UC8179 controller (Waveshare 7.5" V2, 7.5" B V2), fed the capture one operation at a time, as the
 * chip would take the bytes: it keeps power, panel setting (PSR 0x00: KW or KWR mode, scan directions), resolution
 * (TRES 0x61), data polarity (CDI 0x50: DDX, N2OCP), the partial window (PTL 0x90, PTIN 0x91 / PTOUT 0x92), the two
 * RAM planes (DTM1 0x10 "old"/black-white, DTM2 0x13 "new"/red), refresh (DRF 0x12), deep sleep (DSLP 0x07 0xa5)
 * and BUSY, and produces the glass as palette indices of the panel profile. It refuses what the chip would not take,
 * with E_PANEL_PROTOCOL and a stable `reason` (the checks every model makes are protocol-model.ts's). Polarity, as
 * the vendor's drivers use it: in KW mode (PSR bit 4 set) DTM2 makes the picture, a 1 is black with DDX[0] = 0 and
 * white with DDX[0] = 1; in KWR mode DTM1 is black/white (the same DDX[0] rule) and a 1 in DTM2 is red unless DDX[1]
 * is set, red winning over black/white.
 */

export const UC8179_PROTOCOL_REASONS = [
  /** Data bytes (DC high) with no command since the reset. */
  'data-before-command',
  /** Data bytes with no command taking them (to a command that takes none, or more than it takes). */
  'data-without-command',
  /** A command the model does not know. */
  'unknown-command',
  /** A command while BUSY (after power on/off or a refresh, before the wait on BUSY); only 0x71 (status) is taken. */
  'command-while-busy',
  /** DRF (0x12) with the power off (no PON 0x04 since the reset or the last POF 0x02). */
  'refresh-before-power-on',
  /** More RAM bytes than the window (TRES, or the partial window) holds. */
  'ram-outside-window',
  /** A resolution or partial window beyond the glass. */
  'window-beyond-glass',
  /** A command after deep sleep, before a reset pulse. */
  'command-after-deep-sleep',
] as const;
export type Uc8179ProtocolReason = (typeof UC8179_PROTOCOL_REASONS)[number];

/**
 * The most data bytes each command takes; Infinity for the RAM planes. Fewer are taken as the chip takes them: the bytes sent set the first parameters, the others keep their values (the vendor's sleep()
 * sends CDI with one byte).
 */
const MOST_BYTES: ReadonlyMap<number, number> = new Map<number, number>([
  [0x00, 1], // PSR
  [0x01, 5], // PWR (the vendor sends 4 of the 5)
  [0x02, 0], // POF
  [0x03, 1], // PFS
  [0x04, 0], // PON
  [0x06, 4], // BTST
  [0x07, 1], // DSLP
  [0x10, Infinity], // DTM1
  [0x12, 0], // DRF
  [0x13, Infinity], // DTM2
  [0x15, 1], // DUSPI
  ...[0x20, 0x21, 0x22, 0x23, 0x24, 0x25].map((c) => [c, 60] as const), // LUTs (PSR REG = 0 leaves them unused)
  [0x30, 1], // PLL
  [0x50, 2], // CDI
  [0x60, 1], // TCON
  [0x61, 4], // TRES
  [0x65, 4], // GSST
  [0x71, 0], // FLG (get status)
  [0x90, 9], // PTL
  [0x91, 0], // PTIN
  [0x92, 0], // PTOUT
  [0xe0, 1], // CCSET
  [0xe5, 1], // TSSET
]);
const COMMANDS: CommandTable = new Map([...MOST_BYTES].map(([cmd, most]) => [cmd, { bytes: [0, most] as const }]));

/** A rectangle of the RAM in pixels; x0 and x1 + 1 multiples of 8 (the RAM takes whole bytes). */
interface Window {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** PTL's window: HRST/HRED in whole bytes (bits 9-3), VRST/VRED in lines. */
function ptlWindow(t: Uint8Array): Window {
  return {
    x0: ((t[0]! << 8) | t[1]!) & 0x3f8,
    x1: (((t[2]! << 8) | t[3]!) & 0x3f8) | 0x7,
    y0: ((t[4]! << 8) | t[5]!) & 0x3ff,
    y1: ((t[6]! << 8) | t[7]!) & 0x3ff,
  };
}

export interface Uc8179ModelOptions {
  /** The panel the glass belongs to: its size and palette (black, white, and red on the B). */
  panel: Pick<PanelProfile, 'id' | 'width' | 'height' | 'palette'>;
  /** Called with the new glass after each refresh (the simulator's live view). */
  onRefresh?: (glass: Uint8Array) => void;
}

export class Uc8179Model extends ProtocolModel<Uc8179ProtocolReason> {
  readonly #w: number;
  readonly #h: number;
  readonly #ink: { black: number; white: number; red: number | undefined };
  /** The two RAM planes, one byte a pixel (0/1): DTM1 and DTM2. */
  readonly #ram: [Uint8Array, Uint8Array];
  readonly #glass: Uint8Array;
  /** Where the RAM write under way is. */
  #ramAt = 0;
  #powered = false;
  /** The registers the picture depends on, as last sent (a short write sets only the first bytes). */
  #psr = Uint8Array.of(0x0f);
  #cdi = Uint8Array.of(0x11, 0x07);
  #tres = new Uint8Array(4);
  #ptl = new Uint8Array(9);
  #partialWindowSet = false;
  #partial = false;

  constructor(o: Uc8179ModelOptions) {
    super({
      chip: 'UC8179',
      commands: COMMANDS,
      ramCommands: [0x10, 0x13],
      // FLG (get status) is how the vendor's ReadBusy polls.
      takenWhileBusy: [0x71],
      tooManyBytes: 'data-without-command',
      onRefresh: o.onRefresh,
    });
    this.#w = o.panel.width;
    this.#h = o.panel.height;
    const at = (name: string): number | undefined => {
      const i = o.panel.palette.findIndex((e) => e.name === name);
      return i < 0 ? undefined : i;
    };
    const black = at('black');
    const white = at('white');
    if (black === undefined || white === undefined)
      throw new Error(`UC8179 model: panel ${o.panel.id} has no black or no white in its palette`);
    this.#ink = { black, white, red: at('red') };
    this.#ram = [new Uint8Array(this.#w * this.#h), new Uint8Array(this.#w * this.#h)];
    this.#glass = new Uint8Array(this.#w * this.#h).fill(white);
    this.onReset();
  }

  /** The glass: palette indices of the profile, rows of its width (white before the first refresh). */
  glass(): Uint8Array {
    return this.#glass.slice();
  }

  /** True from PON until POF or a reset. */
  get powered(): boolean {
    return this.#powered;
  }

  protected moreRam(cmd: number, data: Buffer): void {
    this.#writeRam(cmd === 0x10 ? 0 : 1, data, 'more RAM data');
  }

  protected command(cmd: number, d: Buffer, name: string): void {
    switch (cmd) {
      case 0x00:
        this.#psr.set(d);
        return;
      case 0x02:
        this.#powered = false;
        this.holdBusy();
        return;
      case 0x04:
        this.#powered = true;
        this.holdBusy();
        return;
      case 0x07:
        // The check code 0xa5 or nothing happens.
        if (d[0] === 0xa5) this.enterDeepSleep();
        return;
      case 0x10:
      case 0x13:
        this.#ramAt = 0;
        return this.#writeRam(cmd === 0x10 ? 0 : 1, d, name);
      case 0x12:
        return this.#refresh();
      case 0x50:
        this.#cdi.set(d);
        return;
      case 0x61: {
        const t = this.#tres.slice();
        t.set(d);
        const w = ((t[0]! << 8) | t[1]!) & 0x3f8;
        const h = ((t[2]! << 8) | t[3]!) & 0x3ff;
        if (w > this.#w || h > this.#h || w === 0 || h === 0)
          this.refuse('window-beyond-glass', `TRES ${w}x${h} for ${this.#w}x${this.#h} glass`);
        this.#tres = t;
        return;
      }
      case 0x90: {
        const t = this.#ptl.slice();
        t.set(d);
        const { x0, x1, y0, y1 } = ptlWindow(t);
        if (x1 >= this.#w || y1 >= this.#h || x1 < x0 || y1 < y0)
          this.refuse(
            'window-beyond-glass',
            `partial window x ${x0}-${x1}, y ${y0}-${y1} on ${this.#w}x${this.#h} glass`,
          );
        this.#ptl = t;
        this.#partialWindowSet = true;
        return;
      }
      case 0x91:
        this.#partial = true;
        return;
      case 0x92:
        this.#partial = false;
        return;
      default:
        // Settings that do not change the picture (PWR, BTST, DUSPI, TCON, ...), and the status poll.
        return;
    }
  }

  /** The window RAM writes and refreshes cover: the partial window inside PTIN, else TRES from the origin. */
  #window(): Window {
    if (this.#partial && this.#partialWindowSet) return ptlWindow(this.#ptl);
    const t = this.#tres;
    return { x0: 0, y0: 0, x1: (((t[0]! << 8) | t[1]!) & 0x3f8) - 1, y1: (((t[2]! << 8) | t[3]!) & 0x3ff) - 1 };
  }

  #writeRam(plane: 0 | 1, d: Buffer, name: string): void {
    const win = this.#window();
    const rowBytes = (win.x1 - win.x0 + 1) / 8;
    const capacity = rowBytes * (win.y1 - win.y0 + 1);
    const end = this.#ramAt + d.length;
    if (end > capacity)
      this.refuse(
        'ram-outside-window',
        `${name} ends at byte ${end} of the RAM write, its window (x ${win.x0}-${win.x1}, y ${win.y0}-${win.y1}) holds ${capacity}`,
      );
    const ram = this.#ram[plane];
    for (let i = this.#ramAt; i < end; i++) {
      const y = win.y0 + Math.floor(i / rowBytes);
      const x = win.x0 + (i % rowBytes) * 8;
      const byte = d[i - this.#ramAt]!;
      for (let b = 0; b < 8; b++) ram[y * this.#w + x + b] = (byte >> (7 - b)) & 1;
    }
    this.#ramAt = end;
  }

  #refresh(): void {
    if (!this.#powered)
      this.refuse(
        'refresh-before-power-on',
        'refresh (0x12) with the power off; send PON (0x04) and wait for BUSY first',
      );
    const psr = this.#psr[0]!;
    const ddx = this.#cdi[0]! & 0b11;
    const kw = (psr & 0x10) !== 0;
    const ud = (psr & 0x08) !== 0;
    const shl = (psr & 0x04) !== 0;
    const bwOne = (ddx & 0b01) === 0 ? this.#ink.black : this.#ink.white;
    const bwZero = bwOne === this.#ink.black ? this.#ink.white : this.#ink.black;
    const redBit = (ddx & 0b10) === 0 ? 1 : 0;
    const win = this.#window();
    const [old, neu] = this.#ram;
    for (let y = win.y0; y <= win.y1; y++) {
      for (let x = win.x0; x <= win.x1; x++) {
        const i = y * this.#w + x;
        let ink: number;
        if (kw) ink = neu[i] === 1 ? bwOne : bwZero;
        else if (this.#ink.red !== undefined && neu[i] === redBit) ink = this.#ink.red;
        else ink = old[i] === 1 ? bwOne : bwZero;
        // UD / SHL clear: the gate or source scan runs the other way, and the picture lands mirrored.
        const gy = ud ? y : this.#h - 1 - y;
        const gx = shl ? x : this.#w - 1 - x;
        this.#glass[gy * this.#w + gx] = ink;
      }
    }
    if (kw && (this.#cdi[0]! & 0b1000) !== 0) old.set(neu);
    this.holdBusy();
    this.refreshed();
  }

  protected onReset(): void {
    // A hardware reset: registers to their defaults, power off (BUSY and deep sleep end in the intake); the RAM is kept.
    this.#powered = false;
    this.#ramAt = 0;
    // Defaults: PSR 0x0f, CDI 0x11 0x07 (DDX 01), the resolution of the glass, no partial window.
    this.#psr = Uint8Array.of(0x0f);
    this.#cdi = Uint8Array.of(0x11, 0x07);
    this.#tres = Uint8Array.of(this.#w >> 8, this.#w & 0xff, this.#h >> 8, this.#h & 0xff);
    this.#ptl = new Uint8Array(9);
    this.#partialWindowSet = false;
    this.#partial = false;
  }
}
