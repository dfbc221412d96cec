import { crc32 } from 'node:zlib';
import type { GlyphBitmap } from './glyph-bitmap.js';

/**
 * Glyph bitmaps as bytes, for the one-shot commands' cache of them on disk (render/glyph-disk-cache.ts). The file
 * is read back only when it is whole and was written for the same `stamp` (the build and the font files): a stale,
 * torn or foreign file decodes to null, and the glyphs are drawn afresh. Pure.
 *
 * Layout, little-endian: "ODGLYPH1", u32 stamp length, the stamp (UTF-8), u32 count, then per glyph: u16 key length,
 * the key (UTF-8), i32 left, i32 top, u16 width, u16 height, `bits` then `cover` (width x height bytes each); last a
 * u32 CRC-32 of everything before it.
 */

const MAGIC = Buffer.from('ODGLYPH1', 'latin1');

export function encodeGlyphs(stamp: string, glyphs: Iterable<readonly [string, GlyphBitmap]>): Buffer {
  const parts: Buffer[] = [MAGIC];
  const u32 = (n: number): Buffer => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  const stampBytes = Buffer.from(stamp, 'utf8');
  parts.push(u32(stampBytes.length), stampBytes);
  const countAt = parts.push(u32(0)) - 1;
  let count = 0;
  for (const [key, bm] of glyphs) {
    const keyBytes = Buffer.from(key, 'utf8');
    // Not storable (never so on a frame): left to be drawn again.
    if (keyBytes.length > 0xffff || bm.width > 0xffff || bm.height > 0xffff) continue;
    const head = Buffer.alloc(2 + keyBytes.length + 12);
    head.writeUInt16LE(keyBytes.length, 0);
    keyBytes.copy(head, 2);
    let at = 2 + keyBytes.length;
    at = head.writeInt32LE(bm.left, at);
    at = head.writeInt32LE(bm.top, at);
    at = head.writeUInt16LE(bm.width, at);
    head.writeUInt16LE(bm.height, at);
    const bytes = (a: Uint8Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    parts.push(head, bytes(bm.bits), bytes(bm.cover));
    count++;
  }
  parts[countAt] = u32(count);
  const body = Buffer.concat(parts);
  return Buffer.concat([body, u32(crc32(body))]);
}

/** The glyphs of an encoded file, or null when it is not one whole file written for `stamp`. */
export function decodeGlyphs(file: Buffer, stamp: string): Map<string, GlyphBitmap> | null {
  if (file.length < MAGIC.length + 12 || !file.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  const body = file.subarray(0, file.length - 4);
  if (crc32(body) !== file.readUInt32LE(file.length - 4)) return null;
  let at = MAGIC.length;
  const stampLength = body.readUInt32LE(at);
  at += 4;
  if (at + stampLength + 4 > body.length || body.toString('utf8', at, at + stampLength) !== stamp) return null;
  at += stampLength;
  const count = body.readUInt32LE(at);
  at += 4;
  const glyphs = new Map<string, GlyphBitmap>();
  for (let i = 0; i < count; i++) {
    if (at + 2 > body.length) return null;
    const keyLength = body.readUInt16LE(at);
    at += 2;
    if (at + keyLength + 12 > body.length) return null;
    const key = body.toString('utf8', at, at + keyLength);
    at += keyLength;
    const left = body.readInt32LE(at);
    const top = body.readInt32LE(at + 4);
    const width = body.readUInt16LE(at + 8);
    const height = body.readUInt16LE(at + 10);
    at += 12;
    const n = width * height;
    if (at + 2 * n > body.length) return null;
    // Copies (the typed-array constructor copies a typed array whole, where `Uint8Array.from` walks it as an
    // iterable): a bitmap outlives the file's buffer, and keeps only its own bytes.
    const bits = new Uint8Array(body.subarray(at, at + n));
    const cover = new Uint8Array(body.subarray(at + n, at + 2 * n));
    at += 2 * n;
    glyphs.set(key, { left, top, width, height, bits, cover });
  }
  return at === body.length ? glyphs : null;
}
