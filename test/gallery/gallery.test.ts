import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { galleryLocales, writeGallery } from './gallery.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { SAMPLE_CASES } from '../fixtures/samples.js';

describe('the gallery', () => {
  it('gives every panel English and a second language, and all eight languages appear', () => {
    const seconds = listPanelIds().map((_, i) => galleryLocales(i).map((l) => l.code));
    for (const pair of seconds) expect(pair[0]).toBe('en');
    expect(new Set(seconds.map((p) => p[1]))).toEqual(new Set(['de', 'fr', 'es', 'it', 'nl', 'pl', 'sv']));
  });

  it(
    'writes each panel in two languages, as the panel gets it, and lists them in its README',
    { timeout: 120_000 },
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'outfit-gallery-'));
      const panels = ['waveshare-2in13', 'waveshare-2in9'];
      const entries = await writeGallery(dir, panels);
      expect(entries).toHaveLength(panels.length * 2 * SAMPLE_CASES.length);
      const files = (await readdir(dir)).filter((f) => f.endsWith('.png')).sort();
      expect(files).toEqual(entries.map((e) => e.file).sort());
      const readme = await readFile(path.join(dir, 'README.md'), 'utf8');
      for (const id of panels) {
        const index = listPanelIds().indexOf(id);
        const second = galleryLocales(index)[1]!.code;
        expect(files).toContain(`${id}-normal.png`);
        expect(files).toContain(`${id}-normal.${second}.png`);
        expect(readme).toContain(`| \`${second}\` | ![${id} normal ${second}](${id}-normal.${second}.png)`);
        const png = PNG.sync.read(await readFile(path.join(dir, `${id}-alert.${second}.png`)));
        const panel = loadPanel(id);
        expect([png.width, png.height]).toEqual([panel.width, panel.height]);
      }
      expect(readme).toContain('| `en` |');
    },
  );
});
