import type { GlyphBitmap } from './glyph-raster.js';
import { nearestIndex, type Rgb } from '../encode/quantize.js';

/**
 * The text of a frame: one palette index a pixel, or NONE, and how much of the pixel the glyph covers. It lies
 * over the crisp and tone layers, so text is never dithered. On panels with more than two greys the coverage is
 * kept (quantize.ts mixes the ink with the ground under it onto the panel's greys: anti-aliased text); on 1-bit
 * and colour panels text is 1 bit (a mixed colour would match some other ink of a colour panel: a red fringe).
 * Colours are CSS "rgb(r,g,b)" or "#rrggbb".
 */
const NONE = 255;

/** A rectangle of the frame in px (x, y its top-left corner). */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export class TextLayer {
  readonly index: Uint8Array;
  /** Coverage 0-255 of each text pixel (255 wherever the text is 1 bit). */
  readonly cover: Uint8Array;
  /** Whether text keeps its coverage: grey panels with more than two greys. */
  readonly antialias: boolean;
  private readonly colours = new Map<string, number>();
  /** The size of the smallest text drawn so far, and the box of the first line drawn at that size. */
  private smallest: { size: number; box: Rect } | null = null;

  constructor(
    readonly width: number,
    readonly height: number,
    private readonly palette: readonly Rgb[],
  ) {
    this.index = new Uint8Array(width * height).fill(NONE);
    this.cover = new Uint8Array(width * height);
    this.antialias = palette.length > 2 && palette.every(([r, g, b]) => r === g && g === b);
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

  /** Notes a line of text of `size` px drawn in `box` (for zoomed crops of a frame's smallest text). */
  noteText(size: number, box: Rect): void {
    if (this.smallest === null || size < this.smallest.size - 1e-9) this.smallest = { size, box };
  }

  /** Where the first line of the smallest text drawn is, or null when there is no text. */
  smallestText(): { size: number; box: Rect } | null {
    return this.smallest;
  }

  /** Sets the ink pixels of `bm` placed with its origin at integer (x, y) (where it covers more than before). */
  blit(bm: GlyphBitmap, x: number, y: number, colour: number): void {
    const x0 = x + bm.left;
    const y0 = y + bm.top;
    const { width: W, height: H, index, cover } = this;
    const src = this.antialias ? bm.cover : bm.bits;
    const full = this.antialias ? 1 : 255;
    for (let row = 0; row < bm.height; row++) {
      const yy = y0 + row;
      if (yy < 0 || yy >= H) continue;
      const from = row * bm.width;
      const dst = yy * W;
      for (let col = 0; col < bm.width; col++) {
        const xx = x0 + col;
        const c = src[from + col]! * full;
        if (c > 0 && xx >= 0 && xx < W && c >= cover[dst + xx]!) {
          index[dst + xx] = colour;
          cover[dst + xx] = c;
        }
      }
    }
  }

  /**
   * Hollows the text of palette index `colour` inside `r`: a pixel whose every neighbour within `rim` px is of that
   * text too is cleared, so only a rim `rim` px wide of each glyph stays (outlined letters: the 1-bit panels' way to
   * draw something faded, readings.ts). For 1-bit text (`antialias` false).
   */
  hollow(r: Rect, colour: number, rim: number): void {
    const { width: W, height: H, index, cover } = this;
    const ink = (x: number, y: number): boolean => x >= 0 && y >= 0 && x < W && y < H && index[y * W + x] === colour;
    const inner: number[] = [];
    for (let y = Math.max(0, Math.floor(r.y)); y < Math.min(H, Math.ceil(r.y + r.h)); y++) {
      for (let x = Math.max(0, Math.floor(r.x)); x < Math.min(W, Math.ceil(r.x + r.w)); x++) {
        let all = ink(x, y);
        for (let dy = -rim; dy <= rim && all; dy++)
          for (let dx = -rim; dx <= rim && all; dx++) all = ink(x + dx, y + dy);
        if (all) inner.push(y * W + x);
      }
    }
    for (const i of inner) {
      index[i] = NONE;
      cover[i] = 0;
    }
  }
}

function parseColour(css: string): Rgb {
  const m = /^rgb\((\d+),\s*(\d+),\s*(\d+)\)$/.exec(css);
  if (m) return [Number(m[1]), Number(m[2]), Number(m[3])];
  if (/^#[0-9a-f]{6}$/i.test(css)) {
    const v = Number.parseInt(css.slice(1), 16);
    return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
  }
  throw new Error(`unsupported colour ${css}`);
}
