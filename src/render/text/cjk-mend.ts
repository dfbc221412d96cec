import { cjkNumberBeforeUnit } from './break-rules.js';
import { CJK } from './word-pieces.js';
import { pieceFor, rowWidth, type Piece, type WrapContext } from './wrap-piece.js';

/**
 * Chinese and Japanese lines mended after the greedy wrap (line-wrap.ts mendBreaks): they break between characters
 * rather than at spaces, so the rules that move whole words (a number with its unit, a lone last line) move characters.
 */

/**
 * Moves the end of line i - 1's last piece, from code point `b` of its word on, to the start of line i (joined to its
 * first piece where that goes on with the same word), where it fits there. Returns whether it did.
 */
function splitDown(rows: Piece[][], i: number, b: number, para: readonly string[], c: WrapContext): boolean {
  const prev = rows[i - 1]!;
  const row = rows[i]!;
  const p = prev.at(-1);
  if (!p || b <= p.from || b >= p.to) return false;
  const t = c.tokens.of(para[p.word]!);
  const head = row[0];
  const moved =
    head && head.word === p.word && head.from === p.to
      ? [pieceFor(t, p.word, b, head.to, c), ...row.slice(1)]
      : [pieceFor(t, p.word, b, p.to, c), ...row];
  if (rowWidth(moved, c.space) > c.width) return false;
  rows[i - 1] = [...prev.slice(0, -1), pieceFor(t, p.word, p.from, b, c)];
  rows[i] = moved;
  return true;
}

/** Code points at least on a Chinese or Japanese paragraph's last line: "ん。" alone says nothing. */
const CJK_LAST_MIN = 4;

/**
 * Chinese and Japanese, broken between characters rather than at spaces: a number that ends a word goes down with the
 * unit that starts the next ("体感は1 / °C。" → "体感は / 1 °C。"), and a last line of fewer than CJK_LAST_MIN
 * characters takes characters from the end of the line before, at its break points, as few as make it enough.
 */
export function mendCjk(rows: Piece[][], para: readonly string[], c: WrapContext, end: number): void {
  for (let i = 1; i < end; i++) {
    const p = rows[i - 1]!.at(-1);
    const head = rows[i]![0];
    if (!p || !head || head.word !== p.word + 1 || head.from !== 0) continue;
    const t = c.tokens.of(para[p.word]!);
    const k = p.to === t.chars.length ? cjkNumberBeforeUnit(para[p.word]!, para[head.word]!) : 0;
    if (k > 0) splitDown(rows, i, t.chars.length - k, para, c);
  }
  const i = rows.length - 1;
  if (i < 1 || i >= end) return;
  const count = rows[i]!.reduce((n, p) => n + [...p.text].length, 0);
  const p = rows[i - 1]!.at(-1);
  if (!p || count >= CJK_LAST_MIN || !CJK.test(rows[i]!.map((q) => q.text).join(''))) return;
  const t = c.tokens.of(para[p.word]!);
  for (let j = t.breaks.length - 1; j >= 0; j--) {
    const b = t.breaks[j]!;
    if (b >= p.to || count + p.to - b < CJK_LAST_MIN) continue;
    if (b <= p.from || splitDown(rows, i, b, para, c)) return;
  }
}
