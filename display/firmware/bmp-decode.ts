import { ImageError } from './image-error.js';

/**
 * The device's 1-bit BMP reader, with the TRMNL firmware's checks: `BM`, the expected width and height (a negative
 * height is top-down), 1 bit a pixel, no compression, a pixel size of exactly rows x stride, 2 palette entries that
 * are black and white (either order), and pixel data inside the file.
 */

export interface DecodedBmp {
  width: number;
  height: number;
  /** One value a pixel, row-major top-down: 0 black, 1 white (after the palette). */
  bits: Uint8Array;
}

export function isBmp(buf: Uint8Array): boolean {
  return buf.length >= 2 && buf[0] === 0x42 && buf[1] === 0x4d;
}

export function decodeBmp1(buf: Buffer, expectedWidth: number, expectedHeight: number): DecodedBmp {
  if (!isBmp(buf)) throw new ImageError('BMP_NOT_BMP', 'First two header bytes are invalid!');
  if (buf.length < 62) throw new ImageError('BMP_BAD_SIZE', 'BMP width, height or size are invalid');
  const offset = buf.readUInt32LE(10);
  const headerSize = buf.readUInt32LE(14);
  const width = buf.readInt32LE(18);
  const signedHeight = buf.readInt32LE(22);
  const height = Math.abs(signedHeight);
  const bpp = buf.readUInt16LE(28);
  const compression = buf.readUInt32LE(30);
  const stride = Math.ceil(width / 32) * 4;
  const dataSize = buf.readUInt32LE(34);
  const colours = buf.readUInt32LE(46) || 2;
  if (
    width !== expectedWidth ||
    height !== expectedHeight ||
    bpp !== 1 ||
    compression !== 0 ||
    colours !== 2 ||
    dataSize !== stride * height
  ) {
    throw new ImageError('BMP_BAD_SIZE', 'BMP width, height or size are invalid');
  }
  const paletteAt = 14 + headerSize;
  if (headerSize < 40 || paletteAt + 8 > buf.length || offset < paletteAt + 8 || offset + dataSize > buf.length) {
    throw new ImageError('BMP_INVALID_OFFSET', 'BMP header offset is invalid');
  }
  const lum = (i: number): number =>
    buf[paletteAt + i * 4]! + buf[paletteAt + i * 4 + 1]! + buf[paletteAt + i * 4 + 2]!;
  const [p0, p1] = [lum(0), lum(1)];
  if (!((p0 === 0 && p1 === 765) || (p0 === 765 && p1 === 0))) {
    throw new ImageError('BMP_COLOR_SCHEME_FAILED', 'BMP color scheme is invalid');
  }
  const one = p1 === 765 ? 1 : 0;
  const bits = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = offset + (signedHeight > 0 ? height - 1 - y : y) * stride;
    for (let x = 0; x < width; x++) {
      const bit = (buf[row + (x >> 3)]! >> (7 - (x & 7))) & 1;
      bits[y * width + x] = bit === one ? 1 : 0;
    }
  }
  return { width, height, bits };
}
