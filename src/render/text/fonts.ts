import { rasterizeGlyph, type GlyphBitmap, type VerticalZones } from './glyph-raster.js';
import { glyphRun } from './glyph-run.js';
import { placeGlyphs, type PlacedInk } from './glyph-place.js';
import { missingGlyphBox, noteMissingGlyphs } from './missing-glyphs.js';
import type { TextLayer } from './text-layer.js';
import { font as stackFont, type FontId, type GlyphInfo } from './font-stack.js';

/** A combining mark: drawn over its base glyph, moved with it. */
const MARK = /^\p{M}$/u;

/**
 * Text from the DejaVu TTFs of the `dejavu-fonts-ttf` npm package, with bundled fallbacks glyph by glyph
 * (font-stack.ts): outlines read by ttf.ts and rasterized to 1 bit by glyph-raster.ts. No canvas, fontconfig or
 * hinting setting is involved, so the same text gives the same pixels everywhere; only Chinese, Japanese and Korean
 * come from a system font, a known file of a Debian package, where it is installed (system-fonts.ts). Widths scale
 * with size (layout measures in em), but for the pixel or two grid-fitted text adds to a space (measure). Shaping
 * and order (NFC, Arabic joining, right-to-left) are glyph-run.ts's.
 */

export { font, fontGeneration, useSystemFonts, type FontId, type GlyphInfo, type LoadedFont } from './font-stack.js';

/** Vertical stem width of each font, in em (DejaVu: about 184 units of 2048 regular, 300 bold). */
const STEM_EM: Record<FontId, number> = { regular: 0.09, bold: 0.146, condensed: 0.085, 'condensed-bold': 0.135 };
/** Horizontal bar thickness of each font, in em: the hyphen's and the H's bar (164-170 units regular, 291 bold). */
const BAR_EM: Record<FontId, number> = { regular: 0.082, bold: 0.142, condensed: 0.082, 'condensed-bold': 0.142 };
/** Stems thinner than this many px are thickened: at small sizes one-pixel stems read poorly on e-ink. */
const MIN_STEM_PX = 1.6;
/**
 * Grid-fitted text's stems are a whole number of px, one weight for a face across neighbouring sizes: the
 * design's width rounded, and at least this (2 for the bold faces, or bold would not stand apart from regular at
 * 9-10 px). DejaVu Sans's stems are 1 px from 9 px up to 16.6 px (0.09 em), the bold's 2 px up to 17.1 px, as
 * FreeType's hinted 1-bit rendering of the same files draws them (it draws the condensed bold's 1 px at 9-10 px
 * and 3 px at 15-16 px). Rounding up instead (2 px from 13 px) gave 12.375 and 13 px text, set side by side in the
 * top band, two weights.
 */
const MIN_WEIGHT: Record<FontId, number> = { regular: 1, bold: 2, condensed: 1, 'condensed-bold': 2 };
/**
 * Grid-fitted glyphs are emboldened (every stroke, horizontally) by at most this many px; their stems get the
 * rest of their weight from stem-fit.ts alone. Emboldening the bold faces at 9-10 px by the whole 0.7-0.8 px their
 * 2 px stems need thickened every diagonal and round as well and closed the counters (tesseract read the condensed
 * bold "warm" as "Zon"); the regular face's 0.1-0.2 px keeps its thin diagonals whole.
 */
const FITTED_EMBOLDEN_MAX_PX = 0.2;
/**
 * Grid-fitted horizontal bars are one row in every face (DejaVu's are 0.08 em, the bold's 0.14 em: 1.3-2.3 px
 * at 9-16 px): two rows in the bold closed the e and joined the i's dot to its stem at 12-13 px.
 */
const BAR_WEIGHT = 1;
/**
 * Below this size the light faces' arches and bowls are drawn flat (stem-fit.ts's `flatten`, this share of a
 * bar): at an x-height of 5-7 rows the tops of n, m and r and the bottoms of a, d and u fill their row out to the
 * stem, as hinted 1-bit DejaVu has them; with the notch a round leaves, tesseract read "and" "arid" and "rain"
 * "ram" at 11 px. From 13 px, and in the bold faces, round reads better (tesseract, small-text-reader.test.ts).
 */
const FLAT_ROUNDS = 0.35;
const FLAT_ROUNDS_BELOW_PX = 13;
/**
 * Below this size text is grid-fitted (glyph-raster.ts) and pens stand on whole pixels, so a glyph is the same
 * bitmap wherever it lands. Above it pens keep a quarter pixel, which spaces large text more evenly.
 */
