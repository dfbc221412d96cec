import { describe, expect, it } from 'vitest';
import { layoutFrame } from '../../src/render/frame.js';
import { frameJson } from '../../src/render/frame-json.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { typeScale } from '../../src/render/draw/type-scale.js';
import { localeFor } from '../../src/i18n/locale.js';
import { NORMAL, sampleInput } from '../fixtures/samples.js';

/**
 * The feels-like temperature, the figure the outfit is based on: on every panel, and on the wall
 * panels legible from 2 m, at least the readings' size (7.7′ of arc at 2 m; it was 20 px, 5.3′ on the 7.5").
 */

const CASES = ['normal', 'long', 'short', 'alert'] as const;

describe('the feels-like temperature', () => {
  it.each(listPanelIds())(
    '%s: drawn whole at the readings’ size at least, in arc minutes at its viewing distance',
    (id) => {
      const panel = loadPanel(id);
      for (const rotation of [0, 90] as const) {
        for (const c of CASES) {
          const d = layoutFrame(sampleInput(c), panel, { rotation });
          const where = `${id} at ${rotation}°, ${c}`;
          const ink = d.report.inks.find((i) => /^Feels( like)? −?\d+°/.test(i.text));
          expect(ink, `${where}: ${d.report.texts.join(' | ')}`).toBeDefined();
          // Whole: the number is never cut, and the ink stays on the frame.
          expect(ink!.text, where).toMatch(/\d°$/);
          expect(ink!.x >= 0 && ink!.right <= d.width && ink!.top >= 0 && ink!.bottom <= d.height, where).toBe(true);
          const json = frameJson(d, panel, rotation, '');
          const feels = json.sizes.feelsLike!;
          expect(feels.px, where).toBeGreaterThanOrEqual(d.report.sizes.reading!);
          if (d.report.layout === 'small') {
            // Arm's length: the hand scale's readings, 10′.
            expect(feels.arc_minutes, where).toBeGreaterThanOrEqual(10);
          } else {
            // 2 m: the wall scale's readings (7.7′), whatever the panel's density.
            expect(feels.px, where).toBeGreaterThanOrEqual(typeScale('wall', d.scale.ppi).reading);
            expect(feels.arc_minutes, where).toBeGreaterThanOrEqual(7.7);
          }
        }
      }
    },
  );

  it('is on the 2.13" and the 2.9" lying and upright, short where the full words do not fit', () => {
    for (const id of ['waveshare-2in13', 'waveshare-2in9']) {
      for (const rotation of [0, 90] as const) {
        const cold = {
          ...sampleInput('normal'),
          rec: { ...NORMAL, weather: { ...NORMAL.weather, temp: -12.5, feels_like: -19.5 } },
        };
        const texts = layoutFrame(cold, loadPanel(id), { rotation }).report.texts;
        expect(
          texts.some((t) => /^Feels( like)? −20°$/.test(t)),
          `${id} at ${rotation}°: ${texts.join(' | ')}`,
        ).toBe(true);
        const german = layoutFrame(sampleInput('normal', 'Flur', localeFor('de')), loadPanel(id), { rotation }).report
          .texts;
        expect(german, `${id} at ${rotation}°`).toContain('Gefühlt 1°');
      }
    }
  });

  it('keeps the temperature at the type scale where the feels-like temperature goes beneath it (a landscape Kindle)', () => {
    const panel = loadPanel('kindle-paperwhite');
    const d = layoutFrame(sampleInput('long'), panel, { rotation: 90 });
    expect(d.report.sizes.temperature).toBeGreaterThanOrEqual(d.scale.temperature);
    expect(d.report.sizes.feelsLike).toBeGreaterThanOrEqual(d.scale.reading);
  });
});
