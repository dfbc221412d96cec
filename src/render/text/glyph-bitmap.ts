/**
 * A rasterised glyph: what glyph-raster.ts makes and its passes (glyph-dropout.ts, keep-counters.ts) repair. Its own
 * file so that the rasteriser and its passes do not import each other.
 */
export interface GlyphBitmap {
  /** Offset of the bitmap's top-left pixel from the pen position (integer px). */
  left: number;
  top: number;
  width: number;
  height: number;
  /** 1 = ink, row-major: coverage of at least a half, plus dropout pixels. */
  bits: Uint8Array;
  /** Coverage 0-255 a pixel (dropout pixels at least 128), row-major: for grey panels. */
  cover: Uint8Array;
}
