import type { PanelProfile } from '../../src/panels/panels.js';
import { ProtocolModel, type CommandTable } from './protocol-model.js';

/**
 * What the colour controllers (the 7-colour ACeP of the Waveshare 7.3" F, the Spectra 6 of the Inky Impression 7.3")
 * share, as a model fed the capture one operation at a time: reset, power on/off (PON 0x04, POF 0x02), the resolution
 * (TRES 0x61), one RAM of 4 bits a pixel written by DTM 0x10 (two pixels a byte, the left one in the high nibble,
 * rows of the resolution's width), refresh (DRF 0x12), deep sleep (DSLP 0x07 with check code 0xA5) and BUSY. The
 * register writes that only tune the waveform (boosters, PLL, VCOM, timing) are taken with their lengths checked. The
 * glass is palette indices of the panel profile: a RAM value is the colour whose plane value it is.
 * Refused, with E_PANEL_PROTOCOL and a stable `reason`, is what the chip would not take (the checks every model
 * makes are protocol-model.ts's).
 */

export const COLOUR_PROTOCOL_REASONS = [
  /** Data bytes (DC high) before any command since the reset. */
  'data-before-command',
  /** Data bytes with no command taking them (to a command that takes none, or more than it takes). */
  'data-without-command',
  /** Fewer data bytes than the command takes. */
  'incomplete-data',
  /** A command the model does not know. */
  'unknown-command',
  /** A command while BUSY: after power on/off or a refresh, before the wait on BUSY. */
  'command-while-busy',
  /** A command before the first reset pulse (the vendors always reset first; the chip's state is unknown until). */
  'command-before-reset',
  /** DRF (0x12) with the power off (no PON 0x04 since the reset or the last POF 0x02). */
  'refresh-before-power-on',
  /** More RAM bytes than the resolution (TRES) holds. */
  'ram-outside-window',
  /** A resolution other than the glass's. */
  'window-beyond-glass',
  /** A RAM value that is no colour of this glass (4 on Spectra 6, 7 on ACeP), found by the refresh. */
  'not-a-colour',
  /** DSLP without its check code 0xA5. */
  'bad-check-code',
  /** A command after deep sleep, before a reset pulse. */
  'command-after-deep-sleep',
] as const;
export type ColourProtocolReason = (typeof COLOUR_PROTOCOL_REASONS)[number];

export interface ColourControllerSpec {
  /** The controller's name, for messages. */
  name: string;
  /** Its commands beyond those both controllers take (SHARED_COMMANDS), and any it names otherwise. */
  commands: CommandTable;
}

/**
 * The commands both controllers take alike, with the data lengths their vendors' drivers send (epd7in3f.py,
 * inky_e673.py); acep7.ts and spectra6.ts add their own.
 */
const SHARED_COMMANDS: CommandTable = new Map([
  [0x00, { name: 'PSR', bytes: [2, 2] as const }],
  [0x01, { name: 'PWR', bytes: [1, 6] as const }],
  [0x02, { name: 'POF', bytes: [0, 1] as const }],
  [0x03, { name: 'POFS', bytes: [4, 4] as const }],
  [0x04, { name: 'PON', bytes: [0, 0] as const }],
  [0x05, { name: 'BTST1', bytes: [4, 4] as const }],
  [0x06, { name: 'BTST2', bytes: [4, 4] as const }],
  [0x07, { name: 'DSLP', bytes: [1, 1] as const }],
  [0x08, { name: 'BTST3', bytes: [4, 4] as const }],
  [0x10, { name: 'DTM', bytes: [0, Infinity] as const }],
  [0x12, { name: 'DRF', bytes: [0, 1] as const }],
  [0x30, { name: 'PLL', bytes: [1, 1] as const }],
  [0x50, { name: 'CDI', bytes: [1, 1] as const }],
  [0x60, { name: 'TCON', bytes: [2, 2] as const }],
  [0x61, { name: 'TRES', bytes: [4, 4] as const }],
  [0x82, { name: 'VDCS', bytes: [1, 1] as const }],
  [0xaa, { name: 'CMDH', bytes: [6, 6] as const }],
  [0xe3, { name: 'PWS', bytes: [1, 1] as const }],
]);

export interface ColourModelOptions {
  /** The panel the glass belongs to: its size, palette, and the RAM value of each colour (the plane's values). */
  panel: Pick<PanelProfile, 'id' | 'width' | 'height' | 'palette' | 'framebuffer'>;
  /** Called with the new glass after each refresh (the simulator's live view). */
  onRefresh?: (glass: Uint8Array) => void;
}

const PON = 0x04;
const POF = 0x02;
const DSLP = 0x07;
const DTM = 0x10;
const DRF = 0x12;
const TRES = 0x61;

