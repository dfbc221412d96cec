import { describe, expect, it } from 'vitest';
import { inkDistance } from './ink-distance.js';

/** A size x size bitmap with ink where `inked(x, y)`. */
const bitmap = (size: number, inked: (x: number, y: number) => boolean): Uint8Array =>
  Uint8Array.from({ length: size * size }, (_, i) => (inked(i % size, Math.floor(i / size)) ? 1 : 0));

describe('inkDistance', () => {
  const square = bitmap(24, (x, y) => x >= 6 && x < 18 && y >= 6 && y < 18);

  it('is 0 for the same shape, and for the same shape a pixel off, which the eye does not tell apart', () => {
    expect(inkDistance(square, square, 24)).toBe(0);
    const moved = bitmap(24, (x, y) => x >= 7 && x < 19 && y >= 5 && y < 17);
    expect(inkDistance(square, moved, 24)).toBe(0);
    // Two pixels off is a different place: the slack takes one pixel, the other leaves 12 of 144 on each side.
    const far = bitmap(24, (x, y) => x >= 8 && x < 20 && y >= 6 && y < 18);
    expect(inkDistance(square, far, 24)).toBeCloseTo(1 - 132 / 156, 6);
  });

  it('is 1 for shapes that share no ink however laid, and counts against the ink, not the empty square', () => {
    const left = bitmap(24, (x, y) => x < 4 && y < 4);
    const right = bitmap(24, (x, y) => x >= 20 && y >= 20);
    expect(inkDistance(left, right, 24)).toBe(1);
    // A 12x12 square and the same with a 4x4 hole: 16 of 144 pixels of ink differ, 16 of 576 of the square.
    const holed = bitmap(
      24,
      (x, y) => x >= 6 && x < 18 && y >= 6 && y < 18 && !(x >= 10 && x < 14 && y >= 10 && y < 14),
    );
    expect(inkDistance(square, holed, 24)).toBeCloseTo(16 / 144, 6);
  });
});
