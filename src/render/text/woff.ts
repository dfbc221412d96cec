import { inflateSync } from 'node:zlib';

/**
 * WOFF 1 to a plain TrueType (sfnt) buffer: WOFF is an sfnt whose tables are each zlib-compressed (or stored),
 * so node:zlib undoes it table by table. The fallback fonts of the @fontsource packages ship as WOFF 1 (and
 * WOFF 2, which needs Brotli plus a glyf transform: not read). A buffer that is already sfnt is returned as is.
 */
export function sfntFromWoff(buf: Buffer): Buffer {
  if (buf.toString('latin1', 0, 4) !== 'wOFF') return buf;
  const flavor = buf.readUInt32BE(4);
  const numTables = buf.readUInt16BE(12);
  const tables: { tag: Buffer; checksum: number; data: Buffer }[] = [];
  for (let i = 0; i < numTables; i++) {
    const rec = 44 + i * 20;
    const offset = buf.readUInt32BE(rec + 4);
    const compLength = buf.readUInt32BE(rec + 8);
    const origLength = buf.readUInt32BE(rec + 12);
    const raw = buf.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(raw) : raw;
    if (data.length !== origLength)
      throw new Error(
        `WOFF table ${buf.toString('latin1', rec, rec + 4)} inflates to ${data.length} bytes, not ${origLength}`,
      );
    tables.push({ tag: buf.subarray(rec, rec + 4), checksum: buf.readUInt32BE(rec + 16), data });
  }
  const dirEnd = 12 + numTables * 16;
  const padded = (n: number): number => (n + 3) & ~3;
  const out = Buffer.alloc(dirEnd + tables.reduce((s, t) => s + padded(t.data.length), 0));
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  let at = dirEnd;
  tables.forEach((t, i) => {
    const rec = 12 + i * 16;
    t.tag.copy(out, rec);
    out.writeUInt32BE(t.checksum, rec + 4);
    out.writeUInt32BE(at, rec + 8);
    out.writeUInt32BE(t.data.length, rec + 12);
    t.data.copy(out, at);
    at += padded(t.data.length);
  });
  return out;
}
