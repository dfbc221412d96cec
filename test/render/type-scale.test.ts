import { describe, expect, it } from 'vitest';
import { listPanelIds, loadPanel, ppiOf } from '../../src/panels/panels.js';
import { capArcMinutes, sizeForArc, typeScale, VIEWING_DISTANCE_MM } from '../../src/render/draw/type-scale.js';

describe('type scale', () => {
  it('gives the arc minutes of a cap height on a 7.5" panel at 2 m: 40 px 10.2′, 22 px 5.6′, 14 px 3.6′', () => {
    expect(capArcMinutes(40, 124.4, 2000)).toBeCloseTo(10.2, 1);
    expect(capArcMinutes(22, 124.4, 2000)).toBeCloseTo(5.6, 1);
    expect(capArcMinutes(14, 124.4, 2000)).toBeCloseTo(3.6, 1);
  });

  it('turns arc minutes into the smallest px size that reaches them, by pixel density', () => {
    expect(sizeForArc(10, 124.4, 2000)).toBe(40);
    expect(capArcMinutes(sizeForArc(10, 300, 2000), 300, 2000)).toBeGreaterThanOrEqual(10);
    expect(capArcMinutes(sizeForArc(10, 300, 2000) - 1, 300, 2000)).toBeLessThan(10);
    // never below the rasteriser's floor, however close
    expect(sizeForArc(1, 100, 300)).toBe(11);
  });

  it('has a ppi for every panel, and puts a wall panel’s outfit at 10′ from 2 m and a small one’s at 12′ at arm’s length', () => {
    for (const id of listPanelIds()) {
      const panel = loadPanel(id);
      expect(panel.ppi, id).toBeGreaterThan(90);
      expect(Math.abs(ppiOf(panel) - Math.hypot(panel.width, panel.height) / panel.diagonal_in)).toBeLessThan(1);
    }
    const wall = typeScale('wall', 124.4);
    expect(wall.outfit).toBe(40);
    expect(wall.reading).toBeGreaterThanOrEqual(30);
    const hand = typeScale('hand', 130.6);
    expect(capArcMinutes(hand.outfit, 130.6, VIEWING_DISTANCE_MM.hand)).toBeGreaterThanOrEqual(12);
  });
});
