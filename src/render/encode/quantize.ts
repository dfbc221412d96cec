/**
 * Quantization onto a panel palette: pure functions over typed arrays, no canvas.
 *
 * Three layers come in, of the same size:
 * - `text` (optional): a palette index a pixel, or 255 for none; taken as it is, over the other two.
 * - `crisp`: text and lines on a transparent ground. Every pixel at least half covered is mapped to the
 *   nearest palette colour of its own colour, no dithering: text stays sharp.
 * - `tone`: icons and grey fills on white. Dithered (Floyd–Steinberg by default) onto the palette, matching
 *   against the measured ink colours where a profile gives them.
 * Out comes one palette index a pixel.
 */

export type Dither = 'floyd-steinberg' | 'atkinson' | 'ordered';
export type Rgb = readonly [number, number, number];

export interface QuantizeInput {
  width: number;
  height: number;
  /** Palette index a pixel (255: no text there). */
  text?: Uint8Array;
  /** How much of each text pixel the text covers, 0-255 (absent: all of it). Grey palettes only. */
  textCover?: Uint8Array;
  crisp: Uint8ClampedArray | Uint8Array;
  tone: Uint8ClampedArray | Uint8Array;
  /** Colours matched against, in palette order (ink colours where measured). */
  palette: readonly Rgb[];
  dither: Dither;
}

const COVERED = 128;

function isGreyPalette(palette: readonly Rgb[]): boolean {
  return palette.every(([r, g, b]) => r === g && g === b);
}

/** Index of the palette colour nearest to (r, g, b), by squared distance weighted for the eye (2,4,3); ties go to the lower index. */
export function nearestIndex(palette: readonly Rgb[], r: number, g: number, b: number): number {
  let best = 0;
  let bestD = Infinity;
  for (let i = 0; i < palette.length; i++) {
    const p = palette[i]!;
    const dr = r - p[0];
    const dg = g - p[1];
    const db = b - p[2];
    const d = 2 * dr * dr + 4 * dg * dg + 3 * db * db;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** Rec. 601 luma in integers; exact for greys. */
function luma(r: number, g: number, b: number): number {
  return (r * 77 + g * 150 + b * 29) >> 8;
}

export function quantize(input: QuantizeInput): Uint8Array {
  const { width, height, crisp, tone, palette } = input;
  const n = width * height;
  if (crisp.length !== n * 4 || tone.length !== n * 4)
    throw new Error('quantize: layer sizes do not match width x height');
  const out = new Uint8Array(n);
  const mask = new Uint8Array(n);
  const text = input.text;
  if (text && text.length !== n) throw new Error('quantize: text layer size does not match width x height');
  const cover = input.textCover && isGreyPalette(palette) ? input.textCover : undefined;
  if (cover && cover.length !== n) throw new Error('quantize: text coverage size does not match width x height');
  for (let i = 0; i < n; i++) {
    const o = i * 4;
    const t = text ? text[i]! : 255;
    if (t !== 255) {
      if (t >= palette.length) throw new Error(`quantize: text index ${t} is not in the palette`);
      mask[i] = 1;
      out[i] = cover && cover[i]! < 255 ? mixText(input, i, t, cover[i]!) : t;
    } else if (crisp[o + 3]! >= COVERED) {
      mask[i] = 1;
      out[i] = nearestIndex(palette, crisp[o]!, crisp[o + 1]!, crisp[o + 2]!);
    }
  }
  // Dithering runs over the box that holds tone content (plus a margin for the spread error); outside it the
  // tone layer is blank paper and maps to the nearest palette colour of white.
  const box = toneBox(input);
  if (box.x1 < box.x0) return fillBlank(input, mask, out);
  fillBlank(input, mask, out);
  if (isGreyPalette(palette)) ditherGrey(input, mask, out, box);
  else ditherColour(input, mask, out, box);
  return out;
}

/**
 * The palette grey nearest to text ink `t` covering `c`/255 of pixel `i` over its ground: the crisp layer where
 * it covers the pixel (an inverted bar), else the tone layer, undithered (one pixel of dither under a glyph's
 * edge would be noise).
 */
function mixText({ crisp, tone, palette }: QuantizeInput, i: number, t: number, c: number): number {
  const o = i * 4;
  const layer = crisp[o + 3]! >= COVERED ? crisp : tone;
  const ground = luma(layer[o]!, layer[o + 1]!, layer[o + 2]!);
  const v = Math.round(ground + ((palette[t]![0] - ground) * c) / 255);
  return nearestIndex(palette, v, v, v);
}

interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const MARGIN = 2;

/** The bounding box (inclusive) of tone pixels that are not white, widened by MARGIN; empty when x1 < x0. */
function toneBox({ width, height, tone }: QuantizeInput): Region {
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    let o = y * width * 4;
    for (let x = 0; x < width; x++, o += 4) {
      if (tone[o]! !== 255 || tone[o + 1]! !== 255 || tone[o + 2]! !== 255) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        y1 = y;
      }
    }
  }
  if (x1 < 0) return { x0: 0, y0: 0, x1: -1, y1: -1 };
  return {
    x0: Math.max(0, x0 - MARGIN),
    y0: Math.max(0, y0 - MARGIN),
    x1: Math.min(width - 1, x1 + MARGIN),
    y1: Math.min(height - 1, y1 + MARGIN),
  };
}

