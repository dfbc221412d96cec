import type { GlyphBitmap } from './glyph-bitmap.js';

/**
 * The code points a render drew as a missing-glyph box, and the box itself. Rendering stays free of logging:
 * drawText notes them here while a render collects (frame.ts), and the caller logs them (glyph-warnings.ts).
 * Renders are synchronous, so one collector at a time is all there is.
 */

let collecting: Set<number> | null = null;

/** Runs `fn`, returning its result and the code points drawn as boxes meanwhile, in first-seen order. */
export function collectMissingGlyphs<T>(fn: () => T): { result: T; missing: number[] } {
  const outer = collecting;
  const mine = new Set<number>();
  collecting = mine;
  try {
    return { result: fn(), missing: [...mine] };
  } finally {
    collecting = outer;
    if (outer) for (const cp of mine) outer.add(cp);
  }
}

/** Called by drawText for each code point it draws as a box. */
export function noteMissingGlyphs(codePoints: readonly number[]): void {
  if (collecting) for (const cp of codePoints) collecting.add(cp);
}

/** "U+0E01 (ก)": how a warning names a code point. */
export function describeCodePoint(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')} (${String.fromCodePoint(cp)})`;
}

/**
 * DejaVu's .notdef box, em: from 0.177 below the baseline to 0.705 above, 0.45 wide, strokes of 0.056. Rasterised
 * as an outline, its strokes fall under a pixel below about 18 px, and edges that fall between rows are lost: at
 * 9 px the top and bottom went, and a row of boxes read as a barcode.
 */
const BOX = { below: 0.177, above: 0.705, width: 0.45, stroke: 0.056 };

/**
 * The missing-glyph box for an advance of `advance` em at `size` px, drawn as pixels rather than rasterised: four
 * edges of at least a pixel around a hollow of at least a pixel, whatever the size, and within its advance at least
 * a pixel free on each side where the advance has the room (from about 8 px), so boxes side by side stay apart.
 */
export function missingGlyphBox(size: number, advance: number): GlyphBitmap {
  const stroke = Math.max(1, Math.round(BOX.stroke * size));
  const least = 2 * stroke + 1;
  const advancePx = advance * size;
  const width = Math.max(least, Math.min(Math.round(BOX.width * size), Math.floor(advancePx) - 2));
  const top = -Math.max(least - 1, Math.round(BOX.above * size));
  const height = Math.round(BOX.below * size) - top;
  const bits = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const edge = y < stroke || y >= height - stroke || x < stroke || x >= width - stroke;
      bits[y * width + x] = edge ? 1 : 0;
    }
  }
  const left = Math.max(1, Math.round((advancePx - width) / 2));
  return { left, top, width, height, bits, cover: bits.map((b) => b * 255) };
}
