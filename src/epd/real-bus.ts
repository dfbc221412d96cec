import { accessSync, constants, statSync } from 'node:fs';
import type { BusyWait, EpdBus, ResetPulse } from './bus.js';
import { busyTimeout, gpioLineError, spiOpenError } from './bus-errors.js';
import { BIAS_FLAG, loadBusLibrary, openChip, type GpiodLib, type GpiodLine } from './gpio-chip.js';
import type { PinMap } from './pins.js';
import { systemClock, type Clock } from '../time/clock.js';

/**
 * The real bus: SPI through the spidev device (mode 0, the vendor's clock) and GPIO through the character device
 * (libgpiod). Both libraries are optionalDependencies, imported here only when a panel is really attached, so that an
 * install without them (no compiler, not a Pi) runs every other publisher. Every failure to open names the fix
 * (bus-errors.ts).
 */

/** spidev's default buffer size (/sys/module/spidev/parameters/bufsiz): a larger write is sent in pieces of it. */
const SPI_CHUNK = 4096;
/** How often BUSY is read while waiting (the vendors poll every 5 to 100 ms). */
const POLL_MS = 10;

export interface RealBusOptions {
  /** The SPI device, e.g. /dev/spidev0.0. */
  spiDevice: string;
  /** The SPI clock, Hz (pins.ts SPI_HZ: the vendor's). */
  spiHz: number;
  /** The GPIO chip: its label or /dev path; default the chip whose label is one of HEADER_CHIP_LABELS. */
  gpioChip?: string;
  pins: PinMap;
  /** BUSY's bias and RST's level before the first reset (pins.ts LINE_SETUP: the vendor's). */
  lines: { busyBias: 'pull-down' | 'pull-up'; rstIdle: 0 | 1 };
  /** For BUSY polls and delays. */
  clock?: Clock;
}

