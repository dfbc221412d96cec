/**
 * Test helper: how far apart two pictograms read, as bitmaps of ink (1) and paper (0) of one size. The eye does
 * not care where a shape sits within a pixel or two, so the two are first laid over each other as well as they
 * go (shifted by up to `slack` px either way); what is left is 1 - IoU of their ink: 0 for the same shape, 1 for
 * shapes that share no ink. Measured against the union of the ink, not the whole square, so two small shapes are
 * not called alike merely because both leave most of the square empty.
 */
export function inkDistance(a: Uint8Array, b: Uint8Array, size: number, slack = 1): number {
  let best = 1;
  for (let dy = -slack; dy <= slack; dy++) {
    for (let dx = -slack; dx <= slack; dx++) {
      let both = 0;
      let either = 0;
      for (let y = 0; y < size; y++) {
        for (let x = 0; x < size; x++) {
          const p = a[y * size + x]!;
          const bx = x - dx;
          const by = y - dy;
          const q = bx >= 0 && by >= 0 && bx < size && by < size ? b[by * size + bx]! : 0;
          both += p & q;
          either += p | q;
        }
      }
      if (either > 0) best = Math.min(best, 1 - both / either);
    }
  }
  return best;
}
