import { closeSync, openSync, readSync } from 'node:fs';
import { TrueTypeFont } from './ttf.js';

/**
 * A TrueType file opened for the daemon's life without holding all of it: the tables ttf.ts reads for metrics,
 * the character map and kerning stay in memory (a small part of a DejaVu face), and glyph outlines (the glyf
 * table, three quarters of the file) are read from disk when a glyph is first drawn, which font-stack.ts then
 * keeps: an idle daemon need not hold four whole faces.
 *
 * The file stays open: a package upgrade that replaces it under a running daemon leaves this one reading the file
 * it opened, whose offsets it knows, and not the new one's.
 *
 * A TrueType collection (.ttc, as Debian's WenQuanYi CJK fonts come) is read as its first font: a collection's
 * table offsets count from the start of the file, as a lone font's do, so only where its directory is differs.
 */

/** The tables ttf.ts reads, but glyf (read glyph by glyph). */
const KEPT = new Set(['cmap', 'head', 'hhea', 'hmtx', 'kern', 'loca', 'maxp', 'OS/2']);

export function openFontFile(path: string): TrueTypeFont {
  const fd = openSync(path, 'r');
  const read = (offset: number, length: number): Buffer => {
    const b = Buffer.alloc(length);
    const got = readSync(fd, b, 0, length, offset);
    if (got !== length) throw new Error(`${path}: the font file ends before byte ${offset + length}`);
    return b;
  };
  try {
    const start = read(0, 12);
    // A collection: "ttcf", its version, the number of fonts, then each font's offset (the first is read).
    const fontAt = start.toString('latin1', 0, 4) === 'ttcf' ? read(12, 4).readUInt32BE(0) : 0;
    const header = fontAt === 0 ? start : read(fontAt, 12);
    const count = header.readUInt16BE(4);
    const dir = read(fontAt + 12, count * 16);
    const entries = Array.from({ length: count }, (_, i) => ({
      tag: dir.toString('latin1', i * 16, i * 16 + 4),
      record: dir.subarray(i * 16, i * 16 + 16),
      offset: dir.readUInt32BE(i * 16 + 8),
      length: dir.readUInt32BE(i * 16 + 12),
    }));
    const glyf = entries.find((e) => e.tag === 'glyf');
    if (!glyf) throw new Error(`${path}: not a TrueType font with outlines (no glyf table)`);
    const kept = entries.filter((e) => KEPT.has(e.tag));
    // A font of its own: the header, a directory of the kept tables and glyf, then the kept tables, 4-byte aligned.
    // glyf's entry keeps its offset in the file, where ttf.ts reads outlines through `read`.
    const listed = [...kept, glyf];
    let at = 12 + listed.length * 16;
    const placed = kept.map((e) => {
      const offset = at;
      at += (e.length + 3) & ~3;
      return { ...e, placed: offset };
    });
    const font = Buffer.alloc(at);
    header.copy(font, 0, 0, 4);
    font.writeUInt16BE(listed.length, 4);
    [...placed, { ...glyf, placed: glyf.offset }].forEach((e, i) => {
      e.record.copy(font, 12 + i * 16);
      font.writeUInt32BE(e.placed, 12 + i * 16 + 8);
    });
    for (const e of placed) read(e.offset, e.length).copy(font, e.placed);
    return new TrueTypeFont(font, { glyf: read });
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}
