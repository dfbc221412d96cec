import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readdir, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { WarningCode } from '../shared/codes.js';

/**
 * The owner's firmware folder: `<version>.bin` files (`1.7.3.bin`), the version being the name without `.bin`.
 * The folder is listed at each offer decision (a readdir and an lstat a file: cheap); a file is hashed once per
 * inode, size and mtime, not per request (a Pi, files of ~1.5 MB).
 *
 * Only the folder's own regular files are offered and served: a symbolic link (wherever it points), a FIFO, a device
 * or a folder is not, nor a file over FIRMWARE_MAX_BYTES. A file is opened without following a link and without
 * waiting on a FIFO, then judged by what the open handle is, and served from that handle: a link or a large file
 * swapped in after the offer is refused at the download, never read.
 */

/** Warning: a firmware file (or the folder) that cannot be used: unreadable, empty, or a name that is no version. */
export const W_FIRMWARE_FILE = 'W_FIRMWARE_FILE' satisfies WarningCode;
/** Warning: a firmware file that is a link, no regular file, or too large to be firmware: neither offered nor served. */
export const W_FIRMWARE_REFUSED = 'W_FIRMWARE_REFUSED' satisfies WarningCode;

/**
 * The largest firmware file offered or served. An OTA image must fit one of the two app slots its board's flash
 * holds, so it is under half that flash: the largest TRMNL board has 16 MB (the X, an ESP32-S3 N16R8); the OG's slot
 * is 1.875 MiB (an ESP32-C3 with 4 MB, the firmware's min_spiffs.csv). A larger file is no TRMNL firmware.
 */
export const FIRMWARE_MAX_BYTES = 8 * 1024 * 1024;

/** Opens for reading without following a link in the last step, and without waiting for a FIFO's writer. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

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

/** Why a file of the folder is not offered or served (W_FIRMWARE_REFUSED). */
type Refusal = 'a symbolic link' | 'not a regular file' | 'over the size bound';

/** What a file's lstat or fstat says of it: fit to be firmware, or why not. */
function judge(st: { isSymbolicLink(): boolean; isFile(): boolean; size: number }): Refusal | 'empty' | null {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (!st.isFile()) return 'not a regular file';
  if (st.size > FIRMWARE_MAX_BYTES) return 'over the size bound';
  return st.size === 0 ? 'empty' : null;
}

export class FirmwareFolder {
  readonly #dir: string;
  readonly #log: Logger | undefined;
  /** What was said of each name (a warning a name and cause, not one a wake); forgotten when the file is fine again. */
  readonly #warned = new Map<string, Set<string>>();
  readonly #digests = new Map<string, Digest>();

  constructor(opts: FirmwareFolderOptions) {
    this.#dir = opts.dir;
    this.#log = opts.logger;
  }

  #once(name: string, cause: string): boolean {
    const said = this.#warned.get(name) ?? new Set<string>();
    if (said.has(cause)) return false;
    said.add(cause);
    this.#warned.set(name, said);
    return true;
  }

  #warn(name: string, text: string, extra: Record<string, unknown> = {}): void {
    if (!this.#once(name, text)) return;
    this.#log?.warn({ code: W_FIRMWARE_FILE, file: path.join(this.#dir, name), ...extra }, text);
  }

  #refuse(name: string, why: Refusal, size: number): void {
    if (!this.#once(name, why)) return;
    this.#log?.warn(
      {
        code: W_FIRMWARE_REFUSED,
        file: path.join(this.#dir, name),
        reason: why,
        ...(why === 'over the size bound' && { bytes: size, max_bytes: FIRMWARE_MAX_BYTES }),
      },
      `a firmware file that is ${why === 'over the size bound' ? 'larger than any firmware' : why}: neither offered nor served`,
    );
  }

  /** Whether `name` may be offered, from its lstat; says once why not. */
  #fit(name: string, st: { isSymbolicLink(): boolean; isFile(): boolean; size: number }): boolean {
    const verdict = judge(st);
    if (verdict === null) {
      this.#warned.delete(name);
      return true;
    }
    if (verdict === 'empty') this.#warn(name, 'an empty firmware file: not offered');
    else this.#refuse(name, verdict, st.size);
    return false;
  }

  /** The `<version>.bin` regular files of the folder, newest first; an unreadable folder has none (said once). */
  async list(): Promise<FirmwareFile[]> {
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch (err) {
      this.#warn('', 'the firmware folder cannot be read: no firmware is offered', {
        reason: (err as NodeJS.ErrnoException).code ?? String(err),
      });
      return [];
    }
    this.#warned.delete('');
    const files: FirmwareFile[] = [];
    for (const name of names) {
      // Dot files are editors' and copy tools' half-written files, not the owner's.
      if (!name.endsWith('.bin') || name.startsWith('.')) continue;
      const version = name.slice(0, -'.bin'.length);
      if (!FIRMWARE_VERSION.test(version)) {
        this.#warn(
          name,
          'a firmware file whose name is no version (<version>.bin, letters, digits, . _ -): not offered',
        );
        continue;
      }
      const file = path.join(this.#dir, name);
      try {
        if (!this.#fit(name, await lstat(file))) continue;
      } catch (err) {
        // Gone since the readdir: nothing to say.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
          this.#warn(name, 'a firmware file cannot be read: not offered', {
            reason: (err as NodeJS.ErrnoException).code ?? String(err),
          });
        continue;
      }
      files.push({ version, path: file });
    }
    return files.sort((a, b) => compareVersions(b.version, a.version));
  }

  async newest(): Promise<FirmwareFile | null> {
    return (await this.list())[0] ?? null;
  }

  /**
   * Opens `<version>.bin` for serving, or null when there is none or it may not be served (a link, no regular file,
   * empty, over FIRMWARE_MAX_BYTES). The caller closes the handle (streaming it closes it). Size and digest are the
   * opened file's: a file replaced meanwhile is hashed anew.
   */
  async open(version: string): Promise<OpenFirmware | null> {
    if (!FIRMWARE_VERSION.test(version)) return null;
    const name = `${version}.bin`;
    const file = path.join(this.#dir, name);
    let handle: FileHandle;
    try {
      handle = await open(file, OPEN_FLAGS);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // O_NOFOLLOW's answer to a link is ELOOP (EMLINK on the BSDs); a socket's ENXIO.
      if (code === 'ELOOP' || code === 'EMLINK') this.#refuse(name, 'a symbolic link', 0);
      else if (code === 'ENXIO') this.#refuse(name, 'not a regular file', 0);
      else if (code !== 'ENOENT') this.#warn(name, 'a firmware file cannot be opened', { reason: code ?? String(err) });
      return null;
    }
    try {
      const st = await handle.stat();
      const verdict = judge(st);
      if (verdict !== null) {
        if (verdict === 'empty') this.#warn(name, 'an empty firmware file: not served');
        else this.#refuse(name, verdict, st.size);
        await handle.close();
        return null;
      }
      const key = `${st.ino}:${st.size}:${st.mtimeMs}`;
      let d = this.#digests.get(file);
      if (d?.key !== key) {
        const hash = createHash('sha256');
        // Read through the handle, not the path, and only the bytes it had: what is hashed is what is then served.
        for await (const chunk of handle.createReadStream({ start: 0, end: st.size - 1, autoClose: false }))
          hash.update(chunk as Buffer);
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
