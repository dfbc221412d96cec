import type { StoredRecommendation } from '../api/schemas.js';
import type { DisplayConfig } from '../config/schema.js';
import type { Frame, FrameStatus } from '../render/frame.js';
import type { DisplayUpdate } from '../publish/publisher.js';

/**
 * The newest frame of every display as the HTTP server serves it, with the time that frame first appeared
 * (its Last-Modified: a frame published again unchanged keeps its first time, so caches stay valid).
 */

export interface FrameEntry {
  display: DisplayConfig;
  rec: StoredRecommendation | null;
  status: FrameStatus;
  frame: Frame;
  nextUpdateAt: Date | null;
  /** When a frame with these bytes first appeared (Last-Modified). */
  since: Date;
  /** When it was last published. */
  publishedAt: Date;
}

export class FrameStore {
  readonly #entries = new Map<string, FrameEntry>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  record(update: DisplayUpdate): FrameEntry {
    const at = new Date(this.#now());
    const prev = this.#entries.get(update.display.id);
    const entry: FrameEntry = {
      display: update.display,
      rec: update.rec,
      status: update.status,
      frame: update.frame,
      nextUpdateAt: update.nextUpdateAt,
      since: prev && prev.frame.hash === update.frame.hash ? prev.since : at,
      publishedAt: at,
    };
    this.#entries.set(update.display.id, entry);
    return entry;
  }

  get(displayId: string): FrameEntry | null {
    return this.#entries.get(displayId) ?? null;
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** A strong ETag from a content hash (the first 32 hex digits are plenty to tell frames apart). */
export function etagOf(hash: string, variant = ''): string {
  return `"${hash.slice(0, 32)}${variant}"`;
}
