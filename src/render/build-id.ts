import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The build's id: a hash of the bundle that `npm run build` writes beside it (`dist/app/build-id`, by .ci/build-id.js);
 * null where there is none (the sources as the tests import them; tsc's modules in dist/src/). What the disk caches
 * (glyph-disk-cache.ts, intl-disk-cache.ts) hold depends on the code that made it, so a file is read back only by the
 * build that wrote it.
 */
export function readBuildId(): string | null {
  try {
    return readFileSync(fileURLToPath(new URL('./build-id', import.meta.url)), 'utf8').trim() || null;
  } catch {
    return null;
  }
}
