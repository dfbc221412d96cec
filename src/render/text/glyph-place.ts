/**
 * Where grid-fitted glyphs go along a line (fonts.ts draws them): by their ink, not by pens rounded one by one.
 * Rounding each pen to a pixel put a glyph's ink up to a pixel off the next one's, so gaps opened inside words
 * ("Hal lway", "Li ght", "8: 30 AM") and closed between them ("rainand"). Here:
 * - two letters of a word are as far apart as the design has their ink, rounded, and at least a pixel where the
 *   design has them apart (so "rn" never reads "m"); a pair is the same distance apart wherever it lands;
 * - where the ink has run AHEAD_PX ahead of the design or BEHIND_PX behind it, the next gap is rounded the other
 *   way, so a word stays within about a pixel of its measured width;
 * - a word's ink is centred on where the design has it (ink rounded to whole pixels is wider than designed, about
 *   half a pixel a letter at 9 px: a long word would otherwise overrun the next word's space by two);
 * - a word gap is the design's plus `wordSpace` px, and at least MIN_WORD_GAP_EM;
 * - a combining mark moves with its base glyph.
 * Integer arithmetic on rounded values: the same on every machine.
 */

export interface PlacedInk {
  /** The glyph's designed pen, px (fractional). */
  exact: number;
  /** Its bitmap's ink columns from the pen [left, right), px; null when it draws nothing. */
  ink: [number, number] | null;
  /** Its outline's ink as designed (emboldening included) from the pen [left, right], px. */
  design: [number, number];
  /** A combining mark (drawn over the glyph before it) or a raised glyph. */
  mark: boolean;
  /** A space: the next glyph starts a word. */
  space: boolean;
}

/** How far (px) the ink may run ahead of or behind the design before a letter gap is rounded the other way. */
const AHEAD_PX = 0.75;
const BEHIND_PX = 1.25;
/** The least word gap, em (DejaVu's is 0.43-0.46 em, its letter gaps up to about 0.2 em). */
const MIN_WORD_GAP_EM = 0.4;

/** The whole-pixel pen of each glyph. */
export function placeGlyphs(glyphs: readonly PlacedInk[], size: number, wordSpace: number): number[] {
  const at = glyphs.map((g) => Math.round(g.exact));
  // The glyphs of the word being placed (indices), and its drawn and designed ink edges.
  let word: number[] = [];
  let drawnLeft = 0;
  let designLeftOfWord = 0;
  let drawnRight: number | null = null;
  let designRight = 0;
  let spaces = 0;
  let moved = 0;
  // The least left edge of the word's ink: the word gap after the word before.
  let floor = -Infinity;
  const minGap = Math.round(MIN_WORD_GAP_EM * size);
  const centre = (): void => {
    if (drawnRight === null || word.length === 0) return;
    // Half the word's overrun (or shortfall) back, so the ink is centred on the design's.
    const shift = Math.max(
      floor - drawnLeft,
      Math.round((designLeftOfWord + designRight - drawnLeft - drawnRight) / 2),
    );
    for (const i of word) at[i]! += shift;
    drawnRight += shift;
    moved += shift;
    word = [];
  };
  for (const [i, g] of glyphs.entries()) {
    if (g.space) spaces++;
    if (g.mark) {
      at[i] = Math.round(g.exact + moved);
      word.push(i);
      continue;
    }
    if (!g.ink) continue;
    const left = g.exact + g.design[0];
    let ink: number;
    if (drawnRight === null) {
      ink = Math.round(left);
    } else if (spaces > 0) {
      centre();
      const ideal = left - designRight + wordSpace * spaces;
      floor = drawnRight + minGap;
      ink = drawnRight + Math.max(minGap, Math.round(ideal));
    } else {
      const ideal = left - designRight;
      const least = ideal > 0.25 ? 1 : -Infinity;
      ink = drawnRight + Math.max(least, Math.round(ideal));
      if (ink - left > AHEAD_PX && ink - 1 - drawnRight >= least) ink -= 1;
      else if (ink - left < -BEHIND_PX) ink += 1;
    }
    if (word.length === 0) {
      drawnLeft = ink;
      designLeftOfWord = left;
    }
    at[i] = ink - g.ink[0];
    moved = at[i] - g.exact;
    drawnRight = at[i] + g.ink[1];
    designRight = g.exact + g.design[1];
    spaces = 0;
    word.push(i);
  }
  centre();
  return at;
}
