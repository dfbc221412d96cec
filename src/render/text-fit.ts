import { cleanText, measureEm, type FontId } from './fonts.js';

/**
 * Fitting text into a box: the largest size at which all of it fits, or, at the smallest size, the lines that
 * fit ended with an ellipsis after a whole word (never cut mid-word). Pure arithmetic over em widths.
 */

export const ELLIPSIS = '…';

export interface FitRequest {
  text: string;
  font: FontId;
  width: number;
  height: number;
  maxSize: number;
  minSize: number;
  /** Line pitch as a multiple of the size. */
  lineHeight?: number;
  maxLines?: number;
}

export interface TextLine {
  text: string;
  /** x offsets (px, from the line start) of each word, and the words, as drawn. */
  words: { text: string; x: number }[];
  width: number;
}

export interface FittedText {
  font: FontId;
  size: number;
  pitch: number;
  lines: TextLine[];
  truncated: boolean;
  /** lines x pitch */
  height: number;
  /** The widest line. */
  width: number;
}

/** Paragraphs (split at line breaks) of words (split at white space). */
export function splitWords(text: string): string[][] {
  return cleanText(text)
    .split(/\n+/)
    .map((p) => p.split(/ +/).filter((w) => w.length > 0))
    .filter((p) => p.length > 0);
}

function emWidths(font: FontId, words: string[]): number[] {
  return words.map((w) => measureEm(font, w));
}

/** Greedy wrap of words at `size` into `width` px; a word wider than the line is broken between characters. */
export function wrapWords(font: FontId, size: number, paragraphs: string[][], width: number): TextLine[] {
  const space = measureEm(font, ' ') * size;
  const lines: TextLine[] = [];
  for (const para of paragraphs) {
    const widths = emWidths(font, para).map((w) => w * size);
    let cur: { text: string; x: number }[] = [];
    let x = 0;
    const flush = (): void => {
      if (cur.length === 0) return;
      const last = cur[cur.length - 1]!;
      lines.push({ text: cur.map((w) => w.text).join(' '), words: cur, width: last.x + measureEm(font, last.text) * size });
      cur = [];
      x = 0;
    };
    para.forEach((word, i) => {
      const w = widths[i]!;
      if (cur.length > 0 && x + space + w > width) flush();
      if (cur.length === 0 && w > width) {
        for (const piece of breakWord(font, size, word, width)) {
          cur = [{ text: piece, x: 0 }];
          x = measureEm(font, piece) * size;
          flush();
        }
        cur = [];
        return;
      }
      const at = cur.length === 0 ? 0 : x + space;
      cur.push({ text: word, x: at });
      x = at + w;
    });
    flush();
  }
  return lines;
}

function breakWord(font: FontId, size: number, word: string, width: number): string[] {
  const out: string[] = [];
  let piece = '';
  for (const ch of word) {
    if (piece.length > 0 && measureEm(font, piece + ch) * size > width) {
      out.push(piece);
      piece = '';
    }
    piece += ch;
  }
  if (piece.length > 0) out.push(piece);
  return out;
}

/** The line with words removed from its end until it fits with an ellipsis after the last whole word. */
export function withEllipsis(font: FontId, size: number, line: TextLine, width: number): TextLine {
  const words = line.words.map((w) => ({ ...w }));
  for (;;) {
    const last = words[words.length - 1];
    if (!last) return { text: ELLIPSIS, words: [{ text: ELLIPSIS, x: 0 }], width: measureEm(font, ELLIPSIS) * size };
    const trimmed = last.text.replace(/[\s,;:.!?\-–—(/&+]+$/u, '');
    const candidate = trimmed + ELLIPSIS;
    const w = last.x + measureEm(font, candidate) * size;
    if (trimmed.length > 0 && w <= width) {
      words[words.length - 1] = { text: candidate, x: last.x };
      return { text: words.map((x) => x.text).join(' '), words, width: w };
    }
    words.pop();
  }
}

export function fitText(req: FitRequest): FittedText {
  const lineHeight = req.lineHeight ?? 1.2;
  const paragraphs = splitWords(req.text);
  const maxSize = Math.max(req.minSize, Math.floor(req.maxSize));
  const minSize = Math.max(1, Math.floor(req.minSize));
  const build = (size: number, lines: TextLine[], truncated: boolean): FittedText => {
    const pitch = Math.round(size * lineHeight);
    return {
      font: req.font,
      size,
      pitch,
      lines,
      truncated,
      height: lines.length * pitch,
      width: lines.reduce((m, l) => Math.max(m, l.width), 0),
    };
  };
  const longest = paragraphs.flat().reduce((m, w) => Math.max(m, measureEm(req.font, w)), 0);
  for (let size = maxSize; size >= minSize; size--) {
    // A size at which a word would have to be broken is not a fit (at the smallest size, breaking is the last resort).
    if (longest * size > req.width && size > minSize) continue;
    const pitch = Math.round(size * lineHeight);
    const maxLines = Math.min(req.maxLines ?? Infinity, Math.floor(req.height / pitch));
    const lines = wrapWords(req.font, size, paragraphs, req.width);
    if (lines.length <= maxLines) return build(size, lines, false);
  }
  const pitch = Math.round(minSize * lineHeight);
  const maxLines = Math.min(req.maxLines ?? Infinity, Math.floor(req.height / pitch));
  const lines = wrapWords(req.font, minSize, paragraphs, req.width);
  if (maxLines <= 0) return build(minSize, [], lines.length > 0);
  const kept = lines.slice(0, maxLines);
  // The ellipsis goes after the last whole word that fits. When no word of the last line fits beside it (a word
  // that had to be broken), it goes on the line before, rather than alone on a line of its own.
  for (;;) {
    const last = kept[kept.length - 1];
    if (!last) break;
    const shortened = withEllipsis(req.font, minSize, last, req.width);
    if (shortened.text !== ELLIPSIS || kept.length === 1) {
      kept[kept.length - 1] = shortened;
      break;
    }
    kept.pop();
  }
  return build(minSize, kept, true);
}

/** One line: the largest size from maxSize down to minSize at which it fits, else shortened with an ellipsis. */
export function fitLine(font: FontId, text: string, width: number, maxSize: number, minSize: number): FittedText {
  return fitText({ text: text.replace(/\s+/g, ' '), font, width, height: Infinity, maxSize, minSize, maxLines: 1, lineHeight: 1 });
}
