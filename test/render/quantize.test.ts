import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearestIndex, quantize, type Dither, type Rgb } from '../../src/render/encode/quantize.js';

const BW: Rgb[] = [
  [0, 0, 0],
  [255, 255, 255],
];
const GREY4: Rgb[] = [
  [0, 0, 0],
  [85, 85, 85],
  [170, 170, 170],
  [255, 255, 255],
];
const ACEP: Rgb[] = [
  [57, 48, 57],
  [255, 255, 255],
  [58, 91, 70],
  [61, 59, 94],
  [156, 72, 75],
  [208, 190, 71],
  [177, 106, 73],
];

function flat(w: number, h: number, rgba: [number, number, number, number]): Uint8ClampedArray {
  const a = new Uint8ClampedArray(w * h * 4);
  for (let i = 0; i < w * h; i++) a.set(rgba, i * 4);
  return a;
}

const DITHERS: Dither[] = ['floyd-steinberg', 'atkinson', 'ordered'];

describe('quantize', () => {
  it('thresholds the crisp layer to the nearest colour, never dithering it', () => {
    const w = 16;
    const h = 4;
    const crisp = flat(w, h, [120, 120, 120, 200]); // mid grey, mostly covered
    const out = quantize({
      width: w,
      height: h,
      crisp,
      tone: flat(w, h, [128, 128, 128, 255]),
      palette: BW,
      dither: 'floyd-steinberg',
    });
    expect(new Set(out)).toEqual(new Set([0])); // all black: no pattern
    const light = quantize({
      width: w,
      height: h,
      crisp: flat(w, h, [0, 0, 0, 100]),
      tone: flat(w, h, [255, 255, 255, 255]),
      palette: BW,
      dither: 'ordered',
    });
    expect(new Set(light)).toEqual(new Set([1])); // under half covered: paper
  });

  it('lets the text layer win over everything', () => {
    const text = new Uint8Array(4).fill(255);
    text[2] = 2;
    const out = quantize({
      width: 2,
      height: 2,
      text,
      crisp: flat(2, 2, [0, 0, 0, 255]),
      tone: flat(2, 2, [255, 255, 255, 255]),
      palette: GREY4,
      dither: 'ordered',
    });
    expect([...out]).toEqual([0, 0, 2, 0]);
  });

  it.each(DITHERS)('%s renders a 50%% grey as about half black', (dither) => {
    const w = 64;
    const h = 64;
    const out = quantize({
      width: w,
      height: h,
      crisp: flat(w, h, [0, 0, 0, 0]),
      tone: flat(w, h, [128, 128, 128, 255]),
      palette: BW,
      dither,
    });
    const black = out.filter((v) => v === 0).length / out.length;
    expect(black).toBeGreaterThan(0.45);
    expect(black).toBeLessThan(0.55);
  });

  it('maps exact palette greys without any dithering', () => {
    const out = quantize({
      width: 8,
      height: 8,
      crisp: flat(8, 8, [0, 0, 0, 0]),
      tone: flat(8, 8, [170, 170, 170, 255]),
      palette: GREY4,
      dither: 'floyd-steinberg',
    });
    expect(new Set(out)).toEqual(new Set([2]));
  });

  it('dithers grey areas on a colour panel with its black and white only', () => {
    const out = quantize({
      width: 32,
      height: 32,
      crisp: flat(32, 32, [0, 0, 0, 0]),
      tone: flat(32, 32, [200, 200, 200, 255]),
      palette: ACEP,
      dither: 'floyd-steinberg',
    });
    expect(new Set(out)).toEqual(new Set([0, 1]));
  });

  it('matches colours against the measured inks', () => {
    expect(nearestIndex(ACEP, 255, 220, 0)).toBe(5); // yellow
    expect(nearestIndex(ACEP, 200, 30, 30)).toBe(4); // red
    expect(nearestIndex(ACEP, 20, 20, 20)).toBe(0);
  });

  it('gives only palette indices, and is deterministic (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 24 }),
        fc.integer({ min: 1, max: 24 }),
        fc.constantFrom(BW, GREY4, ACEP),
        fc.constantFrom(...DITHERS),
        fc.integer(),
        (w, h, palette, dither, seed) => {
          const rnd = (i: number): number => Math.abs(Math.imul(seed ^ i, 2654435761)) & 255;
          const tone = Uint8ClampedArray.from({ length: w * h * 4 }, (_, i) => (i % 4 === 3 ? 255 : rnd(i)));
          const crisp = Uint8ClampedArray.from({ length: w * h * 4 }, (_, i) => rnd(i + 99991));
          const a = quantize({ width: w, height: h, crisp, tone, palette, dither });
          const b = quantize({ width: w, height: h, crisp, tone, palette, dither });
          expect([...a]).toEqual([...b]);
          for (let i = 0; i < a.length; i++) {
            expect(a[i]).toBeLessThan(palette.length);
            if (crisp[i * 4 + 3]! >= 128)
              expect(a[i]).toBe(nearestIndex(palette, crisp[i * 4]!, crisp[i * 4 + 1]!, crisp[i * 4 + 2]!));
          }
        },
      ),
      { numRuns: 80 },
    );
  });
});
