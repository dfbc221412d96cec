import type { PathCommand } from './ttf.js';

/**
 * A small scanline rasterizer for glyph outlines, straight to 1 bit: a pixel is ink when its centre is inside
 * the outline (non-zero winding), which is what thresholding anti-aliased text at 50% approximates, but exact
 * and the same on every machine (no cairo, no fontconfig, no hinting settings). Any stroke at least one pixel
 * wide keeps at least one pixel. Thinner stems (small sizes) are thickened by `embolden` px.
 */

export interface GlyphBitmap {
  /** Offset of the bitmap's top-left pixel from the pen position (integer px). */
  left: number;
  top: number;
  width: number;
  height: number;
  /** 1 = ink, row-major. */
  bits: Uint8Array;
}

const EMPTY: GlyphBitmap = { left: 0, top: 0, width: 0, height: 0, bits: new Uint8Array(0) };

/** Flattens the outline (font units, y up) to line segments in px (y down), offset by (dx, 0). */
function flatten(commands: readonly PathCommand[], scale: number, dx: number): Float64Array {
  const segs: number[] = [];
  let sx = 0;
  let sy = 0;
  let cx = 0;
  let cy = 0;
  const line = (x: number, y: number): void => {
    if (y !== cy) segs.push(cx, cy, x, y);
    cx = x;
    cy = y;
  };
  const X = (x: number): number => dx + x * scale;
  const Y = (y: number): number => -y * scale;
  for (const c of commands) {
    switch (c.type) {
      case 'M':
        if (cx !== sx || cy !== sy) line(sx, sy);
        cx = sx = X(c.x);
        cy = sy = Y(c.y);
        break;
      case 'L':
        line(X(c.x), Y(c.y));
        break;
      case 'Q': {
        const x0 = cx;
        const y0 = cy;
        const x1 = X(c.x1);
        const y1 = Y(c.y1);
        const x2 = X(c.x);
        const y2 = Y(c.y);
        const dd = Math.hypot(x0 - 2 * x1 + x2, y0 - 2 * y1 + y2);
        const n = Math.max(1, Math.ceil(Math.sqrt(dd * 2.5)));
        for (let i = 1; i <= n; i++) {
          const t = i / n;
          const u = 1 - t;
          line(u * u * x0 + 2 * u * t * x1 + t * t * x2, u * u * y0 + 2 * u * t * y1 + t * t * y2);
        }
        break;
      }
      case 'C': {
        const x0 = cx;
        const y0 = cy;
        const x1 = X(c.x1);
        const y1 = Y(c.y1);
        const x2 = X(c.x2);
        const y2 = Y(c.y2);
        const x3 = X(c.x);
        const y3 = Y(c.y);
        const dd = Math.max(Math.hypot(x0 - 2 * x1 + x2, y0 - 2 * y1 + y2), Math.hypot(x1 - 2 * x2 + x3, y1 - 2 * y2 + y3));
        const n = Math.max(1, Math.ceil(Math.sqrt(dd * 3)));
        for (let i = 1; i <= n; i++) {
          const t = i / n;
          const u = 1 - t;
          line(
            u * u * u * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x3,
            u * u * u * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y3,
          );
        }
        break;
      }
      case 'Z':
        line(sx, sy);
        break;
    }
  }
  if (cx !== sx || cy !== sy) line(sx, sy);
  return Float64Array.from(segs);
}

/** Rasterizes a glyph outline at `scale` (px per font unit), the pen at x = dx (0 <= dx < 1), y = 0 (baseline). */
export function rasterizeGlyph(commands: readonly PathCommand[], scale: number, dx: number, embolden: number): GlyphBitmap {
  const segs = flatten(commands, scale, dx);
  if (segs.length === 0) return EMPTY;
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < segs.length; i += 2) {
    minX = Math.min(minX, segs[i]!);
    maxX = Math.max(maxX, segs[i]!);
    minY = Math.min(minY, segs[i + 1]!);
    maxY = Math.max(maxY, segs[i + 1]!);
  }
  const grow = embolden / 2;
  const left = Math.floor(minX - grow);
  const top = Math.floor(minY - grow);
  const width = Math.ceil(maxX + grow) - left + 1;
  const height = Math.ceil(maxY + grow) - top + 1;
  const bits = new Uint8Array(width * height);
  const xs: number[] = [];
  const dirs: number[] = [];
  const order: number[] = [];
  // Extra sample lines above and below the pixel centre thicken horizontal strokes when emboldening.
  const offsets = grow > 0 ? [-grow, 0, grow] : [0];
  for (let row = 0; row < height; row++) {
    for (const off of offsets) {
      const y = top + row + 0.5 + off;
      xs.length = 0;
      dirs.length = 0;
      for (let i = 0; i < segs.length; i += 4) {
        const y0 = segs[i + 1]!;
        const y1 = segs[i + 3]!;
        if ((y0 <= y && y < y1) || (y1 <= y && y < y0)) {
          const x0 = segs[i]!;
          xs.push(x0 + ((y - y0) * (segs[i + 2]! - x0)) / (y1 - y0));
          dirs.push(y1 > y0 ? 1 : -1);
        }
      }
      if (xs.length < 2) continue;
      order.length = 0;
      for (let i = 0; i < xs.length; i++) order.push(i);
      order.sort((a, b) => xs[a]! - xs[b]! || a - b);
      let winding = 0;
      for (let k = 0; k < order.length - 1; k++) {
        winding += dirs[order[k]!]!;
        if (winding === 0) continue;
        const xa = xs[order[k]!]! - grow;
        const xb = xs[order[k + 1]!]! + grow;
        const from = Math.max(0, Math.ceil(xa - 0.5) - left);
        const to = Math.min(width - 1, Math.floor(xb - 0.5) - left);
        for (let px = from; px <= to; px++) bits[row * width + px] = 1;
      }
    }
  }
  return { left, top, width, height, bits };
}
