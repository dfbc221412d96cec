import { shapeArabic } from './arabic-shaping.js';
import { visualOrder } from './bidi.js';
import { font, fontGeneration, type FontId, type GlyphInfo } from './font-stack.js';

/**
 * A line of text as glyphs in drawing order with their pen positions, the one path measuring and drawing
 * share: NFC (a decomposed é is the precomposed glyph), Arabic joining (arabic-shaping.ts), visual order
 * (bidi.ts), glyphs from the font stack (font-stack.ts) with the DejaVu face's kerning. A combining mark left
 * after NFC is centred over its base and takes no width; a mark above that would touch its base or the mark
 * before it (a Thai tone mark over an upper vowel, an accent over a capital) is raised clear of them. Soft hyphen, zero-width space/joiner/non-joiner,
 * direction marks, word joiner and BOM are invisible and take no width (a soft hyphen becomes a visible "-" only
 * where text-fit.ts breaks a line at it).
 */

export interface PlacedGlyph {
  glyph: GlyphInfo;
  /** Pen x of the glyph's origin from the line's start, em. */
  x: number;
  /** Rise of the glyph above the baseline, em (0 but for raised marks). */
  y: number;
  codePoint: number;
}

export interface GlyphRun {
  glyphs: PlacedGlyph[];
  /** Width of the line, em. */
  advance: number;
  /** Code points no font has (drawn as boxes), each once, in order. */
  missing: number[];
}

const INVISIBLE = /^[\u00AD\u200B-\u200F\u2060\uFEFF]$/;
const MARK = /^\p{M}$/u;
const PLAIN = /^[\x20-\x7e]*$/;

const runs = new Map<string, GlyphRun>();
/** The font stacks' generation the runs were laid out with (font-stack.ts): a change of system fonts drops them. */
let runsOf = fontGeneration();
/**
 * Runs are cached by text: a frame's words and the strings its line fitting measures. A thousand hold a frame's
 * worth; more would only keep old outfits' words alive (the 90-day soak's heap check).
 */
const RUN_CACHE_MAX = 1_000;
/**
 * Longer texts are laid out anew each time, not kept: a frame's words and lines are shorter, and a thousand runs of
 * a word of thousands of characters (its pieces, as fitting tries them) would fill the render process's heap.
 */
const RUN_CACHE_LONGEST = 200;
const extents = new WeakMap<GlyphInfo, Ink>();
/** A mark whose ink starts this high (em) sits above its letter. */
const ABOVE_MARK_EM = 0.25;
/** Space kept between a raised mark and the ink below it, em. */
const MARK_GAP_EM = 0.06;

/** Ink edges of a glyph, em, y up (from its outline's points, control points included). */
interface Ink {
  left: number;
  right: number;
  bottom: number;
  top: number;
}

function inkOf(g: GlyphInfo): Ink {
  let e = extents.get(g);
  if (!e) {
    const xs: number[] = [];
    const ys: number[] = [];
    for (const c of g.commands) {
      if (c.type === 'Z') continue;
      xs.push(c.x);
      ys.push(c.y);
    }
    const u = g.unitsPerEm;
    e = xs.length
      ? { left: Math.min(...xs) / u, right: Math.max(...xs) / u, bottom: Math.min(...ys) / u, top: Math.max(...ys) / u }
      : { left: 0, right: 0, bottom: 0, top: 0 };
    extents.set(g, e);
  }
  return e;
}

export function glyphRun(id: FontId, text: string): GlyphRun {
  const key = `${id}|${text}`;
  if (runsOf !== fontGeneration()) {
    runs.clear();
    runsOf = fontGeneration();
  }
  const hit = runs.get(key);
  if (hit) return hit;
  const f = font(id);
  const visual = PLAIN.test(text) ? text : visualOrder(shapeArabic(text.normalize('NFC'), (cp) => f.has(cp)));
  const glyphs: PlacedGlyph[] = [];
  const missing = new Set<number>();
  let pen = 0;
  let prev: GlyphInfo | null = null;
  let base: { x: number; advance: number; top: number } | null = null;
  for (const ch of visual) {
    if (INVISIBLE.test(ch)) continue;
    const codePoint = ch.codePointAt(0)!;
    const g = f.glyph(ch);
    if (g.missing) missing.add(codePoint);
    if (base && !g.missing && MARK.test(ch)) {
      const ink = inkOf(g);
      let y = 0;
      if (ink.bottom >= ABOVE_MARK_EM) {
        y = Math.max(0, base.top + MARK_GAP_EM - ink.bottom);
        base.top = ink.top + y;
      }
      glyphs.push({ glyph: g, x: base.x + (base.advance - (ink.right - ink.left)) / 2 - ink.left, y, codePoint });
      continue;
    }
    if (prev) pen += f.kerning(prev, g);
    glyphs.push({ glyph: g, x: pen, y: 0, codePoint });
    base = { x: pen, advance: g.advance, top: inkOf(g).top };
    pen += g.advance;
    prev = g;
  }
  const run: GlyphRun = { glyphs, advance: pen, missing: [...missing] };
  if (text.length > RUN_CACHE_LONGEST) return run;
  if (runs.size >= RUN_CACHE_MAX) runs.clear();
  runs.set(key, run);
  return run;
}
