import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The pages of docs/ and who reads them (docs/README.md says the same in words): guides/ and reference/ are the
 * owners' (what an owner does, and what to look up), contributing/ the contributors'. Owners' pages cite no source.
 */
export const OWNER_FOLDERS = ['docs/guides/', 'docs/reference/'] as const;

/** Every Markdown page under docs/, as a path from the repository's root (`docs/guides/frame.md`), in path order. */
export function docsPages(root: string): string[] {
  return readdirSync(path.join(root, 'docs'), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** Whether a page of docs/ is written for owners. */
export function isOwnerPage(page: string): boolean {
  return OWNER_FOLDERS.some((f) => page.startsWith(f));
}