export class ColourControllerModel extends ProtocolModel<ColourProtocolReason> {
  readonly #o: ColourModelOptions;
  readonly #w: number;
  readonly #h: number;
  /** Palette index of each RAM value, -1 for a value that is no colour. */
  readonly #colourOf = new Int16Array(16).fill(-1);
  /** The RAM, one 4-bit value a byte. */
  readonly #ram: Uint8Array;
  readonly #glass: Uint8Array;
  #powered = false;
  #tres: { w: number; h: number };
  /** Where the next frame byte goes (DTM starts at the RAM's first byte). */
  #ramAt = 0;

  constructor(spec: ColourControllerSpec, o: ColourModelOptions) {
    super({
      chip: spec.name,
      commands: new Map([...SHARED_COMMANDS, ...spec.commands]),
      ramCommands: [DTM],
      tooManyBytes: 'data-without-command',
      tooFewBytes: 'incomplete-data',
      resetFirst: true,
      onRefresh: o.onRefresh,
    });
    this.#o = o;
    this.#w = o.panel.width;
    this.#h = o.panel.height;
    const plane = o.panel.framebuffer.planes[0];
    if (plane === undefined || plane.bits_per_pixel !== 4)
      throw new Error(`${spec.name} model: panel ${o.panel.id} has no 4-bit plane`);
    plane.values.forEach((v, i) => (this.#colourOf[v] = i));
    const white = o.panel.palette.findIndex((e) => e.name === 'white');
    if (white < 0) throw new Error(`${spec.name} model: panel ${o.panel.id} has no white in its palette`);
    this.#ram = new Uint8Array(this.#w * this.#h).fill(plane.values[white]!);
    this.#glass = new Uint8Array(this.#w * this.#h).fill(white);
    this.#tres = { w: this.#w, h: this.#h };
  }

  /** The glass: palette indices of the profile, rows of its width (white before the first refresh). */
  glass(): Uint8Array {
    return this.#glass.slice();
  }

  /** True between PON and POF. */
  get powered(): boolean {
    return this.#powered;
  }

  protected moreRam(_cmd: number, data: Buffer): void {
    this.#writeRam(data, 'more frame data');
  }

  protected command(cmd: number, d: Buffer, name: string): void {
    switch (cmd) {
      case PON:
        this.#powered = true;
        this.holdBusy();
        return;
      case POF:
        this.#powered = false;
        this.holdBusy();
        return;
      case DSLP:
        if (d[0] !== 0xa5)
          this.refuse('bad-check-code', `${name} needs the check code 0xa5, got 0x${d[0]!.toString(16)}`);
        this.enterDeepSleep();
        return;
      case TRES: {
        const w = d.readUInt16BE(0);
        const h = d.readUInt16BE(2);
        if (w !== this.#w || h !== this.#h)
          this.refuse('window-beyond-glass', `${name} sets ${w}x${h}, the glass is ${this.#w}x${this.#h}`);
        this.#tres = { w, h };
        return;
      }
      case DTM:
        this.#ramAt = 0;
        return this.#writeRam(d, name);
      case DRF:
        return this.#refresh(name);
      default:
        return; // waveform tuning: taken, not modelled
    }
  }

  #writeRam(d: Buffer, name: string): void {
    const room = (this.#tres.w * this.#tres.h) / 2;
    const at = this.#ramAt;
    if (at + d.length > room)
      this.refuse(
        'ram-outside-window',
        `${name} ends at byte ${at + d.length}, the ${this.#tres.w}x${this.#tres.h} RAM holds ${room}`,
      );
    for (let i = 0; i < d.length; i++) {
      this.#ram[2 * (at + i)] = d[i]! >> 4;
      this.#ram[2 * (at + i) + 1] = d[i]! & 0x0f;
    }
    this.#ramAt = at + d.length;
  }

  #refresh(name: string): void {
    if (!this.#powered)
      this.refuse('refresh-before-power-on', `${name} with the power off; send PON (0x04) and wait for BUSY first`);
    const next = new Uint8Array(this.#glass.length);
    for (let i = 0; i < next.length; i++) {
      const c = this.#colourOf[this.#ram[i]!]!;
      if (c < 0) {
        const where = `(${i % this.#w}, ${Math.floor(i / this.#w)})`;
        this.refuse(
          'not-a-colour',
          `${name}: RAM value ${this.#ram[i]} at ${where} is no colour of ${this.#o.panel.id}`,
        );
      }
      next[i] = c;
    }
    this.#glass.set(next);
    this.holdBusy();
    this.refreshed();
  }

  protected onReset(): void {
    // A hardware reset: whatever the chip was doing ends (BUSY released; the vendors still wait on it after the
    // pulse, while the chip loads its settings), power off, deep sleep left, the resolution back to the glass's; the
    // RAM is kept.
    this.#powered = false;
    this.#tres = { w: this.#w, h: this.#h };
  }
}
