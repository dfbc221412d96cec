import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/locales/en.js';
import { docsPages, isOwnerPage } from '../tools/doc-pages.js';

/**
 * docs/ for two readers (docs/README.md): the owners' pages (guides/ and reference/) cite no source, so an owner is
 * never sent into the code; no table cell grows into a page of its own; and the table of label keys an owner writes a
 * locale file from is the English locale's.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PAGES = docsPages(ROOT);
const read = (page: string): string => readFileSync(path.join(ROOT, page), 'utf8');

/** A path into the code: `src/…`, `test/…` (not inside another path or a URL), or a TypeScript file of `display/`. */
const SOURCE_PATH = /(?<![\w./-])(?:src|test)\/|(?<![\w./-])display\/[\w./-]*\.ts\b/g;

/** The longest a table cell may be: a longer one is a section of its own, or a list. */
const MAX_CELL = 400;

/** The cells of a Markdown table row (`|` escaped as `\|` stays in its cell). */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

describe('docs/ for two readers', () => {
  it('finds source paths as an owner would read them, and not in addresses', () => {
    const found = (text: string): string[] => text.match(SOURCE_PATH) ?? [];
    expect(found('see `src/api/client.ts` and test/house/')).toEqual(['src/', 'test/']);
    expect(found('the model in `display/firmware/power.ts`')).toEqual(['display/firmware/power.ts']);
    expect(found('`display/panels/<id>.json`, display/gallery/README.md, https://github.com/a/b/src/x.ts')).toEqual([]);
  });

  it('has owners’ pages in guides/ and reference/, and contributors’ in contributing/', () => {
    expect(PAGES.filter(isOwnerPage).length).toBeGreaterThan(0);
    expect(
      PAGES.filter((p) => !isOwnerPage(p) && p !== 'docs/README.md' && !p.startsWith('docs/contributing/')),
    ).toEqual([]);
  });

  it.each(PAGES.filter(isOwnerPage))('%s cites no source path (src/, test/, display/…ts)', (page) => {
    const lines = read(page)
      .split('\n')
      .map((line, i) => ({ line, at: i + 1, paths: line.match(SOURCE_PATH) ?? [] }))
      .filter((l) => l.paths.length > 0)
      .map((l) => `${page}:${l.at}: ${l.paths.join(', ')}`);
    expect(lines).toEqual([]);
  });

  it.each(PAGES)(`%s has no table cell over ${MAX_CELL} characters`, (page) => {
    const long = read(page)
      .split('\n')
      .map((line, i) => ({ line, at: i + 1 }))
      .filter((l) => l.line.trimStart().startsWith('|'))
      .flatMap((l) => cells(l.line).map((c) => ({ at: l.at, length: c.length, start: c.slice(0, 40) })))
      .filter((c) => c.length > MAX_CELL);
    expect(long).toEqual([]);
  });

  it('lists every label key with its English words in docs/reference/frame-rules.md', () => {
    const page = read('docs/reference/frame-rules.md');
    const section = page.slice(page.indexOf('## Label keys'));
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \| (.*) \|$/gm)].map((m) => [
      m[1]!,
      m[2]!.replace(/\\\|/g, '|'),
    ]);
    expect(rows).toEqual(Object.entries(en.labels));
  });
});
