import { font, fontGeneration, measureEm, type FontId } from './fonts.js';

/**
 * Where drawn text puts ink, for the layout checks (test/render/overlap.test.ts): each line's box from the top of
 * its highest glyph to the bottom of its lowest (descenders included), px as seen. The lines of one block, or the
 * number and unit of the temperature, are one item; boxes of different items must keep apart.
 */

export interface InkBox {
  /** Which drawn item (a line, a block of lines) it belongs to. */
  item: number;
  text: string;
  /** Font size, px. */
  size: number;
  x: number;
  top: number;
  right: number;
  bottom: number;
}

/** A line of text as drawn: left edge of its pen and its baseline, px. */
export interface DrawnLine {
  font: FontId;
  size: number;
  text: string;
  x: number;
  baseline: number;
}

const extents = new Map<string, [number, number]>();
/** The font stacks' generation the extents were read from (font-stack.ts). */
let extentsOf = fontGeneration();

/** Highest and lowest point of a glyph's outline (control points included), em. */
function extentOf(id: FontId, ch: string): [number, number] {
  const key = `${id}|${ch}`;
  if (extentsOf !== fontGeneration()) {
    extents.clear();
    extentsOf = fontGeneration();
  }
  let e = extents.get(key);
  if (!e) {
    const g = font(id).glyph(ch);
    e = [-Infinity, Infinity];
    for (const c of g.commands) {
      if (!('y' in c)) continue;
      for (const y of c.type === 'Q' ? [c.y, c.y1] : c.type === 'C' ? [c.y, c.y1, c.y2] : [c.y]) {
        e = [Math.max(e[0], y / g.unitsPerEm), Math.min(e[1], y / g.unitsPerEm)];
      }
    }
    extents.set(key, e);
  }
  return e;
}

/** Highest and lowest point of `text`'s outlines above its baseline, em (lowest negative below it); null: no ink. */
export function inkExtentEm(id: FontId, text: string): [number, number] | null {
  let hi = -Infinity;
  let lo = Infinity;
  for (const ch of text) {
    const [top, bottom] = extentOf(id, ch);
    hi = Math.max(hi, top);
    lo = Math.min(lo, bottom);
  }
  return hi < lo ? null : [hi, lo];
}

/** The ink box of one line (the glyphs' outline bounds; the pen's advance across). Null for text without ink. */
function inkOf(line: DrawnLine): Omit<InkBox, 'item'> | null {
  const extent = inkExtentEm(line.font, line.text);
  if (extent === null) return null;
  const [hi, lo] = extent;
  const s = line.size;
  return {
    text: line.text,
    size: s,
    x: line.x,
    right: line.x + measureEm(line.font, line.text) * s,
    top: line.baseline - hi * s,
    bottom: line.baseline - lo * s,
  };
}

/** Records the lines as one item in `inks`. */
export function recordInk(inks: InkBox[], lines: DrawnLine[]): void {
  const item = (inks[inks.length - 1]?.item ?? -1) + 1;
  for (const l of lines) {
    const box = inkOf(l);
    if (box) inks.push({ item, ...box });
  }
}
