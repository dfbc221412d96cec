import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { galleryLocales, writeGallery } from './gallery.js';
import { hangsSideways, panelFrames } from './gallery-plan.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { SAMPLE_CASES } from '../fixtures/samples.js';
import { EXTRA_SAMPLES } from '../fixtures/extra-samples.js';
import { HOUSEHOLD_CASES } from '../fixtures/household-samples.js';

describe('the gallery', () => {
  it('gives every panel English and a second language, and all eight languages appear', () => {
    const seconds = listPanelIds().map((_, i) => galleryLocales(i).map((l) => l.code));
    for (const pair of seconds) expect(pair[0]).toBe('en');
    expect(new Set(seconds.map((p) => p[1]))).toEqual(new Set(['de', 'fr', 'es', 'it', 'nl', 'pl', 'sv']));
  });

  it('plans every sample case in two languages, every extra sample in English, the household in English and German, and sideways frames where the panel hangs that way', () => {
    for (const [index, id] of listPanelIds().entries()) {
      const frames = panelFrames(id, index);
      const upright = frames.filter((f) => f.rotation === 0);
      expect(upright.filter((f) => f.locale === 'en').map((f) => f.case)).toEqual([
        ...SAMPLE_CASES,
        ...EXTRA_SAMPLES,
        ...HOUSEHOLD_CASES,
      ]);
      const second = galleryLocales(index)[1]!.code;
      expect(upright.filter((f) => f.locale === second).map((f) => f.case)).toEqual([
        ...SAMPLE_CASES,
        ...(second === 'de' ? HOUSEHOLD_CASES : []),
      ]);
      expect(upright.filter((f) => f.locale === 'de').map((f) => f.case)).toEqual(
        expect.arrayContaining([...HOUSEHOLD_CASES]),
      );
      expect(upright.filter((f) => f.locale !== 'en' && f.locale !== second && f.locale !== 'de')).toEqual([]);
      const sideways = frames.filter((f) => f.rotation === 90);
      expect(sideways.length > 0, id).toBe(hangsSideways(id));
      expect(new Set(frames.map((f) => f.file)).size).toBe(frames.length);
    }
    // The OpenEPaperLink tags are fed their own size (their access point turns the picture): never drawn sideways.
    expect(listPanelIds().filter((id) => !hangsSideways(id))).toEqual(['oepl-2in9-bwr', 'oepl-4in2-bwr']);
  });

  it(
    'writes each panel in two languages, as the panel gets it, sideways too, and lists them in its README',
    { timeout: 180_000 },
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'outfit-gallery-'));
      const panels = ['oepl-2in9-bwr', 'waveshare-2in13'];
      const entries = await writeGallery(dir, panels);
      const planned = panels.flatMap((id) => panelFrames(id, listPanelIds().indexOf(id)));
      expect(entries.map((e) => e.file)).toEqual(planned.map((f) => f.file));
      const top = (await readdir(dir)).filter((f) => f.endsWith('.png'));
      const sideways = (await readdir(path.join(dir, 'sideways'))).map((f) => `sideways/${f}`);
      expect([...top, ...sideways].sort()).toEqual(entries.map((e) => e.file).sort());
      const readme = await readFile(path.join(dir, 'README.md'), 'utf8');
      for (const id of panels) {
        const index = listPanelIds().indexOf(id);
        const second = galleryLocales(index)[1]!.code;
        expect(top).toContain(`${id}-normal.png`);
        expect(top).toContain(`${id}-normal.${second}.png`);
        expect(top).toContain(`${id}-hebrew.png`);
        expect(readme).toContain(`| \`${second}\` | ![${id} normal ${second}](${id}-normal.${second}.png)`);
        const png = PNG.sync.read(await readFile(path.join(dir, `${id}-alert.${second}.png`)));
        const panel = loadPanel(id);
        expect([png.width, png.height]).toEqual([panel.width, panel.height]);
      }
      const turned = PNG.sync.read(await readFile(path.join(dir, 'sideways', 'waveshare-2in13-normal.png')));
      expect([turned.width, turned.height]).toEqual([122, 250]);
      expect(readme).toContain('](sideways/waveshare-2in13-normal.png)');
      expect(readme).toContain('| `en` |');
    },
  );
});