function fillBlank({ width, height, palette }: QuantizeInput, mask: Uint8Array, out: Uint8Array): Uint8Array {
  const white = nearestIndex(palette, 255, 255, 255);
  for (let i = 0, n = width * height; i < n; i++) if (!mask[i]) out[i] = white;
  return out;
}

/** 8x8 Bayer matrix, thresholds in (0, 1). */
const BAYER8 = (() => {
  const m = new Float32Array(64);
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      let v = 0;
      for (let bit = 0, xx = x, yy = y ^ x; bit < 3; bit++, xx >>= 1, yy >>= 1) {
        v = (v << 2) | ((yy & 1) << 1) | (xx & 1);
      }
      m[y * 8 + x] = (v + 0.5) / 64;
    }
  }
  return m;
})();

interface Kernel {
  taps: readonly (readonly [dx: number, dy: number, weight: number])[];
  serpentine: boolean;
}
const KERNELS: Record<'floyd-steinberg' | 'atkinson', Kernel> = {
  'floyd-steinberg': {
    taps: [
      [1, 0, 7 / 16],
      [-1, 1, 3 / 16],
      [0, 1, 5 / 16],
      [1, 1, 1 / 16],
    ],
    serpentine: true,
  },
  atkinson: {
    taps: [
      [1, 0, 1 / 8],
      [2, 0, 1 / 8],
      [-1, 1, 1 / 8],
      [0, 1, 1 / 8],
      [1, 1, 1 / 8],
      [0, 2, 1 / 8],
    ],
    serpentine: false,
  },
};

