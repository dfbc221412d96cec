/**
 * Right-to-left text in display order, one line at a time (line breaking works on logical order first, in
 * text-fit.ts). A simplified bidi resolution, enough for Hebrew and Arabic words inside Latin text and the
 * reverse:
 * - the line's direction is that of its first strong character (Latin and the like: left to right; Hebrew,
 *   Arabic, RLM: right to left);
 * - runs of right-to-left characters are reversed; a digit run (with . , : / between digits, and a leading sign)
 *   inside them keeps its left-to-right order, as do Latin words inside a right-to-left line;
 * - spaces and punctuation between two characters of one direction take that direction, else the line's;
 * - brackets are mirrored inside right-to-left runs;
 * - a combining mark stays after its base.
 * A wrapped paragraph's lines take the paragraph's direction (`baseDirection`, passed as a leading LRM or RLM).
 * Not done: explicit embeddings, overrides and isolates (U+202A–202E, U+2066–2069 are dropped). A right-to-left
 * paragraph's lines are set against the right edge of their box (text-fit.ts marks them, layout/blocks.ts places them).
 */

type Kind = 'L' | 'R' | 'N' | 'EN';

const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u200F\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;
const LETTER = /[\p{L}\u200E]/u;
const DIGIT = /\p{Nd}/u;
const MARK = /[\p{M}\u200C\u200D]/u;
const EXPLICIT = /[\u202A-\u202E\u2066-\u2069]/gu;
const NUMBER_SEPARATOR = /^[.,:/\u066B\u066C]$/;
/** Signs that go with a number they touch: percent, degrees, currencies, plus and minus. */
const NUMBER_TERMINATOR = /^[%\u2030\u00B0\u2103\u2109#$\u00A2-\u00A5\u20A0-\u20CF+\-\u2212]$/;
const MIRROR: Record<string, string> = {
  '(': ')',
  ')': '(',
  '[': ']',
  ']': '[',
  '{': '}',
  '}': '{',
  '<': '>',
  '>': '<',
  '«': '»',
  '»': '«',
  '‹': '›',
  '›': '‹',
};

function kindOf(ch: string): Kind {
  if (RTL.test(ch)) return DIGIT.test(ch) ? 'EN' : 'R';
  if (DIGIT.test(ch)) return 'EN';
  return LETTER.test(ch) ? 'L' : 'N';
}

/** Whether the text has a right-to-left character (Hebrew, Arabic, RLM): its order on screen is not logical. */
export function hasRightToLeft(text: string): boolean {
  return RTL.test(text);
}

/**
 * The direction of a paragraph: that of its first strong character (null without one). Each line of a wrapped
 * paragraph is drawn in it, so a line of an English outfit that starts with a Hebrew word keeps its ellipsis on the right.
 */
export function baseDirection(text: string): 'ltr' | 'rtl' | null {
  for (const ch of text.replace(EXPLICIT, '')) {
    const k = kindOf(ch);
    if (k === 'L') return 'ltr';
    if (k === 'R') return 'rtl';
  }
  return null;
}

/** The line with its characters in the order they are drawn, left to right. */
export function visualOrder(line: string): string {
  const text = line.replace(EXPLICIT, '');
  if (!RTL.test(text)) return text;
  // Clusters: a base and the marks after it move together.
  const clusters: string[] = [];
  for (const ch of text) {
    if (MARK.test(ch) && clusters.length > 0) clusters[clusters.length - 1] += ch;
    else clusters.push(ch);
  }
  const kinds = clusters.map((c) => kindOf(String.fromCodePoint(c.codePointAt(0)!)));
  // Separators between digits, and signs touching digits (-4, 80 %, 4°, €5), belong to the number.
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i] === 'N' && NUMBER_SEPARATOR.test(clusters[i]!) && kinds[i - 1] === 'EN' && kinds[i + 1] === 'EN')
      kinds[i] = 'EN';
  }
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i] !== 'EN') continue;
    for (let k = i - 1; k >= 0 && kinds[k] === 'N' && NUMBER_TERMINATOR.test(clusters[k]!); k--) kinds[k] = 'EN';
    for (let k = i + 1; k < kinds.length && kinds[k] === 'N' && NUMBER_TERMINATOR.test(clusters[k]!); k++)
      kinds[k] = 'EN';
  }
  const firstStrong = kinds.find((k) => k === 'L' || k === 'R');
  const base = firstStrong === 'R' ? 1 : 0;
  // For neutrals, a number counts as right-to-left (it sits inside the right-to-left text around it).
  const strong = (k: Kind | undefined): 0 | 1 | null => (k === 'L' ? 0 : k === 'R' || k === 'EN' ? 1 : null);
  const dirs: (0 | 1)[] = kinds.map((k) => strong(k) ?? base);
  for (let i = 0; i < kinds.length;) {
    if (strong(kinds[i]) !== null) {
      i++;
      continue;
    }
    let j = i;
    while (j < kinds.length && strong(kinds[j]) === null) j++;
    const before = i > 0 ? strong(kinds[i - 1]) : base;
    const after = j < kinds.length ? strong(kinds[j]) : base;
    for (let k = i; k < j; k++) dirs[k] = before !== null && before === after ? before : base;
    i = j;
  }
  // Levels: right-to-left characters are odd; numbers and left-to-right text inside them one higher.
  // A number in a left-to-right line takes the direction of the last letter before it (kept as the line is read:
  // looking back from each digit made a long run of them cost the square of its length).
  let lastLetter: Kind | undefined;
  const levels = kinds.map((k, i) => {
    const before = lastLetter;
    if (k === 'L' || k === 'R') lastLetter = k;
    if (k === 'EN') return base === 1 ? 2 : strong(before) === 1 ? 2 : 0;
    if (base === 0) return dirs[i] === 1 ? 1 : 0;
    return dirs[i] === 1 ? 1 : 2;
  });
  const order = clusters.map((c, i) =>
    levels[i]! % 2 === 1 ? [...c].map((ch, n) => (n === 0 ? (MIRROR[ch] ?? ch) : ch)).join('') : c,
  );
  const max = Math.max(...levels);
  for (let level = max; level >= 1; level--) {
    for (let i = 0; i < order.length;) {
      if (levels[i]! < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < order.length && levels[j]! >= level) j++;
      reverse(order, i, j);
      reverse(levels, i, j);
      i = j;
    }
  }
  return order.join('');
}

function reverse<T>(a: T[], from: number, to: number): void {
  for (let i = from, j = to - 1; i < j; i++, j--) [a[i], a[j]] = [a[j]!, a[i]!];
}
