import { crc32 as zlibCrc32 } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeBmp1 } from '../../src/render/encode/bmp.js';
import { loadPanel } from '../../src/panels/panels.js';
import { crc32, encodePng } from '../../src/render/encode/png.js';
import { encodeRaw, packPlane } from '../../src/render/encode/raw.js';
import { rotatePixels } from '../../src/render/encode/rotate.js';
import { decodePng, pngHeader, readBmp1 } from './decode.js';

const depth = fc.constantFrom(1 as const, 2 as const, 4 as const, 8 as const);

describe('PNG writer, read back by pngjs', () => {
  it('greyscale at 1, 2, 4 and 8 bits round-trips every sample', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 37 }),
        fc.integer({ min: 1, max: 23 }),
        depth,
        fc.integer(),
        (w, h, d, seed) => {
          const max = 2 ** d - 1;
          const samples = Uint8Array.from({ length: w * h }, (_, i) => Math.abs((seed + i * 2654435761) % (max + 1)));
          const png = encodePng({ width: w, height: h, colourType: 'grey', bitDepth: d, samples });
          expect(pngHeader(png)).toEqual({ width: w, height: h, bitDepth: d, colourType: 0 });
          const dec = decodePng(png);
          for (let i = 0; i < w * h; i++) {
            const v = Math.round((samples[i]! * 255) / max);
            expect([dec.data[i * 4], dec.data[i * 4 + 1], dec.data[i * 4 + 2], dec.data[i * 4 + 3]]).toEqual([
              v,
              v,
              v,
              255,
            ]);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('indexed colour round-trips every pixel through the palette', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 29 }),
        fc.integer({ min: 1, max: 17 }),
        depth,
        fc.integer({ min: 1, max: 256 }),
        (w, h, d, n0) => {
          const n = Math.min(n0, 2 ** d);
          const palette = Array.from(
            { length: n },
            (_, i) => [(i * 37) & 255, (i * 91) & 255, (i * 13 + 5) & 255] as const,
          );
          const samples = Uint8Array.from({ length: w * h }, (_, i) => (i * 7 + 3) % n);
          const dec = decodePng(
            encodePng({ width: w, height: h, colourType: 'indexed', bitDepth: d, samples, palette }),
          );
          expect(dec.colorType).toBe(3);
          for (let i = 0; i < w * h; i++)
            expect([...dec.data.subarray(i * 4, i * 4 + 3)]).toEqual([...palette[samples[i]!]!]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('computes the same CRC-32 as zlib, and rejects samples that do not fit', () => {
    const data = Buffer.from('IHDR and some bytes');
    expect(crc32(data)).toBe(zlibCrc32(data));
    expect(() =>
      encodePng({ width: 1, height: 1, colourType: 'grey', bitDepth: 2, samples: Uint8Array.of(4) }),
    ).toThrow(/exceeds 2 bits/);
  });

  it('writes adaptive filters for 8-bit grey that pngjs undoes', () => {
    const w = 64;
    const h = 32;
    const samples = Uint8Array.from({ length: w * h }, (_, i) => ((i % w) * 4 + Math.floor(i / w) * 3) & 255);
    const dec = decodePng(encodePng({ width: w, height: h, colourType: 'grey', bitDepth: 8, samples }));
    for (let i = 0; i < w * h; i++) expect(dec.data[i * 4]).toBe(samples[i]);
  });
});

describe('BMP writer', () => {
  it('writes 800x480 as exactly 48,062 bytes with a black/white palette, bottom-up', () => {
    const bits = new Uint8Array(800 * 480).fill(1);
    bits[0] = 0; // top-left black
    bits[800 * 480 - 1] = 0; // bottom-right black
    const bmp = encodeBmp1({ width: 800, height: 480, bits });
    expect(bmp.length).toBe(48_062);
    const r = readBmp1(bmp);
    expect([r.width, r.height, r.bitsPerPixel, r.offset]).toEqual([800, 480, 1, 62]);
    expect(r.palette).toEqual([0x000000, 0xffffff]);
    expect(bmp.readUInt32LE(2)).toBe(48_062);
    expect(r.pixel(0, 0)).toBe(0);
    expect(r.pixel(1, 0)).toBe(1);
    expect(r.pixel(799, 479)).toBe(0);
    expect(bmp[62 + 479 * 100]! >> 7).toBe(0); // the top row is stored last
  });

  it('pads odd widths to 4 bytes a row', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 1, max: 9 }), (w, h) => {
        const bits = Uint8Array.from({ length: w * h }, (_, i) => ((i * 5) % 3 === 0 ? 1 : 0));
        const bmp = encodeBmp1({ width: w, height: h, bits });
        expect(bmp.length).toBe(62 + Math.ceil(w / 32) * 4 * h);
        const r = readBmp1(bmp);
        for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) expect(r.pixel(x, y)).toBe(bits[y * w + x]);
      }),
    );
  });
});

