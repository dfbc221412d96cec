import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeFrame, renderIndices } from '../../src/render/frame.js';
import { hexToRgb, listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { encodePng } from '../../src/render/encode/png.js';
import { SAMPLE_CASES, sampleInput } from '../gallery/samples.js';
import { decodePng, offPalette, pngHeader, readBmp1 } from './decode.js';

/**
 * Golden images: every panel and sample case, compared pixel for pixel with test/render/golden/<panel>-<case>.png
 * (palette PNGs, 1 to 4 bits). UPDATE_GOLDEN=1 writes them anew; look at the changes before committing them.
 */

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), 'golden');
const update = process.env.UPDATE_GOLDEN === '1';

const EXPECTED_PNG: Record<string, [bitDepth: number, colourType: number]> = {
  'waveshare-7in5-v2': [1, 0],
  'waveshare-7in5-b': [2, 3],
  'waveshare-4in2': [1, 0],
  'waveshare-2in9': [1, 0],
  'waveshare-2in13': [1, 0],
  'waveshare-7in3-f': [4, 3],
  'inky-impression-7in3': [4, 3],
  'inkplate-10': [4, 0],
  trmnl: [1, 0],
  'trmnl-4grey': [2, 0],
  'kindle-paperwhite': [8, 0],
};

describe.each(listPanelIds())('panel %s', (id) => {
  const panel = loadPanel(id);
  it.each(SAMPLE_CASES)('%s matches its golden image, and every file reads back', (c) => {
    const detailed = renderIndices(sampleInput(c), panel, { rotation: 0 });
    const frame = encodeFrame(panel, 0, detailed);
    // PNG: the panel's native depth, every pixel in the palette
    const [bitDepth, colourType] = EXPECTED_PNG[id] ?? [panel.png.bit_depth, panel.png.colour_type === 'grey' ? 0 : 3];
    expect(pngHeader(frame.png)).toEqual({ width: panel.width, height: panel.height, bitDepth, colourType });
    const png = decodePng(frame.png);
    expect(offPalette(png, panel)).toEqual([]);
    // BMP: black/white panels only, header and size
    if (panel.bmp) {
      const bmp = readBmp1(frame.bmp!);
      expect([bmp.width, bmp.height, bmp.bitsPerPixel, bmp.offset]).toEqual([panel.width, panel.height, 1, 62]);
      expect(frame.bmp!.length).toBe(62 + Math.ceil(panel.width / 32) * 4 * panel.height);
      expect(bmp.pixel(0, 0)).toBe(png.data[0] === 255 ? 1 : 0);
    } else expect(frame.bmp).toBeNull();
    // raw: the size the controller takes
    const nativeW = panel.native_rotation % 180 ? panel.height : panel.width;
    const nativeH = panel.native_rotation % 180 ? panel.width : panel.height;
    const rawBytes = panel.framebuffer.planes.reduce((n, p) => n + Math.ceil((nativeW * p.bits_per_pixel) / 8) * nativeH, 0);
    expect(frame.raw.length).toBe(rawBytes);
    // golden, pixel for pixel
    const file = join(GOLDEN, `${id}-${c}.png`);
    if (update || !existsSync(file)) {
      mkdirSync(GOLDEN, { recursive: true });
      const palette = panel.palette.map((e) => hexToRgb(e.rgb));
      const bits = palette.length <= 2 ? 1 : palette.length <= 4 ? 2 : palette.length <= 16 ? 4 : 8;
      writeFileSync(file, encodePng({ width: detailed.width, height: detailed.height, colourType: 'indexed', bitDepth: bits, samples: detailed.indices, palette }));
      if (!update) throw new Error(`golden image ${file} was missing and has been written: look at it, then run again`);
    }
    const golden = decodePng(readFileSync(file));
    expect([golden.width, golden.height]).toEqual([png.width, png.height]);
    let diff = 0;
    for (let i = 0; i < png.data.length; i += 4) {
      if (png.data[i] !== golden.data[i] || png.data[i + 1] !== golden.data[i + 1] || png.data[i + 2] !== golden.data[i + 2]) diff++;
    }
    expect(diff, `${diff} pixels differ from ${file} (UPDATE_GOLDEN=1 to accept)`).toBe(0);
  });
});
