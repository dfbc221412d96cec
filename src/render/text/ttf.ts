/**
 * A minimal, lazy TrueType reader: what drawing text needs and no more (cmap, hmtx, glyf/loca outlines with
 * composites, the `kern` table, a few metrics). A glyph is decoded when first asked for, so opening a font
 * costs a file read and a few lookups instead of parsing thousands of glyphs.
 */

export type PathCommand =
  | { type: 'M' | 'L'; x: number; y: number }
  | { type: 'Q'; x1: number; y1: number; x: number; y: number }
  | { type: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
  | { type: 'Z' };

interface Point {
  x: number;
  y: number;
  on: boolean;
}

/** `length` bytes of the font file from `offset`: for a font whose glyf table stays on disk (font-file.ts). */
export type GlyfReader = (offset: number, length: number) => Buffer;

export interface TrueTypeOptions {
  /**
   * Where glyph outlines are read from, glyph by glyph; the buffer's `glyf` entry then gives the table's offset in
   * the file, and the buffer need not hold it. Absent: the buffer is the whole font.
   */
  glyf?: GlyfReader;
}

export class TrueTypeFont {
  readonly unitsPerEm: number;
  readonly ascender: number;
  readonly descender: number;
  readonly capHeight: number;
  readonly numGlyphs: number;
  private readonly tables = new Map<string, { offset: number; length: number }>();
  private readonly numHMetrics: number;
  private readonly longLoca: boolean;
  private readonly cmap: (code: number) => number;
  private readonly kernPairs: { offset: number; count: number } | null;

  private readonly readGlyf: GlyfReader | null;

  constructor(
    private readonly buf: Buffer,
    opts: TrueTypeOptions = {},
  ) {
    this.readGlyf = opts.glyf ?? null;
    const n = buf.readUInt16BE(4);
    for (let i = 0; i < n; i++) {
      const rec = 12 + i * 16;
      this.tables.set(buf.toString('latin1', rec, rec + 4), {
        offset: buf.readUInt32BE(rec + 8),
        length: buf.readUInt32BE(rec + 12),
      });
    }
    const head = this.table('head');
    this.unitsPerEm = buf.readUInt16BE(head + 18);
    this.longLoca = buf.readInt16BE(head + 50) === 1;
    const hhea = this.table('hhea');
    this.ascender = buf.readInt16BE(hhea + 4);
    this.descender = buf.readInt16BE(hhea + 6);
    this.numHMetrics = buf.readUInt16BE(hhea + 34);
    this.numGlyphs = buf.readUInt16BE(this.table('maxp') + 4);
    const os2 = this.tables.get('OS/2');
    this.capHeight =
      os2 && buf.readUInt16BE(os2.offset) >= 2 ? buf.readInt16BE(os2.offset + 88) : Math.round(this.unitsPerEm * 0.73);
    this.cmap = this.readCmap();
    this.kernPairs = this.readKern();
  }

  private table(tag: string): number {
    const t = this.tables.get(tag);
    if (!t) throw new Error(`font has no ${tag} table`);
    return t.offset;
  }

  /** Glyph index of a code point; 0 (.notdef) when the font lacks it. */
  glyphIndex(codePoint: number): number {
    return this.cmap(codePoint);
  }

  advanceWidth(glyph: number): number {
    const hmtx = this.table('hmtx');
    const i = Math.min(glyph, this.numHMetrics - 1);
    return this.buf.readUInt16BE(hmtx + i * 4);
  }

  /** Kerning between two glyphs in font units, from the `kern` table (format 0). */
  kerning(left: number, right: number): number {
    const k = this.kernPairs;
    if (!k) return 0;
    const key = left * 65536 + right;
    let lo = 0;
    let hi = k.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = k.offset + mid * 6;
      const v = this.buf.readUInt16BE(at) * 65536 + this.buf.readUInt16BE(at + 2);
      if (v === key) return this.buf.readInt16BE(at + 4);
      if (v < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  /** The outline in font units, y up: quadratic contours as path commands. */
  path(glyph: number): PathCommand[] {
    const out: PathCommand[] = [];
    for (const contour of this.contours(glyph, 0)) contourPath(contour, out);
    return out;
  }

  private glyphRange(glyph: number): [number, number] {
    const loca = this.table('loca');
    const glyf = this.table('glyf');
    const b = this.buf;
    const [s, e] = this.longLoca
      ? [b.readUInt32BE(loca + glyph * 4), b.readUInt32BE(loca + glyph * 4 + 4)]
      : [b.readUInt16BE(loca + glyph * 2) * 2, b.readUInt16BE(loca + glyph * 2 + 2) * 2];
    return [glyf + s, glyf + e];
  }

  private contours(glyph: number, depth: number): Point[][] {
    if (glyph < 0 || glyph >= this.numGlyphs || depth > 8) return [];
    const [start, end] = this.glyphRange(glyph);
    if (end <= start) return [];
    // From the file, the glyph's bytes alone; else from the whole font in memory.
    const [b, at] = this.readGlyf ? [this.readGlyf(start, end - start), 0] : [this.buf, start];
    const nContours = b.readInt16BE(at);
    return nContours >= 0 ? this.simple(b, at, nContours) : this.composite(b, at + 10, depth);
  }

  private simple(b: Buffer, start: number, nContours: number): Point[][] {
    let p = start + 10;
    const ends: number[] = [];
    for (let i = 0; i < nContours; i++, p += 2) ends.push(b.readUInt16BE(p));
    const nPoints = nContours ? ends[nContours - 1]! + 1 : 0;
    p += 2 + b.readUInt16BE(p); // instructions
    const flags = new Uint8Array(nPoints);
    for (let i = 0; i < nPoints;) {
      const f = b[p++]!;
      flags[i++] = f;
      if (f & 8) for (let r = b[p++]!; r > 0 && i < nPoints; r--) flags[i++] = f;
    }
    const coords = (short: number, same: number): Int32Array => {
      const v = new Int32Array(nPoints);
      let c = 0;
      for (let i = 0; i < nPoints; i++) {
        const f = flags[i]!;
        if (f & short) c += f & same ? b[p++]! : -b[p++]!;
        else if (!(f & same)) {
          c += b.readInt16BE(p);
          p += 2;
        }
        v[i] = c;
      }
      return v;
    };
    const xs = coords(2, 16);
    const ys = coords(4, 32);
    const out: Point[][] = [];
    let first = 0;
    for (const last of ends) {
      const c: Point[] = [];
      for (let i = first; i <= last; i++) c.push({ x: xs[i]!, y: ys[i]!, on: (flags[i]! & 1) === 1 });
      out.push(c);
      first = last + 1;
    }
    return out;
  }

  private composite(b: Buffer, start: number, depth: number): Point[][] {
    const out: Point[][] = [];
    let p = start;
    for (;;) {
      const flags = b.readUInt16BE(p);
      const glyph = b.readUInt16BE(p + 2);
      p += 4;
      let dx = 0;
      let dy = 0;
      if (flags & 1) {
        dx = flags & 2 ? b.readInt16BE(p) : 0;
        dy = flags & 2 ? b.readInt16BE(p + 2) : 0;
        p += 4;
      } else {
        dx = flags & 2 ? b.readInt8(p) : 0;
        dy = flags & 2 ? b.readInt8(p + 1) : 0;
        p += 2;
      }
      let [a, bb, c, d] = [1, 0, 0, 1];
      const f2 = (at: number): number => b.readInt16BE(at) / 16384;
      if (flags & 8) {
        a = d = f2(p);
        p += 2;
      } else if (flags & 0x40) {
        a = f2(p);
        d = f2(p + 2);
        p += 4;
      } else if (flags & 0x80) {
        [a, bb, c, d] = [f2(p), f2(p + 2), f2(p + 4), f2(p + 6)];
        p += 8;
      }
      for (const contour of this.contours(glyph, depth + 1)) {
        out.push(contour.map((pt) => ({ x: a * pt.x + c * pt.y + dx, y: bb * pt.x + d * pt.y + dy, on: pt.on })));
      }
      if (!(flags & 0x20)) return out;
    }
  }

  private readCmap(): (code: number) => number {
    const b = this.buf;
    const cmap = this.table('cmap');
    const n = b.readUInt16BE(cmap + 2);
    let f4 = -1;
    let f12 = -1;
    for (let i = 0; i < n; i++) {
      const rec = cmap + 4 + i * 8;
      const platform = b.readUInt16BE(rec);
      const encoding = b.readUInt16BE(rec + 2);
      const sub = cmap + b.readUInt32BE(rec + 4);
      const format = b.readUInt16BE(sub);
      if (format === 12 && (platform === 0 || (platform === 3 && encoding === 10))) f12 = sub;
      if (format === 4 && (platform === 0 || (platform === 3 && encoding === 1))) f4 = sub;
    }
    if (f12 >= 0) {
      const groups = b.readUInt32BE(f12 + 12);
      return (code) => {
        let lo = 0;
        let hi = groups - 1;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          const g = f12 + 16 + mid * 12;
          if (code < b.readUInt32BE(g)) hi = mid - 1;
          else if (code > b.readUInt32BE(g + 4)) lo = mid + 1;
          else return b.readUInt32BE(g + 8) + code - b.readUInt32BE(g);
        }
        return 0;
      };
    }
    if (f4 < 0) throw new Error('font has no Unicode cmap');
    const segs = b.readUInt16BE(f4 + 6) / 2;
    const ends = f4 + 14;
    const starts = ends + segs * 2 + 2;
    const deltas = starts + segs * 2;
    const ranges = deltas + segs * 2;
    return (code) => {
      if (code > 0xffff) return 0;
      for (let i = 0; i < segs; i++) {
        if (b.readUInt16BE(ends + i * 2) < code) continue;
        const s = b.readUInt16BE(starts + i * 2);
        if (s > code) return 0;
        const delta = b.readInt16BE(deltas + i * 2);
        const ro = b.readUInt16BE(ranges + i * 2);
        if (ro === 0) return (code + delta) & 0xffff;
        const g = b.readUInt16BE(ranges + i * 2 + ro + (code - s) * 2);
        return g === 0 ? 0 : (g + delta) & 0xffff;
      }
      return 0;
    };
  }

  private readKern(): { offset: number; count: number } | null {
    const t = this.tables.get('kern');
    if (!t) return null;
    const b = this.buf;
    if (b.readUInt16BE(t.offset) !== 0) return null;
    const nTables = b.readUInt16BE(t.offset + 2);
    let sub = t.offset + 4;
    for (let i = 0; i < nTables; i++) {
      const length = b.readUInt16BE(sub + 2);
      const coverage = b.readUInt16BE(sub + 4);
      if (coverage >> 8 === 0 && (coverage & 1) === 1) return { offset: sub + 14, count: b.readUInt16BE(sub + 6) };
      sub += length;
    }
    return null;
  }
}

/** One TrueType contour (on- and off-curve points) as M / L / Q / Z commands. */
function contourPath(pts: Point[], out: PathCommand[]): void {
  const n = pts.length;
  if (n === 0) return;
  // Start at the last point if it is on the curve, else the first, else between them (as opentype.js does).
  const firstOn = pts[n - 1]!.on ? n - 1 : pts[0]!.on ? 0 : -1;
  let start: { x: number; y: number };
  let i0: number;
  if (firstOn >= 0) {
    start = pts[firstOn]!;
    i0 = firstOn;
  } else {
    const a = pts[0]!;
    const z = pts[n - 1]!;
    start = { x: (a.x + z.x) / 2, y: (a.y + z.y) / 2 };
    i0 = -1;
  }
  out.push({ type: 'M', x: start.x, y: start.y });
  let ctrl: Point | null = null;
  for (let k = 1; k <= n; k++) {
    const p = pts[(((i0 + k) % n) + n) % n]!;
    if (p.on) {
      if (ctrl) out.push({ type: 'Q', x1: ctrl.x, y1: ctrl.y, x: p.x, y: p.y });
      else out.push({ type: 'L', x: p.x, y: p.y });
      ctrl = null;
    } else {
      if (ctrl) out.push({ type: 'Q', x1: ctrl.x, y1: ctrl.y, x: (ctrl.x + p.x) / 2, y: (ctrl.y + p.y) / 2 });
      ctrl = p;
    }
  }
  if (ctrl) out.push({ type: 'Q', x1: ctrl.x, y1: ctrl.y, x: start.x, y: start.y });
  out.push({ type: 'Z' });
}
