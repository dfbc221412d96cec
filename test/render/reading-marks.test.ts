import { describe, expect, it } from 'vitest';
import { drawAlone } from './draw-alone.js';
import { inkDistance } from './ink-distance.js';
import { loadPanel } from '../../src/panels/panels.js';
import { drawingFor, GARMENT_PICTOGRAMS } from '../../src/render/pictograms/garment-pictograms.js';
import { DROP, rainChanceMark } from '../../src/render/pictograms/weather-pictograms.js';
import type { Pictogram } from '../../src/render/pictograms/pictogram.js';

/**
 * A reading's mark is a reading, not advice: the rain chance is never drawn as the umbrella the outfit may tell the
 * reader to leave at home, and is told apart from the humidity's drop, at every size a frame draws a mark.
 */

const bw = loadPanel('waveshare-7in5-v2');
const INK = bw.palette.findIndex((e) => e.name === 'black');
const inkOf = (picto: Pictogram, size: number): Uint8Array =>
  drawAlone(bw, picto, size).map((v) => (v === INK ? 1 : 0));

/** Mark sizes from the 2.13" tag's rows to the 13.3" panel's. */
const SIZES = [12, 18, 23, 29, 30, 36, 48, 64];

describe('the rain chance mark', () => {
  it('is not the umbrella, nor the humidity drop: 1 - IoU of their ink at least 0.3 at every size', () => {
    for (const size of SIZES) {
      const rain = inkOf(rainChanceMark(size).picto, size);
      const umbrella = inkOf(drawingFor(GARMENT_PICTOGRAMS.umbrella, size), size);
      const drop = inkOf(DROP, size);
      expect(inkDistance(rain, umbrella, size), `umbrella at ${size} px`).toBeGreaterThanOrEqual(0.3);
      expect(inkDistance(rain, drop, size), `humidity drop at ${size} px`).toBeGreaterThanOrEqual(0.3);
    }
  });
});
