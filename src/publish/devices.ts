import type { DeviceBook } from '../state/device-book.js';

/**
 * The devices that show the displays, as one registry: the publisher that serves a kind of device (HTTP serves TRMNL
 * devices) adds it, and a publisher that announces devices (MQTT, to Home Assistant) asks here, never the other
 * publisher. A kind that is not configured is simply not added.
 */

export interface DeviceKind {
  /** 'trmnl', …: said in logs. */
  readonly kind: string;
  /** The MACs of the configured devices that show a display. */
  macs(displayId: string): readonly string[];
  /** Opens pairing for the display's devices (a button press); absent: the kind does not pair. */
  pair?(displayId: string): void;
}

export class DeviceRegistry {
  readonly #kinds: DeviceKind[] = [];
  #book: DeviceBook | null = null;

  add(kind: DeviceKind): void {
    this.#kinds.push(kind);
  }

  /** What each device that pulls a frame said at its last wake: kept by the publisher that serves them. */
  get book(): DeviceBook | null {
    return this.#book;
  }

  set book(book: DeviceBook | null) {
    this.#book = book;
  }

  /** Whether a configured device shows the display. */
  has(displayId: string): boolean {
    return this.macs(displayId).length > 0;
  }

  /** The MACs of every configured device that shows the display. */
  macs(displayId: string): readonly string[] {
    return this.#kinds.flatMap((k) => k.macs(displayId));
  }

  /** Opens pairing of the display's devices, where their kind pairs. */
  pair(displayId: string): void {
    for (const k of this.#kinds) if (k.macs(displayId).length > 0) k.pair?.(displayId);
  }
}
