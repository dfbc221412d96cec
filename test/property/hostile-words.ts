import fc from 'fast-check';

/**
 * Words of thousands of characters without a space, as a model's answer gone wrong may end: letters of several
 * scripts, combining marks, right-to-left letters and digits, emoji, zero-width and direction controls, soft hyphens
 * and the characters a long token breaks after. The word is built from its pieces by a seeded choice, so a failure
 * replays from fast-check's seed, and generating a 20,000-character word costs no shrinking of 20,000 values.
 */

export const HOSTILE_PIECES: readonly string[] = [
  'a',
  'W',
  'm',
  'i',
  'é',
  'e\u0301',
  '\u0301',
  '\u0308\u0323',
  '雨',
  '한',
  'מ',
  'ע',
  'م',
  'ع',
  'لا',
  '\u064e',
  'ท',
  '\u0e48',
  '\u0e34',
  '1',
  '٣',
  '🧥',
  '👩🏽‍🦰',
  '☂️',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u200f',
  '\u202e',
  '\u2066',
  '\u00ad',
  '/',
  '.',
  '-',
  '?',
  '=',
];

/** `length` code points of `pieces`, chosen in turn by a small linear congruential generator from `seed`. */
export function wordOf(pieces: readonly string[], length: number, seed: number): string {
  let s = '';
  let n = 0;
  let r = seed >>> 0;
  while (n < length) {
    r = (Math.imul(r, 1103515245) + 12345) >>> 0;
    const piece = pieces[(r >>> 8) % pieces.length]!;
    s += piece;
    n += [...piece].length;
  }
  return s;
}

export interface HostileWord {
  pieces: string[];
  seed: number;
}

/** Which pieces a word is made of (some of them, or one alone: a run of a single mark) and its seed. */
export const hostileWordArb: fc.Arbitrary<HostileWord> = fc.record({
  pieces: fc.oneof(
    fc.subarray([...HOSTILE_PIECES], { minLength: 1 }),
    fc.constantFrom(...HOSTILE_PIECES).map((p) => [p]),
  ),
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
});

/** An outfit that ends in such a word of `length` code points. */
export function outfitEndingIn(w: HostileWord, length: number): string {
  return `Wear a warm coat and ${wordOf(w.pieces, length, w.seed)}`;
}
