import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'outfit-display';

interface Found {
  dir: string;
  version: string | null;
}
let found: Found | undefined;

/**
 * The package.json named "outfit-display", found by walking up from this module, so it works from src/ (vitest, tsx)
 * and from dist/src/ (after tsc) alike.
 */
function findPackage(): Found {
  if (found !== undefined) return found;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === PACKAGE_NAME) {
        found = { dir, version: typeof pkg.version === 'string' ? pkg.version : null };
        return found;
      }
    } catch {
      // no package.json here, or an unreadable one: not ours, go on up
    }
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`cannot find the ${PACKAGE_NAME} package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** The folder of the outfit-display package (fonts, panels and assets are found from here). */
export function packageRoot(): string {
  return findPackage().dir;
}

/** The version in the outfit-display package.json, or "unknown". */
export function packageVersion(): string {
  try {
    return findPackage().version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
