import { baseDirection } from './bidi.js';
import { bindings, isLoneLine, unbreakable } from './break-rules.js';
import { mendCjk } from './cjk-mend.js';
import { measureEm, wordSpace, type FontId } from './fonts.js';
import type { Piece, WrapContext } from './wrap-piece.js';
import { SHY, TokenMemo, firstBreakAfter, lastFittingDown, lastFittingUp, pieceOf, plainOf } from './word-pieces.js';

/**
 * Words into lines, for text-fit.ts: greedily, as its search for the largest size counts them, and then broken
 * better in no more lines (break-rules.ts), for the lines it draws. Pure arithmetic over em widths.
 */

export interface TextLine {
  text: string;
  /** x offsets (px, from the line start) of each word, and the words, as drawn. */
  words: { text: string; x: number }[];
  width: number;
  /** Its paragraph runs right to left (bidi.ts baseDirection): drawn so, against the box's right edge; absent: unknown. */
  rtl?: boolean;
}

/** Lines, and whether a word had to be cut between two characters that are no break point. */
export interface Wrapped {
  lines: TextLine[];
  midWord: boolean;
}

/** A paragraph's lines as pieces, and whether a word had to be cut between two characters that are no break point. */
interface Rows {
  rows: Piece[][];
  midWord: boolean;
}

/** A line of pieces, each a space after the one before (the first at 0), as drawFitted places them. */
function lineOf(row: readonly Piece[], space: number, rtl: boolean): TextLine {
  const words: TextLine['words'] = [];
  let x = 0;
  for (const p of row) {
    const at = words.length === 0 ? 0 : x + space;
    words.push({ text: p.text, x: at });
    x = at + p.w;
  }
  return { text: words.map((w) => w.text).join(' '), words, width: x, rtl };
}

/**
 * Greedy wrap of a paragraph's words into lines. A word that does not fit where the line has got to goes to the next
 * line whole, or, hyphenated at a soft hyphen, partly on this one; a word wider than the line is broken at its break
 * points (soft hyphens, and after / . - _ ? & =), else between any two characters. With `bound` (break-rules.ts), a
 * run of words bound together that fits a line but not the rest of this one starts the next. Stops a line past `cap`.
 */
function greedy(para: readonly string[], c: WrapContext, bound: readonly boolean[] | null, cap: number): Rows {
  const { size, width, space, px, tokens } = c;
  const rows: Piece[][] = [];
  let midWord = false;
  let cur: Piece[] = [];
  let x = 0;
  const place = (piece: Piece, at: number): void => {
    cur.push(piece);
    x = at + piece.w;
  };
  const flush = (): void => {
    if (cur.length === 0) return;
    rows.push(cur);
    cur = [];
    x = 0;
  };
  for (let i = 0; i < para.length; i++) {
    const t = tokens.of(para[i]!);
    const n = t.chars.length;
    if (bound && cur.length > 0 && bound[i] && !bound[i - 1]) {
      // The run's width laid out as this loop lays it out: where it fits a line but not what is left of this one, it
      // starts the next.
      let run = 0;
      for (let k = i; k === i || bound[k - 1]; k++)
        run = (k === i ? 0 : run + space) + tokens.of(para[k]!).wholeEm * size;
      if (run <= width && x + space + run > width) {
        flush();
        if (rows.length > cap) return { rows, midWord };
      }
    }
    let start = 0;
    while (start < n) {
      const at = cur.length === 0 ? 0 : x + space;
      // How much of the rest fits after `from`: each try measures a piece no longer than a line holds (word-pieces.ts).
      const reach = (from: number): number =>
        lastFittingUp(start + 1, n, (k) => from + px(plainOf(t, start, k)) <= width);
      const restFits = (from: number): boolean => (start === 0 ? from + t.wholeEm * size <= width : reach(from) === n);
      if (restFits(at)) {
        const whole = start === 0;
        const text = whole ? t.whole : pieceOf(t, start, n);
        place({ text, word: i, whole, w: whole ? t.wholeEm * size : px(text), from: start, to: n }, at);
        break;
      }
      const fitsALine = at > 0 && restFits(0);
      // A word that fits a line and has no soft hyphen goes to the next line whole: no piece of it to measure.
      if (fitsALine && !t.chars.includes(SHY)) {
        flush();
        if (rows.length > cap) return { rows, midWord };
        continue;
      }
      // The longest piece up to a break point that fits after `at` (soft hyphens only, for a word that fits a line):
      // no piece reaching past what fits without a hyphen can.
      const last = reach(at);
      const candidates: number[] = [];
      for (let j = firstBreakAfter(t, start); j < t.breaks.length && t.breaks[j]! <= last; j++) {
        const b = t.breaks[j]!;
        if (!fitsALine || t.chars[b - 1] === SHY) candidates.push(b);
      }
      const c = lastFittingDown(0, candidates.length - 1, (j) => at + px(pieceOf(t, start, candidates[j]!)) <= width);
      let k = c < 0 ? -1 : candidates[c]!;
      if (k < 0 && cur.length > 0) {
        flush();
        if (rows.length > cap) return { rows, midWord };
        continue;
      }
      if (k < 0) {
        // Nothing fits: as many characters as the line holds (at least one).
        k = Math.max(
          start + 1,
          lastFittingUp(start + 2, n, (e) => px(pieceOf(t, start, e)) <= width),
        );
        midWord = true;
      }
      const text = pieceOf(t, start, k);
      place({ text, word: i, whole: false, w: px(text), from: start, to: k }, at);
      flush();
      if (rows.length > cap) return { rows, midWord };
      start = k;
    }
  }
  flush();
  return { rows, midWord };
}

