import { inflateSync, crc32 } from 'node:zlib';
import { ImageError } from './image-error.js';

/**
 * The device's PNG decoder, written apart from the daemon's encoder (sharing none of its code), so that a
 * frame the encoder got wrong cannot be decoded "right" by the same mistake. Non-interlaced PNG of every colour type
 * and depth; every chunk's CRC is checked; inflate is bounded by the size the header promises.
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

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** A device with 320 KB of RAM decodes nothing bigger. */
const MAX_SIDE = 4096;

function crcOf(buf: Uint8Array, start: number, end: number): number {
  return crc32(buf.subarray(start, end));
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

function fail(detail: string): never {
  throw new ImageError('PNG_DECODE_ERR', `could not decode png image (${detail})`);
}

export function isPng(buf: Uint8Array): boolean {
  return buf.length >= 8 && SIGNATURE.every((b, i) => buf[i] === b);
}

export function decodePng(buf: Buffer): DecodedPng {
  if (!isPng(buf)) throw new ImageError('PNG_WRONG_FORMAT', 'Wrong image format. Did not pass signature check');
  let pos = 8;
  let ihdr: { width: number; height: number; bitDepth: number; colourType: number } | null = null;
  let palette: Uint8Array | null = null;
  let trns: Uint8Array | null = null;
  const idat: Buffer[] = [];
  let ended = false;
  while (!ended) {
    if (pos + 12 > buf.length) fail('truncated chunk');
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    if (len > 0x7fffffff || pos + 12 + len > buf.length) fail(`chunk ${type} runs past the end`);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (crcOf(buf, pos + 4, pos + 8 + len) !== buf.readUInt32BE(pos + 8 + len)) fail(`bad CRC in ${type}`);
    pos += 12 + len;
    if (ihdr === null && type !== 'IHDR') fail('IHDR is not the first chunk');
    switch (type) {
      case 'IHDR': {
        if (len !== 13 || ihdr !== null) fail('bad IHDR');
        const [bitDepth, colourType, compression, filter, interlace] = [data[8]!, data[9]!, data[10]!, data[11]!, data[12]!];
        ihdr = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), bitDepth, colourType };
        if (!DEPTHS[colourType]?.includes(bitDepth)) fail(`colour type ${colourType} at ${bitDepth} bits`);
        if (compression !== 0 || filter !== 0) fail('unknown compression or filter method');
        if (interlace !== 0) fail('interlaced images are not supported');
        if (ihdr.width === 0 || ihdr.height === 0) throw new ImageError('PNG_BAD_SIZE', 'IMAGE width, height or size are invalid');
        if (ihdr.width > MAX_SIDE || ihdr.height > MAX_SIDE) throw new ImageError('PNG_MALLOC_FAILED', 'could not allocate memory for png image decoder');
        break;
      }
      case 'PLTE':
        if (len % 3 !== 0 || len === 0 || len > 768) fail('bad palette');
        palette = data;
        break;
      case 'tRNS':
        trns = data;
        break;
      case 'IDAT':
        idat.push(data);
        break;
      case 'IEND':
        ended = true;
        break;
      default:
        // An unknown critical chunk (upper-case first letter) cannot be skipped.
        if (type.charCodeAt(0) < 97) fail(`unknown critical chunk ${type}`);
    }
  }
  if (ihdr === null) fail('no IHDR');
  if (idat.length === 0) fail('no image data');
  if (ihdr.colourType === 3 && palette === null) fail('indexed image without a palette');
  const { width, height, bitDepth, colourType } = ihdr;
  const channels = CHANNELS[colourType]!;
  const bpp = Math.max(1, (channels * bitDepth) >> 3);
  const stride = Math.ceil((width * channels * bitDepth) / 8);
  const expected = (stride + 1) * height;
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
  } catch (err) {
    fail(`zlib: ${(err as Error).message}`);
  }
  if (raw.length !== expected) fail(`image data is ${raw.length} bytes, the header promises ${expected}`);
  const lines = unfilter(raw, stride, height, bpp);
  return { width, height, bitDepth, colourType, rgb: toRgb(lines, ihdr, stride, palette, trns) };
}

function unfilter(raw: Buffer, stride: number, height: number, bpp: number): Uint8Array {
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)]!;
    const src = y * (stride + 1) + 1;
    const dst = y * stride;
    for (let i = 0; i < stride; i++) {
      const x = raw[src + i]!;
      const a = i >= bpp ? out[dst + i - bpp]! : 0;
      const b = y > 0 ? out[dst - stride + i]! : 0;
      const c = y > 0 && i >= bpp ? out[dst - stride + i - bpp]! : 0;
      let v: number;
      switch (f) {
        case 0: v = x; break;
        case 1: v = x + a; break;
        case 2: v = x + b; break;
        case 3: v = x + ((a + b) >> 1); break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          v = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
          break;
        }
        default:
          fail(`unknown filter type ${f} on row ${y}`);
      }
      out[dst + i] = v & 0xff;
    }
  }
  return out;
}

function toRgb(
  lines: Uint8Array,
  h: { width: number; height: number; bitDepth: number; colourType: number },
  stride: number,
  palette: Uint8Array | null,
  trns: Uint8Array | null,
): Uint8Array {
  const { width, height, bitDepth: d, colourType: ct } = h;
  const channels = CHANNELS[ct]!;
  const rgb = new Uint8Array(width * height * 3);
  const max = 2 ** Math.min(d, 8) - 1;
  /** Sample `k` of pixel `x` on row `y`, scaled to 8 bits (16-bit samples keep their high byte). */
  const sample = (y: number, x: number, k: number): number => {
    const row = y * stride;
    if (d === 16) return lines[row + (x * channels + k) * 2]!;
    if (d === 8) return lines[row + x * channels + k]!;
    const bit = x * d;
    const v = (lines[row + (bit >> 3)]! >> (8 - d - (bit & 7))) & max;
    return ct === 3 ? v : Math.round((v * 255) / max);
  };
  const over = (v: number, alpha: number): number => Math.round((v * alpha + 255 * (255 - alpha)) / 255);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      let r: number, g: number, b: number, a = 255;
      if (ct === 3) {
        const i = sample(y, x, 0);
        if (i * 3 + 2 >= palette!.length) fail(`palette index ${i} out of range`);
        [r, g, b] = [palette![i * 3]!, palette![i * 3 + 1]!, palette![i * 3 + 2]!];
        if (trns !== null && i < trns.length) a = trns[i]!;
      } else if (ct === 0 || ct === 4) {
        r = g = b = sample(y, x, 0);
        if (ct === 4) a = sample(y, x, 1);
      } else {
        [r, g, b] = [sample(y, x, 0), sample(y, x, 1), sample(y, x, 2)];
        if (ct === 6) a = sample(y, x, 3);
      }
      rgb[o] = over(r, a);
      rgb[o + 1] = over(g, a);
      rgb[o + 2] = over(b, a);
    }
  }
  return rgb;
}