const HINT_BELOW_PX = 20;
/**
 * Grid-fitted text's spaces are this many px wider than designed (from 12 px; 1.5 px below). A letter gap rounds
 * to 1-4 px and a word gap (0.43-0.46 em as designed) to 3-7 px; each can be a pixel off where the design falls
 * between pixels, and a word's ink, rounded, is wider than designed. Without it a word gap at 9-10 px could be no
 * wider than a gap in a word ("gloves and" set 2 px apart, as "ov" is).
 */
const WORD_SPACE_PX = 1;
const WORD_SPACE_SMALL_PX = 1.5;
const WORD_SPACE_SMALL_BELOW_PX = 12;

/**
 * The px grid-fitted text adds to a space of face `id` at `size` (0 from HINT_BELOW_PX, where text is drawn as
 * designed): WORD_SPACE_PX, and twice what stem-fit.ts widens each stem beyond the design and its emboldening (a
 * bold word at 9-11 px, its stems 2 px where the design's are 1.2-1.5, is that much wider than measured, and
 * glyph-place.ts centres it on its measured place, so each word gap gives up about a stem's growth at each side).
 */
function wordSpaceExtra(id: FontId, size: number): number {
  if (size >= HINT_BELOW_PX) return 0;
  const stem = STEM_EM[id] * size;
  const growth = Math.max(0, stemWeight(id, size) - stem - FITTED_EMBOLDEN_MAX_PX);
  return (size < WORD_SPACE_SMALL_BELOW_PX ? WORD_SPACE_SMALL_PX : WORD_SPACE_PX) + 2 * growth;
}

/** Whole px of a grid-fitted stem of face `id` at `size` px (MIN_WEIGHT). */
export function stemWeight(id: FontId, size: number): number {
  return Math.max(MIN_WEIGHT[id], Math.round(STEM_EM[id] * size));
}

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

/**
 * Width of `text` in px at `size`: its em width, and wordSpaceExtra more a space where text is grid-fitted (as
 * drawText draws it).
 */
export function measure(id: FontId, size: number, text: string): number {
  return measureEm(id, text) * size + wordSpaceExtra(id, size) * spaces(text);
}

/** The space between two words of a line, px: what text-fit.ts puts between the words it places. */
export function wordSpace(id: FontId, size: number): number {
  return measure(id, size, ' ');
}

function spaces(text: string): number {
  let n = 0;
  for (let i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1)) n++;
  return n;
}

const glyphCache = new Map<string, GlyphBitmap>();
/**
 * Glyph bitmaps by face, size and pen offset. A frame draws a few hundred; each outfit can pick new sizes, so an
 * unbounded cache would grow for months (a bitmap keeps its coverage too, for grey panels). 1,500 hold a frame's
 * glyphs several times over, and keep the heap flat within about 2 MB (the 90-day soak checks it).
 */
const GLYPH_CACHE_MAX = 1_500;
/** Glyphs rasterized (not found in the cache) since the process started. */
let rasterized = 0;

/**
 * The glyph cache, for the one-shot commands' copy of it on disk (render/glyph-disk-cache.ts): what it holds, how
 * many glyphs were rasterized so far, and `add` for bitmaps drawn by an earlier process of the same build and fonts
 * (up to the cache's bound).
 */
export const glyphBitmaps = {
  entries: (): IterableIterator<[string, GlyphBitmap]> => glyphCache.entries(),
  rasterized: (): number => rasterized,
  add(glyphs: ReadonlyMap<string, GlyphBitmap>): void {
    for (const [key, bm] of glyphs) {
      if (glyphCache.size >= GLYPH_CACHE_MAX) return;
      glyphCache.set(key, bm);
    }
  },
};
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

/** The left and right (exclusive) columns of a bitmap's ink from the pen, px; null when it has none. */
const inkCache = new WeakMap<GlyphBitmap, [number, number] | null>();
function inkColumns(bm: GlyphBitmap): [number, number] | null {
  let ink = inkCache.get(bm);
  if (ink === undefined) {
    let from = bm.width;
    let to = -1;
    for (let i = 0; i < bm.bits.length; i++) {
      if (!bm.bits[i]) continue;
      const col = i % bm.width;
      from = Math.min(from, col);
      to = Math.max(to, col);
    }
    ink = to < 0 ? null : [bm.left + from, bm.left + to + 1];
    inkCache.set(bm, ink);
  }
  return ink;
}

