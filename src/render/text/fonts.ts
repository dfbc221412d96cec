import { rasterizeGlyph, type GlyphBitmap, type VerticalZones } from './glyph-raster.js';
import { glyphRun } from './glyph-run.js';
import { noteMissingGlyphs } from './missing-glyphs.js';
import type { TextLayer } from './text-layer.js';
import { font as stackFont, type FontId } from './font-stack.js';

/**
 * Text from the DejaVu TTFs of the `dejavu-fonts-ttf` npm package, with bundled fallbacks glyph by glyph
 * (font-stack.ts): outlines read by ttf.ts and rasterized to 1 bit by glyph-raster.ts. No canvas, fontconfig,
 * system font or hinting setting is involved, so the same text gives the same pixels everywhere. Widths scale
 * exactly with size: layout measures in em. Shaping and order (NFC, Arabic joining, right-to-left) are
 * glyph-run.ts's.
 */

export { font, type FontId, type GlyphInfo, type LoadedFont } from './font-stack.js';

/** Vertical stem width of each font, in em (DejaVu: about 184 units of 2048 regular, 300 bold). */
const STEM_EM: Record<FontId, number> = { regular: 0.09, bold: 0.146, condensed: 0.085, 'condensed-bold': 0.135 };
/** Stems thinner than this many px are thickened: at small sizes one-pixel stems read poorly on e-ink. */
const MIN_STEM_PX = 1.6;
/**
 * Grid-fitted text thickens its stems (horizontally, whatever the colour: white on a black bar thins on e-ink as
 * much as black on white) to a whole number of px, the stem's width plus this rounded: a whole-pixel stem is the
 * same width at any phase, where a 1.6 px one is 1 or 2 px by where it lands. DejaVu Sans's stems are 1 px up to
 * about 12.5 px and 2 px from there; the bold's 2 px from 9 px.
 */
const STEM_ROUND_UP_PX = 0.35;
/** Grid-fitted text's horizontal strokes lose this many px (glyph-raster.ts), so counters stay open. */
const THIN_BARS_PX = 0.4;
/**
 * Below this size text is grid-fitted (glyph-raster.ts) and pens stand on whole pixels, so a glyph is the same
 * bitmap wherever it lands. Above it pens keep a quarter pixel, which spaces large text more evenly.
 */
const HINT_BELOW_PX = 20;

/**
 * Emoji pictographs and variation selectors are dropped and odd spaces become spaces; the rest is kept for the
 * font stack, in NFC: soft hyphens (break points for text-fit.ts, invisible when drawn), and zero-width
 * joiner / non-joiner (Arabic joining reads them; invisible when drawn).
 */
export function cleanText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\u{1F000}-\u{1FFFF}\u{FE00}-\u{FE0F}\u200B\u2060]/gu, '')
    .replace(/[\t\r\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]/g, ' ');
}

/** Width of `text` in em (multiply by the size in px). */
export function measureEm(id: FontId, text: string): number {
  return glyphRun(id, text).advance;
}

export function measure(id: FontId, size: number, text: string): number {
  return measureEm(id, text) * size;
}

const glyphCache = new Map<string, GlyphBitmap>();
/**
 * Glyph bitmaps by face, size and pen offset. A frame draws a few hundred; each outfit can pick new sizes, so an
 * unbounded cache would grow for months (a bitmap keeps its coverage too, for grey panels). 1,500 hold a frame's
 * glyphs several times over, and keep the heap flat within about 2 MB (the 90-day soak checks it).
 */
const GLYPH_CACHE_MAX = 1_500;
const zoneCache = new Map<FontId, VerticalZones>();

/** The x-height and cap-height of a DejaVu face in its font units: the tops of its "x" and "H". */
function zonesOf(id: FontId): VerticalZones {
  let z = zoneCache.get(id);
  if (!z) {
    const f = stackFont(id);
    const top = (ch: string): number => Math.max(...f.glyph(ch).commands.map((c) => ('y' in c ? c.y : -Infinity)));
    z = { xHeight: top('x'), capHeight: top('H') };
    zoneCache.set(id, z);
  }
  return z;
}

/**
 * Draws `text` with its baseline at (x, y) into the text layer; returns the advance in px. Baselines are kept to
 * whole pixels, pens to whole pixels below HINT_BELOW_PX and to a quarter pixel above, so glyph bitmaps are
 * cached and reused. The glyphs do not depend on the colour. Only the DejaVu faces' glyphs are grid-fitted in y
 * (their zones are known); fallback fonts' glyphs are drawn as designed.
 */
export function drawText(layer: TextLayer, id: FontId, size: number, text: string, x: number, y: number, colour: string): number {
  const c = layer.colourIndex(colour);
  const stem = STEM_EM[id] * size;
  const hinted = size < HINT_BELOW_PX;
  const embolden = hinted ? Math.max(0, Math.round(stem + STEM_ROUND_UP_PX) - stem) : Math.max(0, MIN_STEM_PX - stem);
  const step = hinted ? 1 : 4;
  const baseline = Math.round(y);
  const sizeKey = size.toFixed(3);
  const run = glyphRun(id, text);
  noteMissingGlyphs(run.missing);
  for (const { glyph: g, x: pen, y: rise } of run.glyphs) {
    const px = Math.round((x + pen * size) * step) / step;
    const ix = Math.floor(px);
    const dx = px - ix;
    const key = `${id}|${g.key}|${sizeKey}|${dx}`;
    let bm = glyphCache.get(key);
    if (!bm) {
      if (glyphCache.size >= GLYPH_CACHE_MAX) glyphCache.clear();
      const zones = hinted && g.source === 0 && !g.missing ? zonesOf(id) : null;
      bm = rasterizeGlyph({ commands: g.commands, scale: size / g.unitsPerEm, dx, embolden, zones, thin: hinted ? THIN_BARS_PX : 0 });
      glyphCache.set(key, bm);
    }
    layer.blit(bm, ix, baseline - Math.round(rise * size), c);
  }
  // Only words of four letters or more: a unit ("°C") or a short badge tells little about how text reads when zoomed.
  if (run.glyphs.length >= 4) layer.noteText(size, { x: Math.floor(x), y: baseline - Math.ceil(size * 0.8), w: Math.ceil(run.advance * size) + 1, h: Math.ceil(size) });
  return run.advance * size;
}
