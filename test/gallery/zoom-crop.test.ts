import { describe, expect, it } from 'vitest';
import { encodeFramePng, renderIndices } from '../../src/render/frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { smallestTextRect, zoomCrop } from './zoom-crop.js';
import { decodePng } from '../render/decode.js';
import { sampleInput } from '../fixtures/samples.js';

describe('zoomed crops', () => {
  for (const id of ['trmnl-4grey', 'waveshare-2in9', 'waveshare-7in3-f']) {
    it(`${id}: enlarges the smallest text 4x by nearest neighbour, pixel for pixel`, () => {
      const panel = loadPanel(id);
      const d = renderIndices(sampleInput('alert'), panel, { rotation: 0 });
      const rect = smallestTextRect(d);
      expect(rect).not.toBeNull();
      const r = rect!;
      expect(r.x).toBeGreaterThanOrEqual(0);
      expect(r.y + r.h).toBeLessThanOrEqual(d.height);
      const frame = decodePng(encodeFramePng(panel, d.width, d.height, d.indices));
      const zoom = decodePng(zoomCrop({ panel, frame: d, rect: r }));
      expect([zoom.width, zoom.height, zoom.bitDepth, zoom.colorType]).toEqual([
        r.w * 4,
        r.h * 4,
        frame.bitDepth,
        frame.colorType,
      ]);
      let ink = 0;
      let wrong = 0;
      for (let y = 0; y < zoom.height; y++) {
        for (let x = 0; x < zoom.width; x++) {
          const src = ((r.y + Math.floor(y / 4)) * frame.width + r.x + Math.floor(x / 4)) * 4;
          const dst = (y * zoom.width + x) * 4;
          if (!zoom.data.subarray(dst, dst + 3).equals(frame.data.subarray(src, src + 3))) wrong++;
          if (zoom.data[dst] !== frame.data[0]) ink++;
        }
      }
      expect(wrong).toBe(0);
      // The crop holds text, not just ground.
      expect(ink).toBeGreaterThan(100);
    });
  }

  it('refuses a rectangle outside the frame and a bad factor', () => {
    const panel = loadPanel('trmnl');
    const frame = { width: 10, height: 10, indices: new Uint8Array(100) };
    expect(() => zoomCrop({ panel, frame, rect: { x: 20, y: 0, w: 5, h: 5 } })).toThrow(RangeError);
    expect(() => zoomCrop({ panel, frame, rect: { x: 0, y: 0, w: 5, h: 5 }, factor: 1.5 })).toThrow(RangeError);
  });
});
