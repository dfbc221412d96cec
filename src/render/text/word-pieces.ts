import { fontGeneration } from './font-stack.js';
import { measureEm, type FontId } from './fonts.js';

/**
 * The words text-fit.ts wraps, as code points with the places they may break, and the searches that find how much
 * of a word fits: a word may be thousands of characters without a space (a model's answer gone wrong), and trying
 * one more character at a time, each try measuring the whole piece, made its layout cost grow with the square of its
 * length, and every shorter piece of it measured and kept (glyph-run.ts) ran the render process out of heap.
 */

/** The soft hyphen: a break point, drawn as "-" at the end of a line it breaks, and nowhere else. */
export const SHY = '\u00ad';
/** A token may break after these (URLs, e-mail addresses, paths, compounds), never inside a run of them. */
const BREAK_AFTER = new Set(['/', '.', '-', '_', '?', '&', '=']);

/**
 * Chinese and Japanese are written without spaces: a line may break before or after any of their characters (Han,
 * kana, their punctuation, full-width forms), but not before closing punctuation, a small kana or the long-vowel mark,
 * nor after an opening bracket (the line-breaking rules of Japanese, kinsoku, in brief).
 */
export const CJK =
  /[\p{Script=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\u3000-\u303F\uFF00-\uFFEF]/u;
const NO_LINE_START = new Set([
  ...'、。，．・：；？！ー」』）〕］｝〉》】ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々〻‐゠–〜～？！‼⁇⁈⁉,.:;!?)]}%',
]);
const NO_LINE_END = new Set([...'「『（〔［｛〈《【([{']);

/** Whether a line may break between two characters one of which is Chinese or Japanese (CJK). */
function cjkBreak(before: string, after: string): boolean {
  return (CJK.test(before) || CJK.test(after)) && !NO_LINE_START.has(after) && !NO_LINE_END.has(before);
}

/** A word as code points, with the places it may break (k: between chars[k - 1] and chars[k]), in order. */
export interface Token {
  chars: string[];
  breaks: number[];
}

export function tokenOf(word: string): Token {
  const chars = [...word];
  const breaks: number[] = [];
  const cjk = CJK.test(word);
  for (let k = 1; k < chars.length; k++) {
    const before = chars[k - 1]!;
    const after = chars[k]!;
    if (
      (k >= 2 && (before === SHY || (BREAK_AFTER.has(before) && !BREAK_AFTER.has(after) && after !== SHY))) ||
      (cjk && after !== SHY && cjkBreak(before, after))
    )
      breaks.push(k);
  }
  return { chars, breaks };
}

/** The drawn text of chars[a..b): soft hyphens left out, and a "-" where it ends at one that breaks the line. */
export function pieceOf(t: Token, a: number, b: number): string {
  const text = t.chars.slice(a, b).join('').replaceAll(SHY, '');
  return b < t.chars.length && t.chars[b - 1] === SHY ? `${text}-` : text;
}

/** chars[a..b) as drawn inside a line: soft hyphens left out, never a "-" (a longer piece holds all of it). */
export function plainOf(t: Token, a: number, b: number): string {
  return t.chars.slice(a, b).join('').replaceAll(SHY, '');
}

/** The widest stretch of a word between its break points, em: it can only be drawn whole or cut mid-word. */
export function widestSegment(font: FontId, t: Token): number {
  let widest = 0;
  let a = 0;
  for (const k of [...t.breaks, t.chars.length]) {
    widest = Math.max(widest, measureEm(font, pieceOf(t, a, k)));
    a = k;
  }
  return widest;
}

/** The index of the first break after `start` (breaks.length when there is none). */
export function firstBreakAfter(t: Token, start: number): number {
  let lo = 0;
  let hi = t.breaks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t.breaks[mid]! <= start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The largest k in (good, bad) for which `fits` holds, knowing it holds at `good` and not at `bad`: by halving,
 * as a piece of a word no shorter than another is no narrower.
 */
function bisect(good: number, bad: number, fits: (k: number) => boolean): number {
  while (bad - good > 1) {
    const mid = Math.floor((good + bad) / 2);
    if (fits(mid)) good = mid;
    else bad = mid;
  }
  return good;
}

/**
 * The largest k in [lo, hi] for which `fits` holds (lo - 1 where it does not hold at lo), for a `fits` that holds up
 * to some k and not beyond: lo, lo + 1, lo + 3, lo + 7... then halving the last step. Each try measures a piece at
 * most twice as long as the answer, and there are about twice its logarithm of them, however long the word.
 */
export function lastFittingUp(lo: number, hi: number, fits: (k: number) => boolean): number {
  if (lo > hi || !fits(lo)) return lo - 1;
  let good = lo;
  let bad = hi + 1;
  for (let step = 1; good < hi; step *= 2) {
    const k = Math.min(hi, good + step);
    if (!fits(k)) {
      bad = k;
      break;
    }
    good = k;
  }
  return bisect(good, bad, fits);
}

/**
 * The same from the top: hi, hi - 1, hi - 3, hi - 7... until one fits, then halving; for an answer expected near hi
 * (an ellipsis takes the room of a letter or two).
 */
export function lastFittingDown(lo: number, hi: number, fits: (k: number) => boolean): number {
  let bad = hi + 1;
  for (let k = hi, step = 1; k >= lo; step *= 2) {
    if (fits(k)) return bisect(k, bad, fits);
    bad = k;
    if (k === lo) break;
    k = Math.max(lo, k - step);
  }
  return lo - 1;
}

type Memo = Token & { whole: string; wholeEm: number };

/**
 * Words already tokenised, by face: a frame fits the same outfit's words many times (every size from the largest
 * down, and a household frame every way its people can share it), and the next frame mostly the same words again.
 * Emptied when full, so that months of new outfits never grow it (a frame's words number a few hundred), and when
 * the font stacks change (their widths with them). A word longer than a line's worth is kept by its memo alone, for
 * one fitting, as glyph-run.ts keeps no such run (a word of thousands of characters would keep as many strings).
 */
const WORDS = new Map<FontId, Map<string, Memo>>();
const WORDS_MAX = 4_000;
const WORD_KEPT_LONGEST = 200;
let wordsOf = fontGeneration();

/** The tokens of fitted words, with each whole word's text and width (kept across calls in WORDS, long ones per memo). */
export class TokenMemo {
  private readonly words: Map<string, Memo>;
  /** This memo's own words too long to keep in WORDS: kept for the one fitting that made it. */
  readonly #long = new Map<string, Memo>();

  constructor(private readonly font: FontId) {
    if (wordsOf !== fontGeneration()) {
      WORDS.clear();
      wordsOf = fontGeneration();
    }
    let words = WORDS.get(font);
    if (!words) WORDS.set(font, (words = new Map<string, Memo>()));
    this.words = words;
  }

  of(word: string): Memo {
    let t = this.words.get(word) ?? this.#long.get(word);
    if (!t) {
      const token = tokenOf(word);
      const whole = pieceOf(token, 0, token.chars.length);
      t = { ...token, whole, wholeEm: measureEm(this.font, whole) };
      if (word.length > WORD_KEPT_LONGEST) this.#long.set(word, t);
      else {
        if (this.words.size >= WORDS_MAX) this.words.clear();
        this.words.set(word, t);
      }
    }
    return t;
  }
}
