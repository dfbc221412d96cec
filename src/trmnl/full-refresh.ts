import type { PanelProfile } from '../panels/panels.js';

/**
 * When a device's next image must be drawn with a full refresh (`maximum_compatibility: true` in /api/display).
 *
 * A partial refresh leaves ghosts of what it changed; the panel profile says after how many updates its maker
 * clears them (`refresh.full_every`). And a frame whose marks change (a stale badge, a withdrawn outfit, a service
 * band) must not leave the old ones behind: it gets a full refresh at once. A panel that refreshes fully anyway
 * (4 greys and more) is never told. Per device, in memory: after a restart the first new image is a full one.
 */

export interface ShownImage {
  filename: string;
  /** TrmnlImage.look of that image. */
  look: string;
}

interface DeviceMemory {
  filename: string;
  look: string;
  /** Images drawn by partial refresh since the last full one. */
  partials: number;
}

export class FullRefreshPlanner {
  readonly #devices = new Map<string, DeviceMemory>();

  /**
   * Whether the device must show `next` with a full refresh. Counted as shown: the device downloads a new name
   * at this wake, and a known one it already shows needs no refresh at all.
   */
  plan(device: string, panel: Pick<PanelProfile, 'refresh'>, next: ShownImage): boolean {
    const prev = this.#devices.get(device);
    if (prev !== undefined && prev.filename === next.filename) return false;
    const partialPanel = panel.refresh.partial;
    const due =
      partialPanel && (prev === undefined || prev.look !== next.look || prev.partials + 1 >= panel.refresh.full_every);
    this.#devices.set(device, {
      filename: next.filename,
      look: next.look,
      partials: due || !partialPanel ? 0 : (prev?.partials ?? 0) + 1,
    });
    return due;
  }
}
