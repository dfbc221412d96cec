import { PNG } from 'pngjs';
import { ImageError } from './image-error.js';

/**
 * The device's PNG decoding: the firmware's own checks (signature, IHDR first, size and format limits, each with the
 * firmware's error code) in front of pngjs, which does the decoding. pngjs shares no code with the daemon's encoder,
 * so a frame the encoder got wrong cannot be decoded "right" by the same mistake; it checks every chunk's CRC and
 * bounds inflate by the size the header promises.
 */

export interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  /** 0 grey, 2 RGB, 3 indexed, 4 grey + alpha, 6 RGBA. */
  colourType: number;
  /** 3 bytes a pixel, alpha composited over white. */
  rgb: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A device with 320 KB of RAM decodes nothing bigger. */
const MAX_SIDE = 4096;

const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

function fail(detail: string): never {
  throw new ImageError('PNG_DECODE_ERR', `could not decode png image (${detail})`);
}

export function isPng(buf: Uint8Array): boolean {
  return buf.length >= 8 && SIGNATURE.equals(buf.subarray(0, 8));
}

interface Header {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
}

/** The IHDR chunk, which must come first, checked against what the firmware accepts before anything is inflated. */
function readHeader(buf: Buffer): Header {
  if (buf.length < 8 + 8 + 13 + 4) fail('truncated chunk');
  if (buf.readUInt32BE(8) !== 13 || buf.toString('latin1', 12, 16) !== 'IHDR') fail('IHDR is not the first chunk');
  const h = { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20), bitDepth: buf[24]!, colourType: buf[25]! };
  const [compression, filter, interlace] = [buf[26]!, buf[27]!, buf[28]!];
  if (!DEPTHS[h.colourType]?.includes(h.bitDepth)) fail(`colour type ${h.colourType} at ${h.bitDepth} bits`);
  if (compression !== 0 || filter !== 0) fail('unknown compression or filter method');
  if (interlace !== 0) fail('interlaced images are not supported');
  if (h.width === 0 || h.height === 0) throw new ImageError('PNG_BAD_SIZE', 'IMAGE width, height or size are invalid');
  if (h.width > MAX_SIDE || h.height > MAX_SIDE)
    throw new ImageError('PNG_MALLOC_FAILED', 'could not allocate memory for png image decoder');
  return h;
}

export function decodePng(buf: Buffer): DecodedPng {
  if (!isPng(buf)) throw new ImageError('PNG_WRONG_FORMAT', 'Wrong image format. Did not pass signature check');
  const header = readHeader(buf);
  let rgba: Buffer;
  try {
    rgba = PNG.sync.read(buf, { checkCRC: true }).data;
  } catch (err) {
    fail((err as Error).message);
  }
  const pixels = header.width * header.height;
  if (rgba.length !== pixels * 4) fail(`image data is ${rgba.length} bytes, the header promises ${pixels * 4}`);
  const rgb = new Uint8Array(pixels * 3);
  const over = (v: number, alpha: number): number => Math.round((v * alpha + 255 * (255 - alpha)) / 255);
  for (let p = 0; p < pixels; p++) {
    const a = rgba[p * 4 + 3]!;
    rgb[p * 3] = over(rgba[p * 4]!, a);
    rgb[p * 3 + 1] = over(rgba[p * 4 + 1]!, a);
    rgb[p * 3 + 2] = over(rgba[p * 4 + 2]!, a);
  }
  return { ...header, rgb };
}
