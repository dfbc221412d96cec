import { PNG } from 'pngjs';
import { encodeBmp1 } from '../../src/render/encode/bmp.js';

/**
 * What an ESPHome device draws of a downloaded frame (docs/guides/esphome.md), by the rules of ESPHome's sources as
 * config/esphome/*.yaml cite them: online_image with `type: BINARY` keeps one "on" bit a pixel (a set bit of a 1-bit
 * BMP, whatever its palette; a bright pixel of a PNG); the display lambda's `it.image(0, 0, id(frame), color_on,
 * color_off)` paints "on" pixels in color_on; waveshare_epaper shows COLOR_ON as black, epaper_spi as white. The
 * 1-bit BMP decoder does not skip row padding, so a BMP whose rows are padded shears.
 */

export type EsphomeColour = 'COLOR_ON' | 'COLOR_OFF';
export type EsphomeDriver = 'epaper_spi' | 'waveshare_epaper';

/** The YAML's driver and draw call. */
export interface DrawCall {
  driver: EsphomeDriver;
  colorOn: EsphomeColour;
  colorOff: EsphomeColour;
}

/** What our YAMLs draw with on each driver: "on" (white) in the colour that driver shows white. */
export function ourDrawCall(driver: EsphomeDriver): DrawCall {
  return driver === 'epaper_spi'
    ? { driver, colorOn: 'COLOR_ON', colorOff: 'COLOR_OFF' }
    : { driver, colorOn: 'COLOR_OFF', colorOff: 'COLOR_ON' };
}

interface OnBits {
  width: number;
  height: number;
  on: Uint8Array;
}

function bmpOnBits(file: Buffer): OnBits {
  if (file.length < 62 || file.toString('ascii', 0, 2) !== 'BM') throw new Error('Not a BMP file');
  const offset = file.readUInt32LE(10);
  const width = file.readUInt32LE(18);
  const height = file.readUInt32LE(22);
  if (file.readUInt16LE(28) !== 1 || file.readUInt32LE(30) !== 0)
    throw new Error('Unsupported BMP: only 1 bit a pixel, uncompressed, is drawn as BINARY');
  const on = new Uint8Array(width * height);
  // Pixels counted 8 a byte from the data offset, rows bottom-up, no padding skipped.
  for (let i = offset, paint = 0; i < file.length; i++, paint += 8) {
    for (let b = 0; b < 8; b++) {
      const x = (paint % width) + b;
      const y = height - 1 - Math.floor(paint / width);
      if (x < width && y >= 0) on[y * width + x] = file[i]! & (0x80 >> b) ? 1 : 0;
    }
  }
  return { width, height, on };
}

function pngOnBits(file: Buffer): OnBits {
  const png = PNG.sync.read(file);
  const on = new Uint8Array(png.width * png.height);
  for (let p = 0; p < on.length; p++) {
    const d = png.data;
    on[p] = ((d[p * 4]! >> 2) + (d[p * 4 + 1]! >> 1) + (d[p * 4 + 2]! >> 2)) & 0x80 ? 1 : 0;
  }
  return { width: png.width, height: png.height, on };
}

/** The glass after the draw call, as a 1-bit BMP (black where the e-paper is black); throws what the decoder logs. */
export function esphomeGlass(file: Buffer, format: 'bmp' | 'png', draw: DrawCall): Buffer {
  const img = format === 'bmp' ? bmpOnBits(file) : pngOnBits(file);
  // encodeBmp1: 0 is black. Black where the colour painted is the driver's black.
  const black: EsphomeColour = draw.driver === 'epaper_spi' ? 'COLOR_OFF' : 'COLOR_ON';
  const bits = img.on.map((v) => ((v ? draw.colorOn : draw.colorOff) === black ? 0 : 1));
  return encodeBmp1({ width: img.width, height: img.height, bits });
}
