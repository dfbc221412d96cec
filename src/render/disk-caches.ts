import type { Clock } from '../time/clock.js';
import { withGlyphDiskCache } from './glyph-disk-cache.js';
import { withIntlDiskCache } from './intl-disk-cache.js';

export interface DiskCachesOptions {
  /** Now, for the span of days the Intl cache keeps. */
  clock: Clock;
}

/**
 * Runs a process's drawing (`render`, `once`, the daemon's render process) with what earlier ones kept on disk: the
 * glyph bitmaps (glyph-disk-cache.ts) and Intl's words and zone offsets (intl-disk-cache.ts); then keeps what it
 * made for the next.
 */
export function withDiskCaches<T>(opts: DiskCachesOptions, work: () => Promise<T>): Promise<T> {
  return withIntlDiskCache(opts, () => withGlyphDiskCache(work));
}
