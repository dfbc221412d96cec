import { describe, expect, it } from 'vitest';
import { renderFrame } from '../../src/render/frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { decodePng, type DecodedPng } from './decode.js';
import { sampleInput } from '../fixtures/samples.js';

/**
 * Grey panels anti-alias text with their own greys; 1-bit and colour panels keep it sharp. The top band (the
 * "Updated" line and the display's name, text only on paper or on the inverted alert bar) is read back from the
 * frame's PNG with pngjs.
 */

/** Grey levels (red channel) of the top 7% of the frame, with how many pixels each. */
function bandLevels(png: DecodedPng): Map<number, number> {
  const levels = new Map<number, number>();
  for (let y = 0; y < Math.round(png.height * 0.07); y++) {
    for (let x = 0; x < png.width; x++) {
      const v = png.data[(y * png.width + x) * 4]!;
      levels.set(v, (levels.get(v) ?? 0) + 1);
    }
  }
  return levels;
}

/** Pixels of the band that are neither black nor white and have no black pixel among their 8 neighbours. */
function loneGreys(png: DecodedPng): number {
  let n = 0;
  const at = (x: number, y: number): number => png.data[(y * png.width + x) * 4]!;
  for (let y = 1; y < Math.round(png.height * 0.07); y++) {
    for (let x = 1; x < png.width - 1; x++) {
      const v = at(x, y);
      if (v === 0 || v === 255) continue;
      let edge = false;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) if (at(x + dx, y + dy) === 0 || at(x + dx, y + dy) === 255) edge = true;
      if (!edge) n++;
    }
  }
  return n;
}

describe('text on grey panels', () => {
  for (const id of ['trmnl-4grey', 'inkplate-10', 'kindle-paperwhite']) {
    for (const c of ['normal', 'alert'] as const) {
      it(`${id} (${c}): text edges take the panel's intermediate greys`, async () => {
        const panel = loadPanel(id);
        const png = decodePng((await renderFrame(sampleInput(c), panel, { rotation: 0 })).png);
        const levels = bandLevels(png);
        const greys = [...levels].filter(([v]) => v !== 0 && v !== 255);
        const allowed = new Set(panel.palette.map((e) => Number.parseInt(e.rgb.slice(1, 3), 16)));
        expect(greys.length).toBeGreaterThanOrEqual(2);
        expect(greys.reduce((s, [, n]) => s + n, 0)).toBeGreaterThan(200);
        for (const [v] of greys) expect(allowed.has(v)).toBe(true);
        // Edges, not areas: every grey touches ink or ground.
        expect(loneGreys(png)).toBeLessThan(greys.reduce((s, [, n]) => s + n, 0) / 20);
      });
    }
  }

  for (const id of ['trmnl', 'waveshare-7in5-v2', 'waveshare-7in5-b', 'waveshare-7in3-f']) {
    it(`${id}: text stays sharp, black and white only`, async () => {
      const png = decodePng((await renderFrame(sampleInput('normal'), loadPanel(id), { rotation: 0 })).png);
      const levels = bandLevels(png);
      expect([...levels.keys()].sort((a, b) => a - b)).toEqual([0, 255]);
    });
  }
});
