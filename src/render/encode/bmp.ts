import { packRow } from './pack.js';

/**
 * 1-bit BMP (BITMAPINFOHEADER, 2-entry palette: 0 black, 1 white), as e-ink firmware such as TRMNL reads it:
 * a 62-byte header, rows bottom-up, each padded to 4 bytes. 800x480 is 62 + 48,000 = 48,062 bytes.
 */

export interface BmpImage {
  width: number;
  height: number;
  /** One value a pixel, row-major: 0 black, anything else white (or pass `white` to name the white value). */
  bits: Uint8Array;
  white?: number;
  /** Pixels per metre written to the header (0 if unknown). */
  pixelsPerMetre?: number;
}

const BMP_HEADER_BYTES = 62;

export function encodeBmp1(img: BmpImage): Buffer {
  const { width, height, bits } = img;
  if (bits.length !== width * height) throw new Error(`encodeBmp1: ${bits.length} pixels for ${width}x${height}`);
  const stride = Math.ceil(width / 32) * 4;
  const size = BMP_HEADER_BYTES + stride * height;
  const out = Buffer.alloc(size);
  out.write('BM', 0, 'ascii');
  out.writeUInt32LE(size, 2);
  out.writeUInt32LE(0, 6); // reserved
  out.writeUInt32LE(BMP_HEADER_BYTES, 10); // offset of the pixels
  out.writeUInt32LE(40, 14); // BITMAPINFOHEADER
  out.writeInt32LE(width, 18);
  out.writeInt32LE(height, 22); // positive: bottom-up
  out.writeUInt16LE(1, 26); // planes
  out.writeUInt16LE(1, 28); // bits a pixel
  out.writeUInt32LE(0, 30); // BI_RGB
  out.writeUInt32LE(stride * height, 34);
  const ppm = Math.round(img.pixelsPerMetre ?? 0);
  out.writeInt32LE(ppm, 38);
  out.writeInt32LE(ppm, 42);
  out.writeUInt32LE(2, 46); // colours used
  out.writeUInt32LE(2, 50); // important colours
  out.writeUInt32LE(0x00000000, 54); // palette 0: black (B, G, R, 0)
  out.writeUInt32LE(0x00ffffff, 58); // palette 1: white
  const lut = Uint8Array.from({ length: 256 }, (_, v) =>
    img.white === undefined ? (v ? 1 : 0) : v === img.white ? 1 : 0,
  );
  for (let y = 0; y < height; y++)
    packRow(bits, y * width, width, 1, lut, out, BMP_HEADER_BYTES + (height - 1 - y) * stride);
  return out;
}
