import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateCacheDir, replaceCacheFile } from '../shared/private-cache-dir.js';
import { allFontFiles } from './text/font-stack.js';
import { glyphBitmaps } from './text/fonts.js';
import { decodeGlyphs, encodeGlyphs } from './text/glyph-store.js';

/**
 * The glyph bitmaps of the processes that draw (`render`, `once`, the daemon's render process), kept on disk
 * between them. Rasterizing a frame's few hundred glyphs afresh is the largest part of a cold `render` (more so on a
 * Pi's slower cores); reading them back costs a small fraction of that (docs/contributing/performance.md).
 * The render process (render-process.ts) reads them when it starts and writes them when the daemon lets it go.
 *
 * A bitmap depends on the rasterizer's code and the font files, so the file is read back only when it was written
 * by the same build (`dist/app/build-id`, a hash of the bundle that the build writes beside it) and for the same
 * font files (package version, size and time). Where there is no build id (the modules run one by one, as in the
 * tests) there is no cache. The file is replaced whole (a temporary file renamed over it) and checked whole
 * (glyph-store.ts): a torn, stale or foreign file is ignored and written afresh. Nothing here fails a command: a
 * cache that cannot be read or written only costs the time it would have saved.
 */

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

/** The cache file in `dir` and the stamp it must carry; null: no cache (no folder, no build id, a font unreadable). */
function cacheFile(dir: string | null): { file: string; stamp: string } | null {
  const buildId = dir === null ? null : readBuildId();
  if (dir === null || buildId === null) return null;
  try {
    return { file: path.join(dir, FILE), stamp: stampOf(buildId) };
  } catch {
    // A font file that cannot be read fails the frame itself, with its own error; the cache stays out of it.
    return null;
  }
}

/** Puts the glyphs of an earlier process of the same build and fonts in the glyph cache. */
function load({ file, stamp }: { file: string; stamp: string }): void {
  let glyphs: ReturnType<typeof decodeGlyphs> = null;
  try {
    glyphs = decodeGlyphs(readFileSync(file), stamp);
  } catch {
    // No file yet, or one that cannot be read: drawn afresh, and written after.
  }
  if (glyphs) glyphBitmaps.add(glyphs);
}

/** Replaces the file with the glyph cache as it is now. */
function save({ file, stamp }: { file: string; stamp: string }): void {
  replaceCacheFile(file, encodeGlyphs(stamp, glyphBitmaps.entries()));
}

/**
 * Runs a process's drawing (a one-shot command, a render process's life) with the glyphs earlier processes of this
 * build drew, in the user's own cache folder (shared/private-cache-dir.ts), and keeps them for the next when the work
 * rasterized new ones; written even when `work` fails.
 */
export async function withGlyphDiskCache<T>(work: () => Promise<T>): Promise<T> {
  const at = cacheFile(privateCacheDir('glyphs'));
  if (at) load(at);
  const rasterized = glyphBitmaps.rasterized();
  try {
    return await work();
  } finally {
    if (at && glyphBitmaps.rasterized() !== rasterized) save(at);
  }
}
