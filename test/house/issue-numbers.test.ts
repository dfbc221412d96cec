import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docsPages } from '../tools/doc-pages.js';

/**
 * No source, test or page of the docs cites an issue of our tracker by its number: a reader of the code or the docs
 * has no tracker to open, so a comment, a test's name or a page says what and why in its own words. (Another
 * project's issue is linked by its address.)
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CITATION = new RegExp('\\b[Ii]ssues? ' + '\\d+');

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|js)$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

describe('issue numbers', () => {
  it('are cited nowhere in src/, test/ or display/', () => {
    const found: string[] = [];
    for (const file of ['src', 'test', 'display'].flatMap(sources)) {
      readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (CITATION.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('are cited in no page: the README, the CHANGELOG, docs/, display/README.md or the fault matrix', () => {
    const pages = ['README.md', 'CHANGELOG.md', ...docsPages(ROOT), 'display/README.md', 'test/RELIABILITY.md'];
    const found: string[] = [];
    for (const page of pages) {
      readFileSync(path.join(ROOT, page), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (CITATION.test(line)) found.push(`${page}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});
