import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateCacheDir } from '../shared/private-cache-dir.js';
import { allFontFiles } from './text/font-stack.js';
import { glyphBitmaps } from './text/fonts.js';
import { decodeGlyphs, encodeGlyphs } from './text/glyph-store.js';

/**
 * The glyph bitmaps of one-shot commands (`render`, `once`), kept on disk between processes. Rasterizing a frame's
 * few hundred glyphs afresh is the largest part of a cold `render` (about 60 ms of it on this project's x86 test
 * machine, more on a Pi's slower cores); read back, they cost a few milliseconds. The daemon does not use it: it
 * rasterizes a glyph once and keeps it in memory.
 *
 * A bitmap depends on the rasterizer's code and the font files, so the file is read back only when it was written
 * by the same build (`dist/app/build-id`, a hash of the bundle that the build writes beside it) and for the same
 * font files (package version, size and time). Where there is no build id (the modules run one by one, as in the
 * tests) there is no cache. The file is replaced whole (a temporary file renamed over it) and checked whole
 * (glyph-store.ts): a torn, stale or foreign file is ignored and written afresh. Nothing here fails a command: a
 * cache that cannot be read or written only costs the time it would have saved.
 */

export interface GlyphDiskCacheOptions {
  /** The folder of the cache file (shared/private-cache-dir.ts); null: no cache. */
  dir: string | null;
  /** The build's id; default: dist/app/build-id beside this module, or none. */
  buildId?: string | null;
}

const FILE = 'glyphs.bin';

function readBuildId(): string | null {
  try {
    return readFileSync(fileURLToPath(new URL('./build-id', import.meta.url)), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** The name and version in the package.json nearest above `file` (a font package's), or '' without one. */
function packageOf(file: string, seen: Map<string, string>): string {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const known = seen.get(dir);
    if (known !== undefined) return known;
    let text: string;
    try {
      text = readFileSync(path.join(dir, 'package.json'), 'utf8');
    } catch {
      continue;
    }
    const { name, version } = JSON.parse(text) as { name?: unknown; version?: unknown };
    const id = `${String(name)}@${String(version)}`;
    seen.set(dir, id);
    return id;
  }
  return '';
}

/**
 * The build, and each font file's package version, size and modification time: what the bitmaps were drawn with.
 * (npm gives every installed file the same modification time, so the version tells a font package upgrade apart.)
 */
function stampOf(buildId: string): string {
  const seen = new Map<string, string>();
  const fonts = allFontFiles().map((f) => {
    const st = statSync(f);
    return `${packageOf(f, seen)}/${path.basename(f)}:${st.size}:${Math.trunc(st.mtimeMs)}`;
  });
  return [buildId, ...fonts].join('\n');
}

export class GlyphDiskCache {
  readonly #file: string | null;
  readonly #stamp: string | null;
  #rasterizedAtLoad = 0;

  constructor(o: GlyphDiskCacheOptions) {
    const buildId = o.buildId === undefined ? readBuildId() : o.buildId;
    let stamp: string | null = null;
    try {
      stamp = o.dir !== null && buildId !== null ? stampOf(buildId) : null;
    } catch {
      // A font file that cannot be read fails the frame itself, with its own error; the cache stays out of it.
    }
    this.#stamp = stamp;
    this.#file = stamp !== null && o.dir !== null ? path.join(o.dir, FILE) : null;
  }

  /** Puts the glyphs of an earlier process of the same build and fonts in the glyph cache; how many. */
  load(): number {
    this.#rasterizedAtLoad = glyphBitmaps.rasterized();
    if (this.#file === null || this.#stamp === null) return 0;
    let glyphs: ReadonlyMap<string, unknown> | null = null;
    try {
      const decoded = decodeGlyphs(readFileSync(this.#file), this.#stamp);
      if (decoded) glyphBitmaps.add(decoded);
      glyphs = decoded;
    } catch {
      // No file yet, or one that cannot be read: drawn afresh, and written after.
    }
    return glyphs?.size ?? 0;
  }

  /** Writes the glyph cache when this process rasterized glyphs the file did not have; whether it wrote. */
  save(): boolean {
    if (this.#file === null || this.#stamp === null || glyphBitmaps.rasterized() === this.#rasterizedAtLoad) return false;
    const tmp = `${this.#file}.${process.pid}.tmp`;
    try {
      // Not fsync'd: after a power cut a cache may be lost or torn, and a torn one is read as none.
      writeFileSync(tmp, encodeGlyphs(this.#stamp, glyphBitmaps.entries()), { mode: 0o600 });
      renameSync(tmp, this.#file);
      this.#rasterizedAtLoad = glyphBitmaps.rasterized();
      return true;
    } catch {
      try {
        unlinkSync(tmp);
      } catch {
        // Never written.
      }
      return false;
    }
  }
}

/**
 * Runs a one-shot command's work with the glyphs earlier processes of this build drew, in the user's own cache
 * folder (shared/private-cache-dir.ts), and keeps the ones it drew for the next; written even when `work` fails.
 */
export async function withGlyphDiskCache<T>(work: () => Promise<T>): Promise<T> {
  const cache = new GlyphDiskCache({ dir: privateCacheDir('glyphs') });
  cache.load();
  try {
    return await work();
  } finally {
    cache.save();
  }
}
