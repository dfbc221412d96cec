import { describe, expect, it } from 'vitest';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { meaningInks } from '../../src/render/draw/colour-meaning.js';
import {
  contrastRatio,
  glassRgb,
  inkContrasts,
  STROKE_MIN_VS_BLACK,
  STROKE_MIN_VS_PAPER,
} from '../../src/render/draw/ink-contrast.js';
import { createSurface } from '../../src/render/draw/surface.js';
import { typeScale } from '../../src/render/draw/type-scale.js';
import { matchPalette } from '../../src/render/frame.js';

/** Which inks may draw a line, from the inks as they are on the glass (the profiles' measured `ink`). */

const rgbOf = (css: string): [number, number, number] => css.match(/\d+/g)!.map(Number) as [number, number, number];

describe('ink contrast', () => {
  it('is WCAG 2’s contrast ratio', () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([255, 255, 255], [255, 255, 255])).toBe(1);
    // #767676 on white is the classic 4.54:1.
    expect(contrastRatio([0x76, 0x76, 0x76], [255, 255, 255])).toBeCloseTo(4.54, 2);
  });

  it('on the 7.3" F, finds blue too close to black for lines or fills, yellow too close to paper for lines, and red, orange and green apart from both', () => {
    const f = Object.fromEntries(inkContrasts(loadPanel('waveshare-7in3-f')).map((i) => [i.name, i]));
    expect(f.blue!.vsBlack).toBeCloseTo(1.2, 1);
    expect(f.yellow!.vsPaper).toBeCloseTo(1.89, 1);
    expect(
      Object.values(f)
        .filter((i) => i.stroke)
        .map((i) => i.name)
        .sort(),
    ).toEqual(['green', 'orange', 'red']);
    expect(
      Object.values(f)
        .filter((i) => i.fill)
        .map((i) => i.name)
        .sort(),
    ).toEqual(['green', 'orange', 'red', 'yellow']);
  });

  it('strokes and text on every colour panel only in inks that stand apart from its black and its paper', () => {
    let strokes = 0;
    for (const id of listPanelIds()) {
      const panel = loadPanel(id);
      const black = glassRgb(panel, 'black')!;
      const paper = glassRgb(panel, 'white')!;
      const { surface } = createSurface(8, 8, panel, matchPalette(panel), 1, typeScale('wall', 124.4));
      const used = [
        ...Object.values(meaningInks(panel)).map((p) => p.stroke),
        surface.theme.danger === surface.theme.ink ? null : surface.theme.danger,
      ];
      for (const css of used) {
        if (css === null) continue;
        strokes++;
        expect(contrastRatio(rgbOf(css), black), `${id} ${css} vs black`).toBeGreaterThanOrEqual(STROKE_MIN_VS_BLACK);
        expect(contrastRatio(rgbOf(css), paper), `${id} ${css} vs paper`).toBeGreaterThanOrEqual(STROKE_MIN_VS_PAPER);
      }
    }
    expect(strokes).toBeGreaterThan(10);
  });
});
