import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { AttachedConfig } from '../config/schema.js';
import type { Clock } from '../time/clock.js';
import type { EpdBus } from './bus.js';
import { CaptureBus } from './capture-bus.js';
import type { EpdDriver } from './driver.js';
import { loadDriver, type DriverFactory } from './drivers/index.js';
import { defaultBoard, LINE_SETUP, resolvePins, SPI_HZ, type Board, type PinMap } from './pins.js';

/**
 * An attached panel's driver over its bus: the capture file when `attached.capture` is set (appended to, one JSON
 * line an operation), else SPI and GPIO (real-bus.ts, whose libraries load only then).
 */

export interface AttachedPanel {
  /** The panel profile id. */
  panel: string;
  attached: AttachedConfig;
}

/** The board, pins and bus a panel's config resolves to (for `panel info` and the logs). */
export interface ResolvedAttachment {
  board: Board;
  pins: PinMap;
  spiHz: number;
  bus: { kind: 'capture'; file: string } | { kind: 'spi'; device: string; gpioChip: string | null };
}

export function resolveAttachment(p: AttachedPanel): ResolvedAttachment {
  const board = p.attached.board ?? defaultBoard(p.panel);
  return {
    board,
    pins: resolvePins(board, p.attached.pins),
    spiHz: SPI_HZ[board],
    bus:
      p.attached.capture !== undefined
        ? { kind: 'capture', file: p.attached.capture }
        : { kind: 'spi', device: p.attached.spi_device, gpioChip: p.attached.gpio_chip ?? null },
  };
}

/** A capture bus appending to `file` (made with its folder if missing); closing the bus closes the file. */
function fileCaptureBus(file: string): EpdBus {
  mkdirSync(path.dirname(file), { recursive: true });
  let fd: number | null = openSync(file, 'a');
  const bus = new CaptureBus({ write: (line) => fd !== null && writeSync(fd, `${line}\n`) });
  const close = bus.close.bind(bus);
  bus.close = async () => {
    if (fd !== null) closeSync(fd);
    fd = null;
    await close();
  };
  return bus;
}

export interface OpenDriverOptions {
  clock: Clock;
  /** In place of the panel's own driver (tests of the publisher before a family's driver exists). */
  factory?: DriverFactory;
}

export async function openAttachedDriver(p: AttachedPanel, o: OpenDriverOptions): Promise<EpdDriver> {
  const r = resolveAttachment(p);
  const factory = o.factory ?? (await loadDriver(p.panel));
  let bus: EpdBus;
  if (r.bus.kind === 'capture') {
    bus = fileCaptureBus(r.bus.file);
  } else {
    const { openRealBus } = await import('./real-bus.js');
    bus = await openRealBus({
      spiDevice: r.bus.device,
      spiHz: r.spiHz,
      pins: r.pins,
      lines: LINE_SETUP[r.board],
      clock: o.clock,
      ...(r.bus.gpioChip !== null && { gpioChip: r.bus.gpioChip }),
    });
  }
  return factory({
    bus,
    ...(p.attached.busy_timeout_s !== undefined && { busyTimeoutMs: p.attached.busy_timeout_s * 1000 }),
  });
}
