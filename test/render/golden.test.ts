import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeFrame, renderIndices } from '../../src/render/frame.js';
import { hexToRgb, listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { encodePng } from '../../src/render/encode/png.js';
import { decodePng, offPalette, pngHeader, readBmp1 } from './decode.js';
import { SAMPLE_CASES, sampleInput } from '../fixtures/samples.js';

/**
 * Golden images: every panel and sample case, compared pixel for pixel with test/render/golden/<panel>-<case>.png
 * (palette PNGs, 1 to 4 bits). UPDATE_GOLDEN=1 writes them anew; look at the changes before committing them.
 */

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), 'golden');
const update = process.env.UPDATE_GOLDEN === '1';

/**
 * What each panel's PNG must be, written here from the panel's data sheet, not read from its profile: size, then
 * bit depth and colour type (0 grey, 3 palette). A profile without a row fails, so a new panel's expectations are
 * written down when it joins.
 */
const EXPECTED_PNG: Record<string, [width: number, height: number, bitDepth: number, colourType: number]> = {
  'waveshare-7in5-v2': [800, 480, 1, 0],
  'waveshare-7in5-b': [800, 480, 2, 3],
  'waveshare-4in2': [400, 300, 1, 0],
  'waveshare-2in9': [296, 128, 1, 0],
  'waveshare-2in13': [250, 122, 1, 0],
  'waveshare-7in3-f': [800, 480, 4, 3],
  'inky-impression-7in3': [800, 480, 4, 3],
  'inkplate-10': [1200, 825, 4, 0],
  trmnl: [800, 480, 1, 0],
  'trmnl-4grey': [800, 480, 2, 0],
  'trmnl-x': [1872, 1404, 4, 0],
  'kindle-paperwhite': [1072, 1448, 8, 0],
  'oepl-2in9-bwr': [296, 128, 2, 3],
  'oepl-4in2-bwr': [400, 300, 2, 3],
};

it('has written expectations for every panel profile, and none for a panel that is gone', () => {
  expect(Object.keys(EXPECTED_PNG).sort()).toEqual(listPanelIds());
});

describe.each(listPanelIds())('panel %s', (id) => {
  const panel = loadPanel(id);
  it.each(SAMPLE_CASES)('%s matches its golden image, and every file reads back', (c) => {
    const detailed = renderIndices(sampleInput(c), panel, { rotation: 0 });
    const frame = encodeFrame(panel, 0, detailed);
    // PNG: the panel's native depth, every pixel in the palette
    const expected = EXPECTED_PNG[id];
    if (expected === undefined)
      throw new Error(`test/render/golden.test.ts has no EXPECTED_PNG row for the panel ${id}`);
    const [width, height, bitDepth, colourType] = expected;
    expect(pngHeader(frame.png)).toEqual({ width, height, bitDepth, colourType });
    const png = decodePng(frame.png);
    expect(offPalette(png, panel)).toEqual([]);
    // BMP: black/white panels only, header and size
    if (panel.bmp) {
      const bmp = readBmp1(frame.bmp!);
      expect([bmp.width, bmp.height, bmp.bitsPerPixel, bmp.offset]).toEqual([width, height, 1, 62]);
      expect(frame.bmp!.length).toBe(62 + Math.ceil(width / 32) * 4 * height);
      expect(bmp.pixel(0, 0)).toBe(png.data[0] === 255 ? 1 : 0);
    } else expect(frame.bmp).toBeNull();
    // raw: the size the controller takes
    const nativeW = panel.native_rotation % 180 ? panel.height : panel.width;
    const nativeH = panel.native_rotation % 180 ? panel.width : panel.height;
    const rawBytes = panel.framebuffer.planes.reduce(
      (n, p) => n + Math.ceil((nativeW * p.bits_per_pixel) / 8) * nativeH,
      0,
    );
    expect(frame.raw.length).toBe(rawBytes);
    // golden, pixel for pixel
    const file = join(GOLDEN, `${id}-${c}.png`);
    if (update || !existsSync(file)) {
      mkdirSync(GOLDEN, { recursive: true });
      const palette = panel.palette.map((e) => hexToRgb(e.rgb));
      const bits = palette.length <= 2 ? 1 : palette.length <= 4 ? 2 : palette.length <= 16 ? 4 : 8;
      writeFileSync(
        file,
        encodePng({
          width: detailed.width,
          height: detailed.height,
          colourType: 'indexed',
          bitDepth: bits,
          samples: detailed.indices,
          palette,
        }),
      );
      if (!update) throw new Error(`golden image ${file} was missing and has been written: look at it, then run again`);
    }
    const golden = decodePng(readFileSync(file));
    expect([golden.width, golden.height]).toEqual([png.width, png.height]);
    let diff = 0;
    // Both decode opaque: equal bytes are equal pixels; otherwise the pixels whose colour differs are counted.
    const same = png.data.equals(golden.data);
    for (let i = 0; !same && i < png.data.length; i += 4) {
      if (
        png.data[i] !== golden.data[i] ||
        png.data[i + 1] !== golden.data[i + 1] ||
        png.data[i + 2] !== golden.data[i + 2]
      )
        diff++;
    }
    expect(diff, `${diff} pixels differ from ${file} (UPDATE_GOLDEN=1 to accept)`).toBe(0);
  });
});
