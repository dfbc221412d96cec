import { describe, expect, it } from 'vitest';
import { deltaE2000, inkDistance, labOf } from '../../src/render/draw/colour-difference.js';
import { hexToRgb } from '../../src/panels/panels.js';

describe('CIEDE2000', () => {
  // Sharma, Wu and Dalal (2005), "The CIEDE2000 color-difference formula", table 1: pairs 1, 7, 13, 17, 19, 25, 34.
  it.each([
    [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
    [[50, 0, 0], [50, -1, 2], 2.3669],
    [[50, 2.49, -0.001], [50, -2.49, 0.0011], 7.2195],
    [[50, 2.5, 0], [73, 25, -18], 27.1492],
    [[50, 2.5, 0], [50, 0, -2.5], 4.3065],
    [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
    [[2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082],
  ] as const)('%j to %j is %f', (a, b, want) => {
    expect(deltaE2000(a, b)).toBeCloseTo(want, 4);
    expect(deltaE2000(b, a)).toBeCloseTo(want, 4);
  });

  it('puts white at L 100 and black at 0 (D65), and tells apart the 7.3" F\'s measured red and orange by 16 only', () => {
    const white = labOf([255, 255, 255]);
    expect(white[0]).toBeCloseTo(100, 3);
    expect(Math.abs(white[1]) + Math.abs(white[2])).toBeLessThan(0.01);
    expect(labOf([0, 0, 0])[0]).toBeCloseTo(0, 6);
    expect(inkDistance(hexToRgb('#9c484b'), hexToRgb('#b16a49'))).toBeCloseTo(16.4, 1);
    // Red and blue: 28, under the 30 of two meanings in the same role (colour-meaning.ts).
    expect(inkDistance(hexToRgb('#9c484b'), hexToRgb('#3d3b5e'))).toBeCloseTo(28.2, 0);
  });
});
