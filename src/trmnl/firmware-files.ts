import { createHash } from 'node:crypto';
import { open, readdir, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { WarningCode } from '../shared/codes.js';

/**
 * The owner's firmware folder: `<version>.bin` files (`1.7.3.bin`), the version being the name without `.bin`.
 * The folder is listed at each offer decision (a readdir: cheap); a file is hashed once per inode, size and mtime,
 * not per request (a Pi, files of ~1.5 MB).
 */

/** Warning: a firmware file (or the folder) that cannot be used: unreadable, or a name that is no version. */
export const W_FIRMWARE_FILE = 'W_FIRMWARE_FILE' satisfies WarningCode;

/** What a version may look like: it goes into a URL and a file name, so no `/`, no spaces, nothing to escape. */
export const FIRMWARE_VERSION = /^[0-9A-Za-z._-]{1,40}$/;

/**
 * Semver-ish order of dot-separated parts: each by its leading number (a part without one, a word, sorts first),
 * then a part with a suffix before the same number without one (`3-rc1` < `3`, as a pre-release), suffixes as text;
 * a version with more parts after an equal start is the newer (1.7 < 1.7.1).
 */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    const c = comparePart(x, y);
    if (c !== 0) return c;
  }
  return 0;
}

function comparePart(x: string, y: string): number {
  const [, nx, sx = ''] = /^(\d*)(.*)$/.exec(x) ?? [];
  const [, ny, sy = ''] = /^(\d*)(.*)$/.exec(y) ?? [];
  const a = nx ? Number(nx) : -1;
  const b = ny ? Number(ny) : -1;
  if (a !== b) return a < b ? -1 : 1;
  if (sx === sy) return 0;
  if (sx === '' || sy === '') return sx === '' ? 1 : -1;
  return sx < sy ? -1 : 1;
}

export interface FirmwareFile {
  version: string;
  path: string;
}

/** An open firmware file, ready to be streamed: its size and digests are those of the very file opened. */
export interface OpenFirmware {
  handle: FileHandle;
  size: number;
  sha256Hex: string;
  sha256Base64: string;
}

interface Digest {
  key: string;
  hex: string;
  base64: string;
}

export interface FirmwareFolderOptions {
  dir: string;
  logger?: Logger;
}

export class FirmwareFolder {
  readonly #dir: string;
  readonly #log: Logger | undefined;
  /** Names already warned of: a bad name is said once, not at every wake. */
  readonly #warned = new Set<string>();
  readonly #digests = new Map<string, Digest>();

  constructor(opts: FirmwareFolderOptions) {
    this.#dir = opts.dir;
    this.#log = opts.logger;
  }

  #warn(name: string, text: string, extra: Record<string, unknown> = {}): void {
    if (this.#warned.has(name)) return;
    this.#warned.add(name);
    this.#log?.warn({ code: W_FIRMWARE_FILE, file: path.join(this.#dir, name), ...extra }, text);
  }

  /** The `<version>.bin` files of the folder, newest first; an unreadable folder has none (said once). */
  async list(): Promise<FirmwareFile[]> {
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch (err) {
      this.#warn('', 'the firmware folder cannot be read: no firmware is offered', { reason: (err as NodeJS.ErrnoException).code ?? String(err) });
      return [];
    }
    this.#warned.delete('');
    const files: FirmwareFile[] = [];
    for (const name of names) {
      // Dot files are editors' and copy tools' half-written files, not the owner's.
      if (!name.endsWith('.bin') || name.startsWith('.')) continue;
      const version = name.slice(0, -'.bin'.length);
      if (!FIRMWARE_VERSION.test(version)) {
        this.#warn(name, 'a firmware file whose name is no version (<version>.bin, letters, digits, . _ -): not offered');
        continue;
      }
      files.push({ version, path: path.join(this.#dir, name) });
    }
    return files.sort((a, b) => compareVersions(b.version, a.version));
  }

  async newest(): Promise<FirmwareFile | null> {
    return (await this.list())[0] ?? null;
  }

  /**
   * Opens `<version>.bin` for serving, or null when there is none (or it is no regular file). The caller closes the
   * handle (streaming it closes it). The digest is of the opened file: a file replaced meanwhile is hashed anew.
   */
  async open(version: string): Promise<OpenFirmware | null> {
    if (!FIRMWARE_VERSION.test(version)) return null;
    const file = path.join(this.#dir, `${version}.bin`);
    let handle: FileHandle;
    try {
      handle = await open(file, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.#warn(`${version}.bin`, 'a firmware file cannot be opened', { reason: (err as NodeJS.ErrnoException).code ?? String(err) });
      return null;
    }
    try {
      const st = await handle.stat();
      if (!st.isFile() || st.size === 0) {
        if (st.size === 0) this.#warn(`${version}.bin`, 'an empty firmware file: not served');
        await handle.close();
        return null;
      }
      const key = `${st.ino}:${st.size}:${st.mtimeMs}`;
      let d = this.#digests.get(file);
      if (d?.key !== key) {
        const hash = createHash('sha256');
        // Read through the handle, not the path: what is hashed is what is then served.
        for await (const chunk of handle.createReadStream({ start: 0, autoClose: false })) hash.update(chunk as Buffer);
        const digest = hash.digest();
        d = { key, hex: digest.toString('hex'), base64: digest.toString('base64') };
        this.#digests.set(file, d);
      }
      return { handle, size: st.size, sha256Hex: d.hex, sha256Base64: d.base64 };
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw err;
    }
  }
}
