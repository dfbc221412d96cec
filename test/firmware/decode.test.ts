import { crc32, deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { checkImage } from '../../display/firmware/image-check.js';
import { decodePng } from '../../display/firmware/png-decode.js';
import { viewSize } from '../../src/render/frame.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { display } from '../fixtures/display.js';
import { patternFrame } from '../fixtures/frames.js';

/** A PNG chunk with a right CRC (pngjs writes the file; this rewrites one chunk of it). */
function rgbaPng(
  width: number,
  height: number,
  fill: [number, number, number, number],
  opts: { colorType?: number; bitDepth?: 8 | 16 } = {},
): Buffer {
  const png = new PNG({
    width,
    height,
    colorType: (opts.colorType ?? 6) as 6,
    bitDepth: opts.bitDepth ?? 8,
    inputHasAlpha: true,
  });
  for (let i = 0; i < width * height; i++) png.data.set(fill, i * 4);
  return PNG.sync.write(png, {
    colorType: (opts.colorType ?? 6) as 6,
    bitDepth: opts.bitDepth ?? 8,
    inputHasAlpha: true,
  });
}

describe('the device PNG decoder (not the encoder that made the frames)', () => {
  it('decodes every panel’s frame to the same pixels pngjs sees', () => {
    for (const id of listPanelIds()) {
      const d = display('d', { panel: id });
      const f = patternFrame(d, 7);
      const mine = decodePng(f.png);
      const theirs = PNG.sync.read(f.png);
      expect([mine.width, mine.height], id).toEqual([theirs.width, theirs.height]);
      // Every pixel, compared here and asserted once (an expect a pixel would take seconds on the large panels).
      const differ: string[] = [];
      for (let p = 0; p < mine.width * mine.height && differ.length < 5; p++) {
        for (let k = 0; k < 3; k++)
          if (mine.rgb[p * 3 + k] !== theirs.data[p * 4 + k]) {
            differ.push(
              `pixel ${p}: ${mine.rgb.subarray(p * 3, p * 3 + 3).join(',')} for ${theirs.data.subarray(p * 4, p * 4 + 3).join(',')}`,
            );
            break;
          }
      }
      expect(differ, id).toEqual([]);
    }
  });

  it('reads RGB, RGBA (over white) and 16-bit files from other encoders', () => {
    expect(decodePng(rgbaPng(3, 2, [10, 20, 30, 255], { colorType: 2 })).rgb.subarray(0, 3)).toEqual(
      Uint8Array.from([10, 20, 30]),
    );
    expect(decodePng(rgbaPng(3, 2, [0, 0, 0, 0])).rgb.subarray(0, 3)).toEqual(Uint8Array.from([255, 255, 255]));
    const deep = rgbaPng(2, 2, [200, 100, 50, 255], { colorType: 2, bitDepth: 16 });
    const theirs = PNG.sync.read(deep).data;
    const mine = decodePng(deep).rgb;
    for (let k = 0; k < 3; k++) expect(Math.abs(mine[k]! - theirs[k]!)).toBeLessThanOrEqual(1); // high byte vs rounding
  });
});

describe('the firmware’s checks: bad frames are reported as the device would, never a crash', () => {
  const trmnl = loadPanel('trmnl');
  const view = { width: 800, height: 480 };
  const limits = { maxBytes: 90_000 };
  const good = patternFrame(display('t', { panel: 'trmnl' }), 3);

  it('accepts the frame and gives its palette indices', () => {
    const r = checkImage(good.png, 'image/png', trmnl, view, limits);
    expect(r).toMatchObject({ ok: true, format: 'png', width: 800, height: 480, bitDepth: 1 });
    const bmp = checkImage(good.bmp!, 'image/bmp', trmnl, view, limits);
    expect(bmp.ok && r.ok && Buffer.from(bmp.indices).equals(Buffer.from(r.indices))).toBe(true);
  });

  const cases: [string, () => Buffer, string | null, string][] = [
    ['empty', () => Buffer.alloc(0), 'image/png', 'HTTPS_WRONG_IMAGE_SIZE'],
    ['over 90 KB', () => Buffer.concat([good.png, Buffer.alloc(90_001)]), 'image/png', 'HTTPS_IMAGE_FILE_TOO_BIG'],
    ['not a PNG signature', () => Buffer.from('<html>not an image</html>'), 'image/png', 'PNG_WRONG_FORMAT'],
    ['a PNG sent as text/plain (the firmware then reads a BMP)', () => good.png, 'text/plain', 'BMP_NOT_BMP'],
    ['truncated', () => good.png.subarray(0, Math.floor(good.png.length / 2)), 'image/png', 'PNG_DECODE_ERR'],
    [
      'a flipped byte (bad CRC)',
      () => {
        const b = Buffer.from(good.png);
        b[good.png.length - 30]! ^= 0xff;
        return b;
      },
      'image/png',
      'PNG_DECODE_ERR',
    ],
    [
      'random bytes after the signature',
      () =>
        Buffer.concat([good.png.subarray(0, 8), Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7919) & 255))]),
      'image/png',
      'PNG_DECODE_ERR',
    ],
    [
      'the wrong size',
      () => patternFrame(display('s', { panel: 'waveshare-4in2' }), 1).png,
      'image/png',
      'PNG_BAD_SIZE',
    ],
    [
      '2-bit grey on a 1-bit panel',
      () => patternFrame(display('g', { panel: 'trmnl-4grey' }), 1).png,
      'image/png',
      'PNG_BAD_DEPTH',
    ],
    [
      'colours the panel does not have',
      () => rgbaPng(800, 480, [200, 0, 0, 255], { colorType: 2 }),
      'image/png',
      'PNG_BAD_DEPTH',
    ],
    [
      'a 1-bit BMP of the wrong size',
      () => patternFrame(display('b', { panel: 'waveshare-4in2' }), 1).bmp!,
      'image/bmp',
      'BMP_BAD_SIZE',
    ],
    [
      'a BMP with a red palette',
      () => {
        const b = Buffer.from(good.bmp!);
        b[54 + 4 + 2] = 0;
        return b;
      },
      null,
      'BMP_COLOR_SCHEME_FAILED',
    ],
    ['a BMP whose pixels lie past the end', () => good.bmp!.subarray(0, 30_000), 'image/bmp', 'BMP_INVALID_OFFSET'],
  ];
  for (const [what, bytes, type, code] of cases) {
    it(`${what} → ${code}`, () => {
      const r = checkImage(bytes(), type, trmnl, view, limits);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.code).toBe(code);
        expect(r.message.length).toBeGreaterThan(5);
      }
    });
  }

  it('a zlib bomb (a header promising 800x480, data inflating to 20 MB) is refused without inflating it all', () => {
    const chunk = (type: string, data: Buffer): Buffer => {
      const head = Buffer.alloc(8);
      head.writeUInt32BE(data.length, 0);
      head.write(type, 4, 'latin1');
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
      return Buffer.concat([head, data, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(800, 0);
    ihdr.writeUInt32BE(480, 4);
    ihdr[8] = 1;
    const bomb = Buffer.concat([
      good.png.subarray(0, 8),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(Buffer.alloc(20_000_000))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    expect(bomb.length).toBeLessThan(90_000);
    const r = checkImage(bomb, 'image/png', trmnl, view, limits);
    expect(r).toMatchObject({ ok: false, code: 'PNG_DECODE_ERR' });
  });

  it('every panel’s own frame passes its own checks', () => {
    for (const id of listPanelIds()) {
      const d = display('p', { panel: id, rotation: 90 });
      const panel = loadPanel(id);
      const r = checkImage(patternFrame(d, 2).png, 'image/png', panel, viewSize(panel, 90), { maxBytes: 10_000_000 });
      expect(r.ok, `${id}: ${r.ok ? '' : r.message}`).toBe(true);
    }
  });
});
