import { renderIndices } from './dist/src/render/frame.js';
import { loadPanel } from './dist/src/panels/panels.js';
import { sampleInput } from './dist/test/gallery/samples.js';
import { PNG } from 'pngjs';
import { writeFileSync } from 'node:fs';
const panel = loadPanel('waveshare-2in13');
const base = sampleInput('short');
const input = { ...base, rec: { ...base.rec, outfit: 'Take 雨具 and 傘 with you today.' } };
const { indices, width, height } = renderIndices(input, panel, { rotation: 0 });
const Z = 4; const png = new PNG({ width: width * Z, height: height * Z });
for (let y = 0; y < height * Z; y++) for (let x = 0; x < width * Z; x++) { const v = indices[Math.floor(y / Z) * width + Math.floor(x / Z)] === 0 ? 0 : 255; const i = (y * width * Z + x) * 4; png.data[i] = png.data[i + 1] = png.data[i + 2] = v; png.data[i + 3] = 255; }
writeFileSync(process.argv[2], PNG.sync.write(png));
