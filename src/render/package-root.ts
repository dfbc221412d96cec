import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'outfit-display';
let root: string | undefined;

/**
 * The folder of the package.json named "outfit-display", found by walking up from this module, so it works
 * from src/ (vitest, tsx) and from dist/src/ (after tsc) alike.
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      try {
        const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: unknown };
        if (pkg.name === PACKAGE_NAME) {
          root = dir;
          return dir;
        }
      } catch {
        // an unreadable package.json on the way up is not ours
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}
