/**
 * Where a line may not break, and which lines are too lonely to stand: the rules text-fit.ts applies after its greedy
 * wrap, at no cost in lines. A time or a number stays with the word before it ("trying again at 08:12", "Feels like
 * 1°"), a unit with its number ("95 %", "5 Min."), a separator and a word of one or two letters with the word after
 * them ("· No connection", "a thick"); and a line of one word is not left at a paragraph's end (or a lone time,
 * number or short word anywhere) where the line before can give it a word. Words here are as splitWords cuts them:
 * no spaces, soft hyphens in place.
 */

import { CJK, SHY } from './word-pieces.js';

/** Punctuation that may open or close a word without making it another kind of word ("(08:12)", "today."). */
const EDGES = /^[("'«„“‘¿¡「『（]+|[)"'»“”’.,;:!?…。、，．！？」』）]+$/gu;

/**
 * The last paragraphs' bindings, by their words: a frame's layout fits the same text at many sizes and in many rooms
 * (layout-wide.ts tries its steps), and binding a long paragraph costs a few regular expressions a word. Bounded:
 * cleared when it holds BINDINGS_KEPT paragraphs.
 */
const boundCache = new Map<string, readonly boolean[]>();
const BINDINGS_KEPT = 64;

const bare = (word: string): string => word.replaceAll(SHY, '').replace(EDGES, '');

/** A clock time: "08:12", "8.12", "20h15", with or without a trailing comma or full stop. */
const TIME = /^\d{1,2}[:.h]\d{2}$/u;
/** A number, signed or not, with decimals, and a unit sign glued to it: "4", "−9°", "95%", "1,5", "+3". */
const NUMBER = /^[+\-−]?\d+(?:[.,]\d+)*(?:°[CF]?|%|′|″)?$/u;
/** What reads as a time's or a number's own unit when it follows one ("AM", "%", "km/h", "Min.", "Uhr"). */
const UNIT =
  /^(?:[AaPp]\.?[Mm]\.?|%|°[CF]?|[a-zA-Zµ]{1,3}(?:\/[a-zA-Z]{1,2})?|[A-Z][a-z]{1,3}\.|Uhr|min|tim|godz\.?)$/u;
/** A unit at a word's start, before its punctuation or the text that runs on without a space ("°C。重ね着"). */
const UNIT_HEAD = /^(?:°[CF]?|%|km\/h|m\/s|mm|cm|hPa)(?![a-zA-Z])/u;
/** Separators: they belong to what follows them, and never end a line. */
const SEPARATOR = /^[·•|–—\-/]$/u;

export const isTime = (word: string): boolean => TIME.test(bare(word));
export const isNumber = (word: string): boolean => NUMBER.test(bare(word));

/** Letters of a word, without its punctuation and soft hyphens. */
const letters = (word: string): number => [...bare(word)].length;

/** A word of one or two letters that ends no phrase ("a", "No", "à", "w"): it goes with the word after it. */
function leansForward(word: string): boolean {
  const b = bare(word);
  return b.length > 0 && letters(word) <= 2 && /^\p{L}+$/u.test(b) && !/[.,;:!?…)]$/u.test(word);
}

/**
 * For each word of a paragraph but the last, whether it must stay on one line with the word after it. A word that ends
 * with a sentence's or a clause's mark is never bound to the next ("08:12." ends a thought).
 */
export function bindings(words: readonly string[]): readonly boolean[] {
  const key = words.join('\n');
  const known = boundCache.get(key);
  if (known) return known;
  const out = bindingsOf(words);
  if (boundCache.size >= BINDINGS_KEPT) boundCache.clear();
  boundCache.set(key, out);
  return out;
}

function bindingsOf(words: readonly string[]): boolean[] {
  const out: boolean[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const a = words[i]!;
    const b = words[i + 1]!;
    const ends = /[.;:!?…]$/u.test(a) && !isTime(a) && !isNumber(a);
    out.push(
      SEPARATOR.test(a) || (!ends && (isTime(b) || isNumber(b))) || unitAfter(a, b) || (!ends && leansForward(a)),
    );
  }
  return out;
}

/** A unit after its number ("4 °C;", "95 %", "5 Min."): the unit is read without its punctuation. */
const unitAfter = (a: string, b: string): boolean =>
  (isTime(a) || isNumber(a)) && !/[,;:!?…]$/u.test(a) && UNIT.test(bare(b));

/**
 * Whether a break between two words is one no mending may make ("4 / °C", "at / 08:12", "· / No"): every binding
 * but a short word's lean on the next, which gives way where a lone line is the worse ("Stay in if / you can.").
 */
export function unbreakable(a: string, b: string): boolean {
  const ends = /[.;:!?…]$/u.test(a) && !isTime(a) && !isNumber(a);
  return SEPARATOR.test(a) || (!ends && (isTime(b) || isNumber(b))) || unitAfter(a, b);
}

/**
 * Code points of the number a Chinese or Japanese word ends with ("…体感は1" → 1), where the next word starts with
 * its unit ("°C。…"): the two are glued across the space as a number and its unit are (0: no such pair).
 */
export function cjkNumberBeforeUnit(a: string, b: string): number {
  const m = /(\d+(?:[.,]\d+)*)$/u.exec(a);
  if (!m || m.index === 0 || !CJK.test(a)) return 0;
  return UNIT_HEAD.test(b) ? [...m[1]!].length : 0;
}

/** Characters at most of a word that cannot stand on a line of its own ("today.", "No", "boots."). */
export const SHORT_WORD = 7;

/** Whether a line of these words is a lone time, number or short word: a line that says nothing by itself. */
export function isLoneLine(words: readonly string[]): boolean {
  if (words.length !== 1) return false;
  const w = words[0]!;
  return isTime(w) || isNumber(w) || SEPARATOR.test(w) || letters(w) <= SHORT_WORD;
}
