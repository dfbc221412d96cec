import type { GlyphBitmap } from './glyph-raster.js';
import { nearestIndex, type Rgb } from './quantize.js';

/**
 * The text of a frame, already at 1 bit: one palette index a pixel, or NONE. It lies over the crisp and tone
 * layers, so text is never dithered and never blurred. Colours are CSS "rgb(r,g,b)" or "#rrggbb".
 */
export const NONE = 255;

export class TextLayer {
  readonly index: Uint8Array;
  private readonly colours = new Map<string, number>();

  constructor(
    readonly width: number,
    readonly height: number,
    private readonly palette: readonly Rgb[],
  ) {
    this.index = new Uint8Array(width * height).fill(NONE);
  }

  colourIndex(css: string): number {
    let i = this.colours.get(css);
    if (i === undefined) {
      const [r, g, b] = parseColour(css);
      i = nearestIndex(this.palette, r, g, b);
      this.colours.set(css, i);
    }
    return i;
  }

  /** Whether palette entry `i` is dark (text in it may be thickened; light text on a dark ground is not). */
  isDark(i: number): boolean {
    const p = this.palette[i];
    return p !== undefined && p[0] * 77 + p[1] * 150 + p[2] * 29 < 128 * 256;
  }

  /** Sets the ink pixels of `bm` placed with its origin at integer (x, y). */
  blit(bm: GlyphBitmap, x: number, y: number, colour: number): void {
    const x0 = x + bm.left;
    const y0 = y + bm.top;
    const { width: W, height: H, index } = this;
    for (let row = 0; row < bm.height; row++) {
      const yy = y0 + row;
      if (yy < 0 || yy >= H) continue;
      const src = row * bm.width;
      const dst = yy * W;
      for (let col = 0; col < bm.width; col++) {
        const xx = x0 + col;
        if (bm.bits[src + col] && xx >= 0 && xx < W) index[dst + xx] = colour;
      }
    }
  }
}

export function parseColour(css: string): Rgb {
  const m = /^rgb\((\d+),\s*(\d+),\s*(\d+)\)$/.exec(css);
  if (m) return [Number(m[1]), Number(m[2]), Number(m[3])];
  if (/^#[0-9a-f]{6}$/i.test(css)) {
    const v = Number.parseInt(css.slice(1), 16);
    return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
  }
  throw new Error(`unsupported colour ${css}`);
}