describe('raw framebuffers in native order', () => {
  it('packs 1 bit a pixel MSB first, 1 = white, rows padded to a byte', () => {
    // 10x2: black at (0,0) and (9,1)
    const idx = new Uint8Array(20).fill(1);
    idx[0] = 0;
    idx[19] = 0;
    expect([...packPlane(idx, 10, 2, 1, [0, 1], 1)]).toEqual([0b01111111, 0b11000000, 0b11111111, 0b10000000]);
  });

  it('gives the red/black/white panel a black plane then a red plane', () => {
    const panel = loadPanel('waveshare-7in5-b');
    const idx = new Uint8Array(800 * 480).fill(1);
    idx[0] = 0; // black
    idx[1] = 2; // red
    const raw = encodeRaw(idx, 800, 480, panel, 0);
    expect(raw.length).toBe(96_000);
    expect(raw[0]).toBe(0b01111111); // black plane: black 0, red and white 1
    expect(raw[48_000]).toBe(0b01000000); // red plane: 1 = red
  });

  it('packs the 7-colour panel 2 pixels a byte, high nibble first, in Waveshare colour codes', () => {
    const panel = loadPanel('waveshare-7in3-f');
    const idx = new Uint8Array(800 * 480).fill(1);
    idx[0] = 6; // orange
    idx[1] = 3; // blue
    const raw = encodeRaw(idx, 800, 480, panel, 0);
    expect(raw.length).toBe(192_000);
    expect(raw[0]).toBe(0x63);
    expect(raw[1]).toBe(0x11);
  });

  it('turns small panels into their portrait RAM order, rows padded to whole bytes', () => {
    const p29 = loadPanel('waveshare-2in9');
    expect(encodeRaw(new Uint8Array(296 * 128).fill(1), 296, 128, p29, 0).length).toBe(16 * 296);
    const p213 = loadPanel('waveshare-2in13');
    const idx = new Uint8Array(250 * 122).fill(1);
    idx[0] = 0; // top-left of the landscape picture
    const raw = encodeRaw(idx, 250, 122, p213, 0);
    expect(raw.length).toBe(16 * 250);
    // turned a quarter counter-clockwise (native_rotation 270), as Waveshare's getbuffer() fills the RAM: the
    // picture's left-hand column is the last RAM row, its top row the first RAM column, so the top-left pixel is
    // the RAM's bottom-left
    expect(raw[249 * 16]).toBe(0b01111111);
    expect(raw[249 * 16 + 15]).toBe(0b11000000); // pixels 120 and 121 (white), then 6 padding bits
    expect(raw.filter((b, i) => b !== (i % 16 === 15 ? 0b11000000 : 0xff)).length).toBe(1);
  });

  it('turns the seen picture back by the mount rotation', () => {
    const panel = loadPanel('waveshare-7in5-v2');
    const seen = new Uint8Array(480 * 800).fill(1);
    seen[0] = 0; // top-left as seen on a panel mounted at 90
    const raw = encodeRaw(seen, 480, 800, panel, 90);
    expect(raw.length).toBe(48_000);
    // panel turned a quarter clockwise: its top-left is seen at the top-right... so seen (0,0) is panel bottom-left
    expect(raw[479 * 100]! >> 7).toBe(0);
    expect(raw.filter((b) => b !== 0xff).length).toBe(1);
  });

  it('rotates four quarter turns back to the start', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 }), (w, h) => {
        const src = Uint8Array.from({ length: w * h }, (_, i) => i);
        let r: { pixels: Uint8Array; width: number; height: number } = { pixels: src, width: w, height: h };
        for (let k = 0; k < 4; k++) r = rotatePixels(r.pixels, r.width, r.height, 90);
        expect([...r.pixels]).toEqual([...src]);
        expect([...rotatePixels(src, w, h, 180).pixels]).toEqual([
          ...rotatePixels(rotatePixels(src, w, h, 90).pixels, h, w, 90).pixels,
        ]);
      }),
    );
  });
});
