import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { galleryPanels } from '../gallery/gallery.js';
import { docsPages } from '../tools/doc-pages.js';
import { attachablePanelIds, listPanelIds } from '../../src/panels/panels.js';
import { SAMPLE_CASES } from '../fixtures/samples.js';

/**
 * What lists or counts the panels follows the profiles in display/panels/: the gallery's script and the gallery it
 * made, every "N panels" in README.md and docs/, and the table of panels for the Pi's header in
 * docs/guides/panels.md. A profile added without the gallery made again, or a count or table left as it was, fails
 * here.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const GALLERY = path.join(ROOT, 'display', 'gallery');
const PAGES = ['README.md', 'display/README.md', ...docsPages(ROOT)];

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];

/** Each "fourteen e-ink panels", "14 panels", "the twelve panels" of a page, as [the words, the number]. */
function panelCounts(text: string): [string, number][] {
  const re = new RegExp(`\\b(${WORDS.join('|')}|\\d+) (?:e-ink )?(?:panels|panel profiles)\\b`, 'gi');
  return [...text.matchAll(re)].map((m) => [
    m[0],
    /^\d+$/.test(m[1]!) ? Number(m[1]) : WORDS.indexOf(m[1]!.toLowerCase()),
  ]);
}

describe('the panels, listed and counted', () => {
  it('the gallery script draws every profile', () => {
    expect(galleryPanels()).toEqual(listPanelIds());
  });

  it.each(listPanelIds())(
    'the gallery shows %s: its section in display/gallery/README.md and its English frames',
    (id) => {
      const index = readFileSync(path.join(GALLERY, 'README.md'), 'utf8');
      expect(index).toMatch(new RegExp(`^## .+ \\(\`${id}\`, \\d+x\\d+\\)$`, 'm'));
      const missing = SAMPLE_CASES.map((c) => `${id}-${c}.png`).filter((f) => !existsSync(path.join(GALLERY, f)));
      expect(missing, 'npm run gallery makes them').toEqual([]);
    },
  );

  it('every count of panels in README.md and docs/ is the number of profiles', () => {
    const counts = PAGES.filter((p) => existsSync(path.join(ROOT, p))).flatMap((p) =>
      panelCounts(readFileSync(path.join(ROOT, p), 'utf8')).map(([words, n]) => ({ page: p, words, n })),
    );
    expect(
      counts.some((c) => c.page === 'README.md'),
      'README.md says how many panels have a profile',
    ).toBe(true);
    expect(counts.filter((c) => c.n !== listPanelIds().length)).toEqual([]);
  });

  it("docs/guides/panels.md's table of panels for the header has a row for each profile with pi_header, and no other", () => {
    const page = readFileSync(path.join(ROOT, 'docs', 'guides', 'panels.md'), 'utf8');
    const section = page.slice(page.indexOf('## A panel on the Pi'));
    const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| panel id |')));
    const rows = [...table.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]!);
    expect(rows.sort()).toEqual(attachablePanelIds());
  });
});
