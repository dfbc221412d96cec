import { PNG } from 'pngjs';

/**
 * What an ESPHome device shows of a frame, by ESPHome's rules, written for the tests from its sources (not our
 * encoder's code). A BINARY online_image holds one "on" bit a pixel; the display lambda then paints "on" pixels in
 * color_on and the others in color_off (esphome/components/image/image.cpp Image::draw). The two e-paper drivers
 * disagree on what COLOR_ON (255,255,255) is: waveshare_epaper shows it black (waveshare_epaper.cpp "flip logic": an
 * "on" colour clears the buffer bit, and a clear bit is black); epaper_spi shows it white (epaper_spi.h
 * color_to_bit: r+g+b > 512 is 1, and its buffer is 1 = white, epaper_spi_uc8179.cpp; clear() fills COLOR_ON).
 */

/** One pixel of a BINARY image: "on" or not, row-major. */
export interface OnBits {
  width: number;
  height: number;
  on: Uint8Array;
}

/**
 * esphome/components/runtime_image/bmp_decoder.cpp, 1 bit a pixel: the header's little-endian width, height (rows
 * bottom-up: y = height - 1 - row), bits per pixel and compression (0 only); then from the data offset every byte is
 * 8 pixels, most significant bit first, a set bit COLOR_ON whatever the palette; the decoder counts pixels 8 a byte
 * and does NOT skip a row's padding to 4 bytes. A pixel outside the image is dropped (runtime_image.cpp
 * draw_pixel's bounds check).
 */
export function esphomeBmpBinary(file: Buffer): OnBits {
  if (file.toString('ascii', 0, 2) !== 'BM') throw new Error('Not a BMP file');
  const offset = file.readUInt32LE(10);
  const width = file.readUInt32LE(18);
  const height = file.readUInt32LE(22);
  const bpp = file.readUInt16LE(28);
  if (bpp !== 1 || file.readUInt32LE(30) !== 0) throw new Error(`unsupported BMP: ${bpp} bpp`);
  const on = new Uint8Array(width * height);
  let paint = 0;
  for (let i = offset; i < file.length; i++) {
    const byte = file[i]!;
    for (let b = 0; b < 8; b++) {
      const x = (paint % width) + b;
      const y = height - 1 - Math.floor(paint / width);
      if (x < width && y >= 0 && y < height) on[y * width + x] = byte & (0x80 >> b) ? 1 : 0;
    }
    paint += 8;
  }
  return { width, height, on };
}

/**
 * esphome/components/runtime_image/png_decoder.cpp hands each pixel's RGBA to runtime_image.cpp draw_pixel; for a
 * BINARY image a pixel is "on" when is_color_on(): ((r >> 2) + (g >> 1) + (b >> 2)) & 0x80 (bright is on). With
 * the default transparency OPAQUE the alpha is not looked at. pngjs stands in for pngle (both give RGBA).
 */
export function esphomePngBinary(file: Buffer): OnBits {
  const png = PNG.sync.read(file);
  const on = new Uint8Array(png.width * png.height);
  for (let p = 0; p < on.length; p++) {
    const r = png.data[p * 4]!;
    const g = png.data[p * 4 + 1]!;
    const b = png.data[p * 4 + 2]!;
    on[p] = ((r >> 2) + (g >> 1) + (b >> 2)) & 0x80 ? 1 : 0;
  }
  return { width: png.width, height: png.height, on };
}

/** The colours a YAML's `it.image(x, y, id(img), color_on, color_off)` passes; both default to COLOR_ON / COLOR_OFF. */
export type Colour = 'COLOR_ON' | 'COLOR_OFF';

export type Platform = 'epaper_spi' | 'waveshare_epaper';

/** The glass after the draw call on that driver: 1 where it is black. */
export function glassBlack(img: OnBits, colorOn: Colour, colorOff: Colour, platform: Platform): Uint8Array {
  const black: Colour = platform === 'epaper_spi' ? 'COLOR_OFF' : 'COLOR_ON';
  return img.on.map((v) => ((v ? colorOn : colorOff) === black ? 1 : 0));
}

/** Our frame decoded by pngjs: 1 where it is black (dark), row-major. */
export function frameBlack(png: Buffer): { width: number; height: number; black: Uint8Array } {
  const p = PNG.sync.read(png);
  const black = new Uint8Array(p.width * p.height);
  for (let i = 0; i < black.length; i++)
    black[i] = p.data[i * 4]! + p.data[i * 4 + 1]! + p.data[i * 4 + 2]! < 384 ? 1 : 0;
  return { width: p.width, height: p.height, black };
}

/** The draw call of a YAML's display lambda, `it.image(0, 0, id(x)[, ON, OFF])`. */
export function drawCall(lambda: string): { colorOn: Colour; colorOff: Colour } {
  const m =
    /it\.image\(\s*0\s*,\s*0\s*,\s*id\(\w+\)\s*(?:,\s*(COLOR_ON|COLOR_OFF)\s*,\s*(COLOR_ON|COLOR_OFF)\s*)?\)/.exec(
      lambda,
    );
  if (m === null) throw new Error(`no it.image call in ${lambda}`);
  return { colorOn: (m[1] as Colour | undefined) ?? 'COLOR_ON', colorOff: (m[2] as Colour | undefined) ?? 'COLOR_OFF' };
}
