import { pieceOf, type TokenMemo } from './word-pieces.js';

/** The pieces line-wrap.ts wraps a paragraph into, shared with the mending of Chinese and Japanese (cjk-mend.ts). */

/** A piece of a line: a word whole, or the part of one broken across lines; `word` is its index in the paragraph. */
export interface Piece {
  text: string;
  word: number;
  whole: boolean;
  /** Its width, px. */
  w: number;
  /** The code points of its word it holds: [from, to). */
  from: number;
  to: number;
}

/** What wrapping a paragraph needs besides its words: the size's measures, the line's width, the token memo. */
export interface WrapContext {
  size: number;
  width: number;
  space: number;
  px: (s: string) => number;
  tokens: TokenMemo;
}

/** A row's width as lineOf (line-wrap.ts) lays it out: its pieces a space apart, px. */
export const rowWidth = (row: readonly Piece[], space: number): number =>
  row.reduce((x, p, i) => x + (i === 0 ? 0 : space) + p.w, 0);

/** A piece of word `word` (token t): its code points [from, to). */
export function pieceFor(
  t: ReturnType<TokenMemo['of']>,
  word: number,
  from: number,
  to: number,
  c: WrapContext,
): Piece {
  const whole = from === 0 && to === t.chars.length;
  const text = pieceOf(t, from, to);
  return { text, word, whole, w: whole ? t.wholeEm * c.size : c.px(text), from, to };
}
