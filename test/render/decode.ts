import { PNG } from 'pngjs';
import { hexToRgb, type PanelProfile } from '../../src/panels/panels.js';

/** Test helpers: read files back with decoders that are not ours. */

export interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  /** RGBA, 8 bits a channel, as pngjs gives it. */
  data: Buffer;
}

export function decodePng(buf: Buffer): DecodedPng {
  const png = PNG.sync.read(buf);
  // pngjs reports the file's own header fields in its metadata
  const meta = png as unknown as { depth?: number; colorType?: number };
  return {
    width: png.width,
    height: png.height,
    bitDepth: meta.depth ?? buf[24]!,
    colorType: meta.colorType ?? buf[25]!,
    data: png.data,
  };
}

/** IHDR fields read straight from the bytes. */
export function pngHeader(buf: Buffer): { width: number; height: number; bitDepth: number; colourType: number } {
  if (buf.subarray(12, 16).toString('ascii') !== 'IHDR') throw new Error('no IHDR');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20), bitDepth: buf[24]!, colourType: buf[25]! };
}

/** Pixel colours that are not in the palette (at most `limit` of them). */
export function offPalette(decoded: Pick<DecodedPng, 'data'>, panel: PanelProfile, limit = 5): string[] {
  // Colours as 24-bit numbers: a string a pixel would take seconds on the large panels.
  const colours = new Set(panel.palette.map((e) => hexToRgb(e.rgb).reduce((n, c) => (n << 8) | c, 0)));
  const bad: string[] = [];
  const d = decoded.data;
  for (let i = 0; i < d.length && bad.length < limit; i += 4) {
    if (!colours.has((d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!) || d[i + 3] !== 255)
      bad.push(`${d[i]},${d[i + 1]},${d[i + 2]},${d[i + 3]} at ${i / 4}`);
  }
  return bad;
}

/** A minimal BMP reader for 1-bit files: header fields and pixel bits (1 = palette entry 1). */
export function readBmp1(buf: Buffer): {
  width: number;
  height: number;
  bitsPerPixel: number;
  offset: number;
  palette: number[];
  pixel(x: number, y: number): number;
} {
  if (buf.toString('ascii', 0, 2) !== 'BM') throw new Error('not a BMP');
  const width = buf.readInt32LE(18);
  const height = buf.readInt32LE(22);
  const bitsPerPixel = buf.readUInt16LE(28);
  const offset = buf.readUInt32LE(10);
  const stride = Math.ceil((width * bitsPerPixel) / 32) * 4;
  const palette = [buf.readUInt32LE(54), buf.readUInt32LE(58)];
  return {
    width,
    height,
    bitsPerPixel,
    offset,
    palette,
    pixel: (x, y) => (buf[offset + (height - 1 - y) * stride + (x >> 3)]! >> (7 - (x & 7))) & 1,
  };
}
