import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { rasterizeGlyph, type GlyphBitmap } from './glyph-raster.js';
import type { TextLayer } from './text-layer.js';
import { TrueTypeFont, type PathCommand } from './ttf.js';

/**
 * Text from the DejaVu TTFs of the `dejavu-fonts-ttf` npm package: outlines read by ttf.ts and
 * rasterized to 1 bit by glyph-raster.ts. No canvas, fontconfig, system font or hinting setting is involved, so
 * the same text gives the same pixels everywhere. Widths scale exactly with size: layout measures in em.
 */

export type FontId = 'regular' | 'bold' | 'condensed' | 'condensed-bold';

const FILES: Record<FontId, string> = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  condensed: 'DejaVuSansCondensed.ttf',
  'condensed-bold': 'DejaVuSansCondensed-Bold.ttf',
};

interface GlyphInfo {
  index: number;
  /** Advance in em. */
  advance: number;
  commands: PathCommand[];
}

export interface LoadedFont {
  readonly id: FontId;
  readonly unitsPerEm: number;
  readonly ascender: number; // em
  readonly descender: number; // em, negative
  readonly capHeight: number; // em
  glyph(ch: string): GlyphInfo;
  kerning(left: number, right: number): number; // em
}

/** Vertical stem width of each font, in em (DejaVu: about 184 units of 2048 regular, 300 bold). */
const STEM_EM: Record<FontId, number> = { regular: 0.09, bold: 0.146, condensed: 0.085, 'condensed-bold': 0.135 };
/** Stems thinner than this many px are thickened: at small sizes one-pixel stems read poorly on e-ink. */
const MIN_STEM_PX = 1.6;

const require = createRequire(import.meta.url);
const fonts = new Map<FontId, LoadedFont>();

/** Characters outside the fonts (emoji and the like) are dropped or replaced rather than drawn as boxes. */
export function cleanText(text: string): string {
  return text
    .replace(/[\u{1F000}-\u{1FFFF}\u{FE00}-\u{FE0F}\u{200B}-\u{200D}\u{2060}]/gu, '')
    .replace(/[\t\r\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]/g, ' ');
}

/** The path of a font file in the dejavu-fonts-ttf package. */
export function fontFile(id: FontId): string {
  return require.resolve(`dejavu-fonts-ttf/ttf/${FILES[id]}`);
}

export function font(id: FontId): LoadedFont {
  const hit = fonts.get(id);
  if (hit) return hit;
  const f = new TrueTypeFont(readFileSync(fontFile(id)));
  const upm = f.unitsPerEm;
  const glyphs = new Map<string, GlyphInfo>();
  const kerns = new Map<number, number>();
  const fallback = f.glyphIndex('?'.codePointAt(0)!);
  const loaded: LoadedFont = {
    id,
    unitsPerEm: upm,
    ascender: f.ascender / upm,
    descender: f.descender / upm,
    capHeight: f.capHeight / upm,
    glyph(ch) {
      let g = glyphs.get(ch);
      if (!g) {
        let index = f.glyphIndex(ch.codePointAt(0) ?? 0);
        if (index === 0) index = fallback;
        g = { index, advance: f.advanceWidth(index) / upm, commands: f.path(index) };
        glyphs.set(ch, g);
      }
      return g;
    },
    kerning(left, right) {
      const key = left * 65536 + right;
      let k = kerns.get(key);
      if (k === undefined) {
        k = f.kerning(left, right) / upm;
        kerns.set(key, k);
      }
      return k;
    },
  };
  fonts.set(id, loaded);
  return loaded;
}

/** Width of `text` in em (multiply by the size in px). */
export function measureEm(id: FontId, text: string): number {
  const f = font(id);
  let w = 0;
  let prev = -1;
  for (const ch of text) {
    const g = f.glyph(ch);
    if (prev >= 0) w += f.kerning(prev, g.index);
    w += g.advance;
    prev = g.index;
  }
  return w;
}

export function measure(id: FontId, size: number, text: string): number {
  return measureEm(id, text) * size;
}

const glyphCache = new Map<string, GlyphBitmap>();
const GLYPH_CACHE_MAX = 20_000;

/**
 * Draws `text` with its baseline at (x, y) into the text layer; returns the advance in px. Pen positions are
 * kept to a quarter pixel and baselines to whole pixels, so glyph bitmaps are cached and reused.
 */
export function drawText(layer: TextLayer, id: FontId, size: number, text: string, x: number, y: number, colour: string): number {
  const f = font(id);
  const c = layer.colourIndex(colour);
  const scale = size / f.unitsPerEm;
  const stem = STEM_EM[id] * size;
  const embolden = stem < MIN_STEM_PX && layer.isDark(c) ? MIN_STEM_PX - stem : 0;
  const baseline = Math.round(y);
  const sizeKey = size.toFixed(3);
  let pen = 0;
  let prev = -1;
  for (const ch of text) {
    const g = f.glyph(ch);
    if (prev >= 0) pen += f.kerning(prev, g.index);
    const px = Math.round((x + pen * size) * 4) / 4;
    const ix = Math.floor(px);
    const dx = px - ix;
    const key = `${id}|${g.index}|${sizeKey}|${dx}`;
    let bm = glyphCache.get(key);
    if (!bm) {
      if (glyphCache.size >= GLYPH_CACHE_MAX) glyphCache.clear();
      bm = rasterizeGlyph(g.commands, scale, dx, embolden);
      glyphCache.set(key, bm);
    }
    layer.blit(bm, ix, baseline, c);
    pen += g.advance;
    prev = g.index;
  }
  return pen * size;
}
