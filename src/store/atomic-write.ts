import { randomBytes } from 'node:crypto';
import { open, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

export interface AtomicWriteOptions {
  /** Permissions of a new file (default 0644; the ledger uses 0600). */
  mode?: number;
  /**
   * The temp file's path. Default: a unique name beside the target, so concurrent writers never share one.
   * The ledger passes a fixed `<file>.tmp`, which it inspects after a power cut.
   */
  tmpFile?: string;
}

/**
 * Writes a file so that after a crash or power loss at any point the path holds either the old or the new content,
 * whole, and a reader never sees half of it: a temp file in the same folder, fsync, rename over the target, fsync
 * of the folder so the rename itself is durable.
 */
export async function writeFileAtomic(
  file: string,
  data: Buffer | string,
  opts: AtomicWriteOptions = {},
): Promise<void> {
  const dir = path.dirname(file);
  const tmp = opts.tmpFile ?? path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  let renamed = false;
  try {
    const fh = await open(tmp, 'w', opts.mode ?? 0o644);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
    renamed = true;
    await fsyncDir(dir);
  } finally {
    if (!renamed) await unlink(tmp).catch(() => undefined);
  }
}

async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } catch (err) {
    // Some file systems (and Windows) refuse fsync on a directory; the rename has happened either way.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EISDIR') throw err;
  } finally {
    await fh.close();
  }
}

/** The temp files writeFileAtomic names by default: `.<name>.<12 hex digits>.tmp`. */
const TEMP_NAME = /^\..+\.[0-9a-f]{12}\.tmp$/;

/**
 * Removes the temp files a writer killed mid-write (kill -9, power cut) left in `dir`: they are never renamed and
 * nobody else removes them. Only those older than `minAgeMs`, so that a write in progress is left alone.
 */
/**
 * Removes the temp files left by earlier writes of `file` (`.<name>.<12 hex>.tmp` beside it): a write whose rename
 * failed on a disk that turned read-only could not remove its temp file then. For a writer that writes `file` one
 * write at a time, after one of them succeeded.
 */
export async function removeTempFilesOf(file: string): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `.${path.basename(file)}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (name.startsWith(prefix) && TEMP_NAME.test(name)) await unlink(path.join(dir, name)).catch(() => undefined);
  }
}

export async function removeStaleTempFiles(dir: string, minAgeMs = 60_000): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names.filter((n) => TEMP_NAME.test(n))) {
    const file = path.join(dir, name);
    const mtime = await stat(file).then(
      (s) => s.mtimeMs,
      () => now,
    );
    if (now - mtime >= minAgeMs) await unlink(file).catch(() => undefined);
  }
}
