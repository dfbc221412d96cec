import { configYaml } from '../helpers/config-yaml.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { DisplayCycle } from '../../src/daemon/cycle.js';
import { renderFrame, renderIndices } from '../../src/render/frame.js';
import { GlyphWarnings } from '../../src/render/glyph-warnings.js';
import { displayRenderOptions } from '../../src/render/display-frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { LastGoodStore } from '../../src/store/last-good.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { clockAt } from '../helpers/fake-clock.js';
import { testViews } from '../helpers/views.js';
import { NORMAL, sampleInput } from '../fixtures/samples.js';

/**
 * A sign no font has is drawn as a box, reported by the render and logged once per process; a text in a script no
 * font has is said in words instead (unshown-text.ts), and its script logged once per process.
 */

const OUTFIT = 'Wear a raincoat ⌸ and take a ☂ ✅ ⍁ if it pours. Thai: เสื้อกันฝน.';
/** APL's quad-equal and quad-divide: signs, of no script, no bundled or system font has. */
const BOXED = [0x2338, 0x2341];

type LogLine = { code?: string; codePoint?: string; display?: string; script?: string; elements?: string[] };
const lines = (text: string): LogLine[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine);

describe('missing glyphs', () => {
  const panel = loadPanel('waveshare-7in5-v2');
  const input = { ...sampleInput('normal'), rec: { ...NORMAL, outfit: OUTFIT } };

  it('are reported by the render, each code point once, and only those no font has', () => {
    const { report } = renderIndices(input, panel, { rotation: 0 });
    expect([...report.missingGlyphs].sort()).toEqual([...BOXED].sort());
    expect(renderIndices(sampleInput('normal'), panel, { rotation: 0 }).report.missingGlyphs).toEqual([]);
  });

  it('come with the frame that renderFrame gives', async () => {
    const frame = await renderFrame(input, panel, { rotation: 90 });
    expect(frame.missingGlyphs).toEqual(expect.arrayContaining(BOXED));
  });

  it('leave a text in a script no font has to its note: no box is drawn for its letters', () => {
    const { report } = renderIndices({ ...input, rec: { ...NORMAL, outfit: `${OUTFIT} बरसाती पहनें` } }, panel, {
      rotation: 0,
    });
    expect(report.missingGlyphs).toEqual([]);
    expect(report.missingScripts).toEqual([{ code: 'Deva', name: 'Devanagari', elements: ['outfit'] }]);
  });

  it('are logged as W_GLYPH_MISSING naming the code point, once per code point however often drawn', () => {
    const { logger, text } = capturingLogger();
    const warnings = new GlyphWarnings(logger);
    warnings.report([0x96e8, 0x8863, 0x96e8], { display: 'hallway' });
    warnings.report([0x8863], { display: 'kitchen' });
    const logged = lines(text());
    expect(logged.map((l) => [l.code, l.codePoint, l.display])).toEqual([
      ['W_GLYPH_MISSING', 'U+96E8 (雨)', 'hallway'],
      ['W_GLYPH_MISSING', 'U+8863 (衣)', 'hallway'],
    ]);
  });

  it('log a script no font has as W_SCRIPT_NO_FONT, once per script however often drawn', () => {
    const { logger, text } = capturingLogger();
    const warnings = new GlyphWarnings(logger);
    const deva = { code: 'Deva', name: 'Devanagari', elements: ['outfit' as const] };
    warnings.reportScripts([deva], { display: 'hallway' });
    warnings.reportScripts([deva, { code: 'Jpan', name: 'Japanese', elements: ['alerts' as const] }], {
      display: 'kitchen',
    });
    expect(lines(text()).map((l) => [l.code, l.script, l.display, l.elements])).toEqual([
      ['W_SCRIPT_NO_FONT', 'Devanagari', 'hallway', ['outfit']],
      ['W_SCRIPT_NO_FONT', 'Japanese', 'kitchen', ['alerts']],
    ]);
  });
});

describe('the cycle', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('logs each missing character and script once across displays and cycles sharing one GlyphWarnings', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'outfit-glyphs-'));
    dirs.push(dir);
    const yaml = configYaml({
      creditsPerDay: 3000,
      displays: ['hallway', 'kitchen'].map((id) => ({ id, panel: 'waveshare-2in9', schedule: '*/10 * * * *' })),
    });
    await writeFile(path.join(dir, 'config.yaml'), yaml);
    const { config } = await loadConfig(path.join(dir, 'config.yaml'));
    const { logger, text } = capturingLogger();
    const glyphWarnings = new GlyphWarnings(logger);
    const store = new LastGoodStore(config.state_dir);
    const side = testViews({ displays: config.displays });
    const cycles = config.displays.map(
      (display) =>
        new DisplayCycle({
          display,
          render: displayRenderOptions(display, { timezone: config.timezone }),
          store,
          fetch: () =>
            Promise.resolve({
              kind: 'fresh',
              rec: {
                ...NORMAL,
                outfit: 'A ⌸ today ⍁',
                reasoning: 'बरसाती पहनें',
                weather: { ...NORMAL.weather, alerts: [] },
              },
            }),
          publishers: [],
          displayBook: side.displayBook,
          views: side.views,
          clock: clockAt(() => Date.parse('2026-01-31T06:45:00Z')),
          nextUpdateAt: () => null,
          logger,
          purchaseIntervalMs: 60_000,
          glyphWarnings,
        }),
    );
    for (let round = 0; round < 2; round++)
      for (const c of cycles) expect((await c.run('schedule')).published).toBe(true);
    const missing = lines(text()).filter((l) => l.code === 'W_GLYPH_MISSING');
    expect(missing.map((l) => l.codePoint)).toEqual(['U+2338 (⌸)', 'U+2341 (⍁)']);
    const scripts = lines(text()).filter((l) => l.code === 'W_SCRIPT_NO_FONT');
    expect(scripts.map((l) => [l.script, l.display, l.elements])).toEqual([['Devanagari', 'hallway', ['reasoning']]]);
  });
});