function ditherGrey(input: QuantizeInput, mask: Uint8Array, out: Uint8Array, box: Region): void {
  const { width, tone, palette, dither } = input;
  const levels = palette.map((p) => p[0]);
  const nearest = new Uint8Array(256);
  for (let v = 0; v < 256; v++) nearest[v] = nearestIndex(palette, v, v, v);
  // Work buffers cover the box only: (x, y) of the frame is (x - box.x0, y - box.y0) here.
  const bw = box.x1 - box.x0 + 1;
  const bh = box.y1 - box.y0 + 1;
  const lum = new Float32Array(bw * bh);
  for (let y = 0; y < bh; y++) {
    for (let x = 0; x < bw; x++) {
      const o = ((y + box.y0) * width + x + box.x0) * 4;
      lum[y * bw + x] = luma(tone[o]!, tone[o + 1]!, tone[o + 2]!);
    }
  }
  if (dither === 'ordered') {
    // Between the two levels around the value, the Bayer threshold picks one.
    const sorted = levels.map((l, i) => [l, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (let y = 0; y < bh; y++) {
      for (let x = 0; x < bw; x++) {
        const i = (y + box.y0) * width + x + box.x0;
        if (mask[i]) continue;
        const v = lum[y * bw + x]!;
        let lo = sorted[0]!;
        let hi = sorted[sorted.length - 1]!;
        for (const s of sorted) {
          if (s[0] <= v) lo = s;
          if (s[0] >= v) {
            hi = s;
            break;
          }
        }
        const t = hi[0] === lo[0] ? 0 : (v - lo[0]) / (hi[0] - lo[0]);
        out[i] = t > BAYER8[((y + box.y0) & 7) * 8 + ((x + box.x0) & 7)]! ? hi[1] : lo[1];
      }
    }
    return;
  }
  const kernel = KERNELS[dither];
  for (let y = 0; y < bh; y++) {
    const reverse = kernel.serpentine && (y & 1) === 1;
    for (let k = 0; k < bw; k++) {
      const x = reverse ? bw - 1 - k : k;
      const i = (y + box.y0) * width + x + box.x0;
      if (mask[i]) continue;
      const v = lum[y * bw + x]!;
      const idx = nearest[v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v)]!;
      out[i] = idx;
      const err = v - levels[idx]!;
      if (err === 0) continue;
      for (const [dx0, dy, w] of kernel.taps) {
        const dx = reverse ? -dx0 : dx0;
        const xx = x + dx;
        const yy = y + dy;
        if (xx < 0 || xx >= bw || yy >= bh) continue;
        lum[yy * bw + xx]! += err * w;
      }
    }
  }
}

function ditherColour(input: QuantizeInput, mask: Uint8Array, out: Uint8Array, box: Region): void {
  const { width, tone, palette, dither } = input;
  const bw = box.x1 - box.x0 + 1;
  const bh = box.y1 - box.y0 + 1;
  const buf = new Float32Array(bw * bh * 3);
  for (let y = 0; y < bh; y++) {
    for (let x = 0; x < bw; x++) {
      const o = ((y + box.y0) * width + x + box.x0) * 4;
      const j = (y * bw + x) * 3;
      buf[j] = tone[o]!;
      buf[j + 1] = tone[o + 1]!;
      buf[j + 2] = tone[o + 2]!;
    }
  }
  const clamp = (v: number): number => (v < 0 ? 0 : v > 255 ? 255 : v);
  if (dither === 'ordered') {
    const spread = 96;
    for (let y = 0; y < bh; y++) {
      for (let x = 0; x < bw; x++) {
        const i = (y + box.y0) * width + x + box.x0;
        if (mask[i]) continue;
        const j = (y * bw + x) * 3;
        const t = (BAYER8[((y + box.y0) & 7) * 8 + ((x + box.x0) & 7)]! - 0.5) * spread;
        out[i] = nearestIndex(palette, clamp(buf[j]! + t), clamp(buf[j + 1]! + t), clamp(buf[j + 2]! + t));
      }
    }
    return;
  }
  // Grey areas dither with the panel's black and white only: a grey cloud on a 7-colour panel must not
  // come out speckled with green and blue.
  const greys = palette.map((p, i) => [p, i] as const).filter(([p]) => Math.max(...p) - Math.min(...p) < 24);
  const greyPalette = greys.map(([p]) => p);
  const kernel = KERNELS[dither];
  for (let y = 0; y < bh; y++) {
    const reverse = kernel.serpentine && (y & 1) === 1;
    for (let k = 0; k < bw; k++) {
      const x = reverse ? bw - 1 - k : k;
      const i = (y + box.y0) * width + x + box.x0;
      if (mask[i]) continue;
      const j0 = (y * bw + x) * 3;
      const o = i * 4;
      const neutral =
        greys.length >= 2 && Math.abs(tone[o]! - tone[o + 1]!) < 12 && Math.abs(tone[o + 1]! - tone[o + 2]!) < 12;
      const r = clamp(buf[j0]!);
      const g = clamp(buf[j0 + 1]!);
      const b = clamp(buf[j0 + 2]!);
      const idx = neutral ? greys[nearestIndex(greyPalette, r, g, b)]![1] : nearestIndex(palette, r, g, b);
      out[i] = idx;
      const p = palette[idx]!;
      const er = r - p[0];
      const eg = g - p[1];
      const eb = b - p[2];
      if (er === 0 && eg === 0 && eb === 0) continue;
      for (const [dx0, dy, w] of kernel.taps) {
        const dx = reverse ? -dx0 : dx0;
        const xx = x + dx;
        const yy = y + dy;
        if (xx < 0 || xx >= bw || yy >= bh) continue;
        const j = (yy * bw + xx) * 3;
        buf[j]! += er * w;
        buf[j + 1]! += eg * w;
        buf[j + 2]! += eb * w;
      }
    }
  }
}