/** The left and right of a glyph's outline, em (its ink as designed; its advance when it has no outline). */
const designCache = new WeakMap<GlyphInfo, [number, number]>();
function designInk(g: GlyphInfo): [number, number] {
  let ink = designCache.get(g);
  if (!ink) {
    const xs = g.commands.flatMap((c) => (c.type === 'Z' ? [] : [c.x]));
    ink = xs.length > 0 ? [Math.min(...xs) / g.unitsPerEm, Math.max(...xs) / g.unitsPerEm] : [0, g.advance];
    designCache.set(g, ink);
  }
  return ink;
}

/**
 * Draws `text` with its baseline at (x, y) into the text layer; returns its width (measure). Baselines are kept to
 * whole pixels. Below HINT_BELOW_PX glyphs are grid-fitted and placed by their ink (glyph-place.ts); from it up
 * pens keep a quarter pixel. Glyph bitmaps are cached and reused, and do not depend on the colour. Only the DejaVu
 * faces' glyphs are grid-fitted (their zones and stems are known); fallback fonts' glyphs are drawn as designed.
 */
export function drawText(
  layer: TextLayer,
  id: FontId,
  size: number,
  text: string,
  x: number,
  y: number,
  colour: string,
): number {
  const c = layer.colourIndex(colour);
  const stem = STEM_EM[id] * size;
  const hinted = size < HINT_BELOW_PX;
  const weight = stemWeight(id, size);
  const embolden = hinted ? Math.max(0, weight - stem) : Math.max(0, MIN_STEM_PX - stem);
  const step = hinted ? 1 : 4;
  const baseline = Math.round(y);
  const sizeKey = size.toFixed(3);
  const run = glyphRun(id, text);
  noteMissingGlyphs(run.missing);
  const items: { bm: GlyphBitmap; rise: number; ink: PlacedInk }[] = [];
  for (const { glyph: g, x: pen, y: rise, codePoint } of run.glyphs) {
    const exact = x + pen * size;
    const px = Math.round(exact * step) / step;
    const dx = hinted ? 0 : px - Math.floor(px);
    const key = `${id}|${g.key}|${sizeKey}|${dx}`;
    // Only the DejaVu face's own glyphs are grid-fitted; they are emboldened less (FITTED_EMBOLDEN_MAX_PX), as are a
    // system font's CJK glyphs, whose strokes lie a pixel apart at small sizes and close up when thickened more.
    const fitted = hinted && g.source === 0 && !g.missing;
    const grown = fitted || g.system ? Math.min(embolden, FITTED_EMBOLDEN_MAX_PX) : embolden;
    let bm = glyphCache.get(key);
    if (!bm) {
      if (glyphCache.size >= GLYPH_CACHE_MAX) glyphCache.clear();
      const zones = fitted ? zonesOf(id) : null;
      const bars = {
        barUnits: BAR_EM[id] * g.unitsPerEm,
        barWeight: BAR_WEIGHT,
        flatten: MIN_WEIGHT[id] === 1 && size < FLAT_ROUNDS_BELOW_PX ? FLAT_ROUNDS : 0,
      };
      const stems = zones
        ? { stemUnits: STEM_EM[id] * g.unitsPerEm, weight, grow: grown / 2, unitsPerEm: g.unitsPerEm, ...bars }
        : null;
      bm = g.missing
        ? missingGlyphBox(size, g.advance)
        : rasterizeGlyph({
            commands: g.commands,
            scale: size / g.unitsPerEm,
            dx,
            embolden: grown,
            zones,
            stems,
            dropout: hinted && g.system === true,
          });
      glyphCache.set(key, bm);
      rasterized++;
    }
    const [left, right] = designInk(g);
    const design: [number, number] = [left * size - grown / 2, right * size + grown / 2];
    const mark = rise !== 0 || MARK.test(String.fromCodePoint(codePoint));
    items.push({
      bm,
      rise,
      ink: { exact: hinted ? exact : px, ink: hinted ? inkColumns(bm) : null, design, mark, space: codePoint === 32 },
    });
  }
  // Grid-fitted text by its ink (glyph-place.ts); larger text at its pens on a quarter pixel.
  const at = hinted
    ? placeGlyphs(
        items.map((i) => i.ink),
        size,
        wordSpaceExtra(id, size),
      )
    : items.map((i) => Math.floor(i.ink.exact));
  items.forEach(({ bm, rise }, k) => layer.blit(bm, at[k]!, baseline - Math.round(rise * size), c));
  // Only words of four letters or more: a unit ("°C") or a short badge tells little about how text reads when zoomed.
  if (run.glyphs.length >= 4)
    layer.noteText(size, {
      x: Math.floor(x),
      y: baseline - Math.ceil(size * 0.8),
      w: Math.ceil(run.advance * size) + 1,
      h: Math.ceil(size),
    });
  return run.advance * size + wordSpaceExtra(id, size) * spaces(text);
}
