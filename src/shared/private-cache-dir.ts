import { mkdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * `$TMPDIR/outfit-display-<name>-<uid>`: a cache folder of this user's own, created 0700, or null when it cannot be
 * one (not a folder, another owner, writable by group or others, no temporary folder at all). What a cache holds is
 * read back as trusted (compiled code, glyph bitmaps), so that no other user of a shared /tmp can plant it there.
 */
export function privateCacheDir(name: string): string | null {
  const uid = process.getuid?.() ?? 0;
  const dir = path.join(tmpdir(), `outfit-display-${name}-${uid}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    if (!st.isDirectory() || (process.getuid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) return null;
    return dir;
  } catch {
    return null;
  }
}

/**
 * Replaces a cache file in such a folder whole (a temporary file renamed over it), 0600; a failure leaves the old
 * file or none, and only costs the next process the time the cache would have saved. Not fsync'd: after a power cut
 * a cache may be lost or torn, and its reader takes a torn one for none.
 */
export function replaceCacheFile(file: string, data: string | Uint8Array): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      // Never written.
    }
  }
}
