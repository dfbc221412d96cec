import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docsPages } from '../tools/doc-pages.js';
import { headingSlug, markdownHeadings } from '../tools/errors-doc.js';

/**
 * Every link in the README, the CHANGELOG, every page of docs/ (its folders too), display/README.md and the fault
 * matrix resolves: a file or folder of the repository, and an `#anchor` a heading of the page it names (as GitHub
 * makes anchors: lower case, punctuation dropped, spaces as `-`, a repeated heading `-1`, `-2`). Links to other
 * sites are not followed. docs/README.md, the index, links every page of docs/, and the README links the index.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOCS = docsPages(ROOT);
const PAGES = ['README.md', 'CHANGELOG.md', ...DOCS, 'display/README.md', 'test/RELIABILITY.md'];

/** The link targets of a Markdown text: `[text](target)` and `![alt](target)`, outside fenced code and code spans. */
function linkTargets(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]!);
  }
  return out;
}

const anchorsOf = new Map<string, Set<string>>();
function anchors(file: string): Set<string> {
  let found = anchorsOf.get(file);
  if (!found) anchorsOf.set(file, (found = new Set(markdownHeadings(readFileSync(file, 'utf8')).map((h) => h.anchor))));
  return found;
}

/** What is wrong with one link of a page, or undefined when it resolves. */
function brokenLink(page: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const file =
    pathPart === '' ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), decodeURI(pathPart));
  if (!file.startsWith(ROOT + path.sep) && file !== ROOT) return `${target}: outside the repository`;
  if (!existsSync(file)) return `${target}: no such file`;
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(file).isDirectory() || !file.endsWith('.md'))
    return `${target}: an anchor on a file that is not Markdown`;
  return anchors(file).has(decodeURIComponent(anchor)) ? undefined : `${target}: no heading with that anchor`;
}

describe('links in the README, the CHANGELOG and docs/', () => {
  it('makes anchors as GitHub does', () => {
    expect(headingSlug("The owner's language")).toBe('the-owners-language');
    expect(headingSlug('Devices that pull: HTTP, TRMNL, and the firmware simulator')).toBe(
      'devices-that-pull-http-trmnl-and-the-firmware-simulator',
    );
    expect(headingSlug('The frame: read from 2 m')).toBe('the-frame-read-from-2-m');
    expect(headingSlug('The outfit service (src/api)')).toBe('the-outfit-service-srcapi');
    const heads = markdownHeadings('# A\n\n```sh\n# not a heading\n```\n## `B` and [c](x.md)\n## A\n');
    expect(heads.map((h) => h.anchor)).toEqual(['a', 'b-and-c', 'a-1']);
  });

  it('finds links in prose, not in code', () => {
    expect(linkTargets('[a](x.md#y) ![b](img.png) `[c](no.md)`\n```\n[d](no.md)\n```')).toEqual(['x.md#y', 'img.png']);
  });

  it.each(PAGES)('every link of %s resolves', (page) => {
    const targets = linkTargets(readFileSync(path.join(ROOT, page), 'utf8'));
    expect(targets.map((t) => brokenLink(page, t)).filter((p) => p !== undefined)).toEqual([]);
  });

  it('docs/README.md, the index, links every page of docs/; the README links the index', () => {
    const linked = new Set(
      linkTargets(readFileSync(path.join(ROOT, 'docs/README.md'), 'utf8')).map((t) =>
        path.posix.normalize(path.posix.join('docs', t.split('#')[0]!)),
      ),
    );
    expect(DOCS.filter((p) => p !== 'docs/README.md' && !linked.has(p))).toEqual([]);
    const fromReadme = linkTargets(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).map((t) => t.split('#')[0]);
    expect(fromReadme).toContain('docs/README.md');
  });
});
