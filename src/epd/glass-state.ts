import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../store/atomic-write.js';

/**
 * What an attached panel's glass shows, kept across restarts (`<state_dir>/panel/<id>.json`: the panel, the frame's
 * hash and when it was put there), so that a restart does not refresh the glass with the frame it already shows.
 */

export interface GlassState {
  /** The sha256 of the frame on the glass. */
  hash: string;
  /** When it was put there, ms since the epoch. */
  atMs: number;
}

/** The glass `file` says `panel` shows, or null: no file, not this panel's, unreadable. */
export async function readGlassState(file: string, panel: string): Promise<GlassState | null> {
  try {
    const v = JSON.parse(await readFile(file, 'utf8')) as { panel?: unknown; hash?: unknown; at?: unknown };
    const atMs = typeof v.at === 'string' ? Date.parse(v.at) : NaN;
    // Another panel since (the config changed): its glass says nothing of this one's.
    if (v.panel !== panel || typeof v.hash !== 'string' || !Number.isFinite(atMs)) return null;
    return { hash: v.hash, atMs };
  } catch {
    return null;
  }
}

/** Keeps what `panel` now shows (its folder made if missing); rejects when it cannot be written. */
export async function writeGlassState(file: string, panel: string, hash: string, at: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify({ panel, hash, at })}\n`);
}
