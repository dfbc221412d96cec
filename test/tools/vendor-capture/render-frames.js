// Renders the frames the panels' reference streams are made from (test/epd/frames/<panel>-<case>.png), with OUR
// renderer, as the daemon draws a display (displayRenderOptions + renderDisplayFrame, the sample inputs of
// test/fixtures/samples.ts, English, rotation 0). Not run by CI: the PNGs are stored, and the tests in test/epd/ read
// them. Run after `npm run build`, with the panels to render (and, optionally, another folder to write to):
//   node test/tools/vendor-capture/render-frames.js [--out DIR] PANEL...
// e.g. waveshare-7in5-v2 waveshare-7in5-b (UC8179); waveshare-2in13 waveshare-2in9 waveshare-4in2 (SSD1680 /
// SSD1683); waveshare-7in3-f inky-impression-7in3 (ACeP 7-colour, Spectra 6).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { localeFor } from '../../../dist/src/i18n/locale.js';
import { displayRenderOptions, renderDisplayFrame } from '../../../dist/src/render/display-frame.js';
import { SAMPLE_TIMEZONE, sampleInput } from '../../../dist/test/fixtures/samples.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const { values, positionals: panels } = parseArgs({ options: { out: { type: 'string' } }, allowPositionals: true });
if (panels.length === 0) {
  console.error('usage: node test/tools/vendor-capture/render-frames.js [--out DIR] PANEL...');
  process.exit(2);
}
const out = values.out ?? join(root, 'test', 'epd', 'frames');
const CASES = ['normal', 'long', 'error'];

for (const panel of panels) {
  const locale = localeFor('en');
  const render = displayRenderOptions(
    { id: 'hallway', name: 'Hallway', panel, rotation: 0 },
    { timezone: SAMPLE_TIMEZONE, locales: new Map([['hallway', locale]]) },
  );
  for (const c of CASES) {
    const frame = await renderDisplayFrame(render, sampleInput(c, 'Hallway', locale));
    const file = join(out, `${panel}-${c}.png`);
    writeFileSync(file, frame.png);
    console.log(`${file}: ${frame.width}x${frame.height}, ${frame.png.length} bytes, sha256 ${frame.hash}`);
  }
}