/**
 * Moves the last word of line i - 1, with the words bound to it, to the start of line i, where they fit there and what
 * stays is neither empty nor a lone line; where they do not fit, fewer of them, breaking only a short word's lean on
 * the next (break-rules.ts unbreakable). Returns whether it did: the same lines, broken elsewhere.
 */
function moveDown(
  rows: Piece[][],
  i: number,
  para: readonly string[],
  bound: readonly boolean[],
  c: WrapContext,
): boolean {
  const prev = rows[i - 1]!;
  let from = prev.length - 1;
  while (from > 0 && prev[from]!.whole && prev[from - 1]!.whole && bound[prev[from - 1]!.word]) from--;
  for (let k = Math.max(1, from); k < prev.length; k++) {
    if (!prev[k]!.whole) return false;
    if (k > from && unbreakable(para[prev[k - 1]!.word]!, para[prev[k]!.word]!)) continue;
    const moved = [...prev.slice(k), ...rows[i]!];
    const stays = prev.slice(0, k);
    if (lineOf(moved, c.space, false).width > c.width) continue;
    if (stays.length === 1 && isLoneLine([para[stays[0]!.word]!])) continue;
    rows[i - 1] = stays;
    rows[i] = moved;
    return true;
  }
  return false;
}

/**
 * Breaks mended in place (break-rules.ts), in the first `upTo` lines only (a cut text's last line shown gets its
 * ellipsis where it is): a break between two bound words (a greedy wrap that needed a line fewer than the bound one)
 * moves the words before it down where they fit there; then a lone line, or a paragraph's last line of one word,
 * takes the last word of the line before, from the end up, so a line that gave a word is looked at after.
 */
function mendBreaks(
  rows: Piece[][],
  para: readonly string[],
  bound: readonly boolean[],
  c: WrapContext,
  upTo: number,
): void {
  const end = Math.min(rows.length, upTo);
  for (let i = 1; i < end; i++) {
    const last = rows[i - 1]!.at(-1);
    const first = rows[i]![0];
    if (last?.whole && first?.whole && first.word === last.word + 1 && bound[last.word])
      moveDown(rows, i, para, bound, c);
  }
  for (let i = end - 1; i >= 1; i--) {
    const row = rows[i]!;
    const only = row.length === 1 ? row[0]! : null;
    if (only?.whole && (i === rows.length - 1 || isLoneLine([para[only.word]!]))) moveDown(rows, i, para, bound, c);
  }
  mendCjk(rows, para, c, end);
}

/**
 * When the break rules bind words in wrap: where that takes no more lines than the greedy wrap ('fewer'), always (a
 * cut text, whose lines shown must not depend on how long it runs on past them: text-fit.ts compares what each
 * shows), or never.
 */
export type Bind = 'fewer' | 'always' | 'never';

/**
 * The paragraphs wrapped at `size` into `width` px (greedy). With `mend`, each paragraph is broken better, in the
 * first `mend` lines of the text: its words bound as `bind` says, then its breaks mended (mendBreaks).
 */
export function wrap(
  font: FontId,
  size: number,
  paragraphs: string[][],
  width: number,
  tokens: TokenMemo = new TokenMemo(font),
  limit = Infinity,
  mend = 0,
  bind: Bind = 'fewer',
): Wrapped {
  const c: WrapContext = { size, width, space: wordSpace(font, size), px: (s) => measureEm(font, s) * size, tokens };
  const lines: TextLine[] = [];
  let midWord = false;
  for (const para of paragraphs) {
    let r = greedy(para, c, null, limit - lines.length);
    if (mend > lines.length) {
      const bound = bindings(para);
      if (bind !== 'never' && bound.some(Boolean)) {
        const b = greedy(para, c, bound, Infinity);
        if (bind === 'always' || (b.rows.length <= r.rows.length && (!b.midWord || r.midWord))) r = b;
      }
      mendBreaks(r.rows, para, bound, c, mend - lines.length);
    }
    midWord ||= r.midWord;
    const rtl = baseDirection(para.join(' ')) === 'rtl';
    for (const row of r.rows) lines.push(lineOf(row, c.space, rtl));
    if (lines.length > limit) return { lines, midWord };
  }
  return { lines, midWord };
}
