import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../src/shared/package-root.js';
import { galleryFiles } from './gallery-files.js';
import type { GalleryEntry } from './gallery-readme.js';

/**
 * Regenerates display/gallery/: every file gallery-files.ts draws (the frames gallery-plan.ts lists, and an index,
 * README.md), written where the plan puts them. The project README and docs/guides/frame.md show some of the frames by
 * file name (test/house/links.test.ts fails when one is gone). Run: `npm run gallery`.
 */

export { galleryLocales, galleryPanels } from './gallery-plan.js';
export type { GalleryEntry } from './gallery-readme.js';

/** The folders of the gallery that it writes whole (emptied first, so no file of an old plan stays). */
const FOLDERS = ['zoom', 'ink', 'stress', 'sideways'];

/** `panels`: only these (default: every panel), each keeping its place in the full list for its second language. */
export async function writeGallery(
  dir = join(packageRoot(), 'display', 'gallery'),
  panels?: readonly string[],
): Promise<GalleryEntry[]> {
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.endsWith('.png')) rmSync(join(dir, f));
  for (const f of FOLDERS) rmSync(join(dir, f), { recursive: true, force: true });
  const entries: GalleryEntry[] = [];
  for await (const file of galleryFiles({ ...(panels && { panels }) })) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.bytes);
    if (file.entry) entries.push(file.entry);
  }
  return entries;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? join(packageRoot(), 'display', 'gallery');
  const started = Date.now();
  const entries = await writeGallery(dir);
  process.stdout.write(`wrote ${entries.length} frames to ${dir} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}