/** What the bus needs of spi-device (its types are not published). */
interface SpiDeviceLib {
  openSync(bus: number, device: number, options: Record<string, unknown>): SpiDeviceHandle;
}
interface SpiDeviceHandle {
  transfer(
    message: Array<{ sendBuffer: Buffer; byteLength: number; speedHz: number }>,
    cb: (err: Error | null) => void,
  ): void;
  closeSync(): void;
}
/** /dev/spidevB.D → [B, D]; anything else is not a spidev node. */
function spiNumbers(device: string): [number, number] | null {
  const m = /spidev(\d+)\.(\d+)$/.exec(device);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** Checks the SPI device before any library is loaded: the commonest failures (SPI off, groups) need none. */
export function checkSpiDevice(device: string): [number, number] {
  try {
    statSync(device);
    accessSync(device, constants.R_OK | constants.W_OK);
  } catch (err) {
    throw spiOpenError(device, err);
  }
  const nums = spiNumbers(device);
  if (nums === null) throw spiOpenError(device, Object.assign(new Error('not a spidev device'), { code: 'ENOTTY' }));
  return nums;
}

/** Opens the SPI device and the GPIO lines; on any failure what was opened is released again. */
export async function openRealBus(o: RealBusOptions): Promise<EpdBus> {
  const [busNo, devNo] = checkSpiDevice(o.spiDevice);
  const gpiod = await loadBusLibrary<GpiodLib>('node-libgpiod');
  const spiLib = await loadBusLibrary<SpiDeviceLib>('spi-device');
  const chip = openChip(gpiod, o.gpioChip);
  const taken: GpiodLine[] = [];
  const take = (role: keyof PinMap, output: boolean, value: 0 | 1 = 0): GpiodLine | null => {
    const pin = o.pins[role];
    if (pin === null) return null;
    try {
      const line = new gpiod.Line(chip, pin);
      if (output) line.requestOutputMode('outfit-display', value);
      else line.requestInputModeFlags('outfit-display', BIAS_FLAG[o.lines.busyBias]);
      taken.push(line);
      return line;
    } catch (err) {
      throw gpioLineError(role, pin, err);
    }
  };
  try {
    const lines = {
      rst: take('rst', true, o.lines.rstIdle)!,
      dc: take('dc', true, 0)!,
      busy: take('busy', false)!,
      // The HAT's power switch on, as epdconfig's module_init does first.
      pwr: take('pwr', true, 1),
      // A GPIO chip select idles high (deselected), as inky_e673.py sets it.
      cs: take('cs', true, 1),
    };
    let spi: SpiDeviceHandle;
    try {
      // With CS as a GPIO the SPI driver must not drive CE0 (Pimoroni's dtoverlay=spi0-0cs frees it).
      spi = spiLib.openSync(busNo, devNo, {
        mode: 0,
        maxSpeedHz: o.spiHz,
        ...(o.pins.cs !== null && { noChipSelect: true }),
      });
    } catch (err) {
      throw spiOpenError(o.spiDevice, err);
    }
    return new RealBus({ spi, lines, pins: o.pins, hz: o.spiHz, clock: o.clock ?? systemClock });
  } catch (err) {
    for (const l of taken) l.release();
    throw err;
  }
}

interface RealBusParts {
  spi: SpiDeviceHandle;
  lines: { rst: GpiodLine; dc: GpiodLine; busy: GpiodLine; pwr: GpiodLine | null; cs: GpiodLine | null };
  pins: PinMap;
  hz: number;
  clock: Clock;
}

class RealBus implements EpdBus {
  readonly #p: RealBusParts;
  #closed = false;

  constructor(parts: RealBusParts) {
    this.#p = parts;
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.#p.clock.setTimeout(resolve, ms));
  }

  async reset(pulse: ResetPulse): Promise<void> {
    const { rst } = this.#p.lines;
    rst.setValue(1);
    await this.#sleep(pulse.highMs);
    rst.setValue(0);
    await this.#sleep(pulse.lowMs);
    rst.setValue(1);
    await this.#sleep(pulse.afterMs);
  }

  async #write(bytes: Uint8Array): Promise<void> {
    const { cs } = this.#p.lines;
    cs?.setValue(0);
    try {
      for (let at = 0; at < bytes.length; at += SPI_CHUNK) {
        const piece = Buffer.from(bytes.subarray(at, at + SPI_CHUNK));
        await new Promise<void>((resolve, reject) => {
          this.#p.spi.transfer([{ sendBuffer: piece, byteLength: piece.length, speedHz: this.#p.hz }], (err) =>
            err ? reject(err) : resolve(),
          );
        });
      }
    } finally {
      cs?.setValue(1);
    }
  }

  async command(cmd: number, data?: Uint8Array): Promise<void> {
    this.#p.lines.dc.setValue(0);
    await this.#write(Uint8Array.of(cmd));
    if (data === undefined || data.length === 0) return;
    this.#p.lines.dc.setValue(1);
    await this.#write(data);
  }

  async waitIdle(wait: BusyWait): Promise<void> {
    const busyLevel = wait.busyWhen === 'high' ? 1 : 0;
    const start = this.#p.clock.monotonic();
    for (;;) {
      // The UC8179 answers BUSY only after a status read (0x71), which the vendor sends before each poll.
      if (wait.pollCommand !== undefined) await this.command(wait.pollCommand);
      if (this.#p.lines.busy.getValue() !== busyLevel) return;
      if (this.#p.clock.monotonic() - start >= wait.timeoutMs)
        throw busyTimeout(this.#p.pins.busy, wait.busyWhen, wait.timeoutMs);
      await this.#sleep(POLL_MS);
    }
  }

  delay(ms: number): Promise<void> {
    return this.#sleep(ms);
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    const { rst, dc, busy, pwr, cs } = this.#p.lines;
    // As epdconfig's module_exit: RST and DC low, the HAT's 5 V off ("0 power consumption").
    rst.setValue(0);
    dc.setValue(0);
    pwr?.setValue(0);
    try {
      this.#p.spi.closeSync();
    } finally {
      for (const l of [rst, dc, busy, pwr, cs]) l?.release();
    }
    return Promise.resolve();
  }
}
