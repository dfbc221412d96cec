import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './schema.js';

/**
 * The folders the daemon writes (`output_dir`, `state_dir`) checked before anything starts: one that exists as a
 * file, or whose path runs through a file, would stop the daemon at its first mkdir (EEXIST, ENOTDIR) after its
 * other parts had started. Whether the daemon's user may write there is not checked: `check-config` may run as
 * another user (the daemon reports E_STATE_WRITE and E_OUTPUT_WRITE when it cannot).
 */

const FOLDER_KEYS = ['output_dir', 'state_dir'] as const;

/** What stands at `p`: a folder, something else, nothing, or unknown (no permission to look). */
async function kindAt(p: string): Promise<'folder' | 'file' | 'other' | 'none' | 'unknown'> {
  try {
    const s = await stat(p);
    return s.isDirectory() ? 'folder' : s.isFile() ? 'file' : 'other';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // ENOTDIR: a file further up; the walk up finds it.
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'none' : 'unknown';
  }
}

/** `output_dir: "/srv/frames" is a file, not a folder: …`, or null when the folder is there or can be created. */
async function folderProblem(key: string, dir: string): Promise<string | null> {
  let p = dir;
  for (;;) {
    const kind = await kindAt(p);
    if (kind === 'folder' || kind === 'unknown') return null;
    if (kind !== 'none') {
      const what = kind === 'file' ? 'a file' : 'not a folder (a device, socket or pipe)';
      return p === dir
        ? `${key}: "${dir}" is ${what}, not a folder: move it away, or set ${key} to a folder (the daemon creates a missing one)`
        : `${key}: "${dir}" cannot be created: "${p}" on its path is ${what}; set ${key} to a path under a folder`;
    }
    const up = path.dirname(p);
    if (up === p) return null;
    p = up;
  }
}

/** Every problem of the folders the config names (absolute paths, as the loader resolved them). */
export async function folderProblems(config: Pick<Config, (typeof FOLDER_KEYS)[number]>): Promise<string[]> {
  const found = await Promise.all(FOLDER_KEYS.map((k) => folderProblem(k, config[k])));
  return found.filter((p): p is string => p !== null);
}
