import { deflateSync, constants, crc32 as zlibCrc32 } from 'node:zlib';
import { IDENTITY, packRow } from './pack.js';

/**
 * A small PNG writer over node:zlib: greyscale at 1, 2, 4 or 8 bits and indexed colour at 1, 2, 4 or 8 bits,
 * non-interlaced. Output is deterministic for a given input (fixed zlib settings, no timestamps).
 */

export interface PngImage {
  width: number;
  height: number;
  colourType: 'grey' | 'indexed';
  bitDepth: 1 | 2 | 4 | 8;
  /** One sample a pixel, row-major: the grey value at `bitDepth`, or the palette index. */
  samples: Uint8Array;
  /** RGB entries for indexed images. */
  palette?: readonly (readonly [number, number, number])[];
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** CRC-32 of the parts in order (PNG's chunk checksum): Node's zlib.crc32, continued across the parts. */
export function crc32(...parts: Uint8Array[]): number {
  return parts.reduce((c, buf) => zlibCrc32(buf, c), 0);
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(head.subarray(4), data), 0);
  return Buffer.concat([head, data, crc]);
}

/** Packs samples into PNG scanlines, each preceded by its filter-type byte. */
function scanlines(img: PngImage): Buffer {
  const { width, height, bitDepth, samples } = img;
  const stride = Math.ceil((width * bitDepth) / 8);
  const out = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) packRow(samples, y * width, width, bitDepth, IDENTITY, out, y * (stride + 1) + 1);
  if (bitDepth === 8 && img.colourType === 'grey') applyFilters(out, stride, height);
  return out;
}

/**
 * Adaptive filtering (per row the filter with the smallest sum of absolute values, the PNG spec's heuristic),
 * for 8-bit grey only: the spec recommends no filter for indexed and sub-byte images.
 */
function applyFilters(buf: Buffer, stride: number, height: number): void {
  const raw = Buffer.from(buf);
  const cand = Buffer.alloc(stride);
  const best = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const cur = y * (stride + 1) + 1;
    const prev = y > 0 ? (y - 1) * (stride + 1) + 1 : -1;
    let bestSum = Infinity;
    let bestType = 0;
    for (let type = 0; type < 5; type++) {
      let sum = 0;
      for (let i = 0; i < stride; i++) {
        const x = raw[cur + i]!;
        const a = i > 0 ? raw[cur + i - 1]! : 0;
        const b = prev >= 0 ? raw[prev + i]! : 0;
        const c = prev >= 0 && i > 0 ? raw[prev + i - 1]! : 0;
        let v: number;
        if (type === 0) v = x;
        else if (type === 1) v = x - a;
        else if (type === 2) v = x - b;
        else if (type === 3) v = x - ((a + b) >> 1);
        else v = x - paeth(a, b, c);
        v &= 0xff;
        cand[i] = v;
        sum += v < 128 ? v : 256 - v;
        if (sum >= bestSum) break;
      }
      if (sum < bestSum) {
        bestSum = sum;
        bestType = type;
        cand.copy(best);
      }
    }
    buf[cur - 1] = bestType;
    best.copy(buf, cur);
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

export function encodePng(img: PngImage): Buffer {
  const { width, height, bitDepth, colourType, samples } = img;
  if (samples.length !== width * height) throw new Error(`encodePng: ${samples.length} samples for ${width}x${height}`);
  const max = 2 ** bitDepth - 1;
  for (let i = 0; i < samples.length; i++) {
    if (samples[i]! > max) throw new Error(`encodePng: sample ${samples[i]} at ${i} exceeds ${bitDepth} bits`);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colourType === 'grey' ? 0 : 3;
  ihdr[10] = 0; // deflate
  ihdr[11] = 0; // adaptive filtering
  ihdr[12] = 0; // no interlace
  const chunks = [SIGNATURE, chunk('IHDR', ihdr)];
  if (colourType === 'indexed') {
    const pal = img.palette ?? [];
    if (pal.length === 0 || pal.length > 2 ** bitDepth)
      throw new Error(`encodePng: ${pal.length} palette entries for ${bitDepth} bits`);
    const plte = Buffer.alloc(pal.length * 3);
    pal.forEach(([r, g, b], i) => plte.set([r, g, b], i * 3));
    chunks.push(chunk('PLTE', plte));
  }
  const raw = scanlines(img);
  // Level 6, not 9: on our frames 9 saves a few per cent of the bytes for many times the time, a large part of a
  // warm frame's render, for bytes that a device on Wi-Fi does not notice.
  const data = deflateSync(raw, { level: 6, memLevel: 9, strategy: constants.Z_DEFAULT_STRATEGY });
  chunks.push(chunk('IDAT', data), chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(chunks);
}
