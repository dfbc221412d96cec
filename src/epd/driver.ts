import type { EpdBus } from './bus.js';

/**
 * A driver for one controller family: it turns a frame into the command stream the vendor's own driver sends,
 * over any EpdBus. One driver instance owns its bus; calls are never concurrent (the panel publisher queues them).
 */

/** A frame as the panel shows it: palette indices of the panel profile (display/panels/<id>.json), one byte a pixel,
 * rows of the profile's width x height (landscape as the profile is written: the mount rotation already undone). */
export interface PanelImage {
  width: number;
  height: number;
  indices: Uint8Array;
}

export interface EpdDriver {
  /** The panel profile id (display/panels/<id>.json). */
  readonly panelId: string;
  /** init → write the frame → refresh → deep sleep: what the vendor's init(), display(getbuffer(img)), sleep() send. */
  showFull(image: PanelImage): Promise<void>;
  /** The panel cleared to white and put to sleep (the vendors advise storing a panel so). */
  clear(): Promise<void>;
  /** Deep sleep (idempotent); after it the next call starts with a reset and init. */
  sleep(): Promise<void>;
  /** Sleep, then release the bus (power off on stop). */
  close(): Promise<void>;
}

export interface EpdDriverOptions {
  bus: EpdBus;
  /** BUSY wait timeout, ms; default the controller's (a few times its slowest refresh). */
  busyTimeoutMs?: number;
}
