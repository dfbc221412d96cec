import { cleanText, measure, measureEm, wordSpace, type FontId } from './fonts.js';

/**
 * Fitting text into a box: the largest size at which all of it fits, or, at the smallest size, the lines that
 * fit ended with an ellipsis after a whole word (a lone word cut mid-word rather than dropped). Words break
 * like a typesetter's: at soft hyphens and, for tokens wider than the line (URLs), at / . - _ ? & = or anywhere.
 * Pure arithmetic over em widths.
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
  /** Kept whole at the end, after the ellipsis when the text before it is cut (an alert's "(+3 more)"). */
  tail?: string;
  /**
   * What the last line needs of `height`: its whole pitch (default), or only its ink ('ink': the half leading
   * above it and the glyphs down to their descenders), where the box's edge is no nearer anything than its margin.
   */
  lastLine?: 'pitch' | 'ink';
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
  /** Whether a word was cut between two characters that are no break point (a word wider than the line). */
  midWord: boolean;
  /** lines x pitch */
  height: number;
  /** The widest line. */
  width: number;
}

/** Where drawFitted (blocks.ts) puts a line's baseline below the top of its pitch's half leading, em. */
export const BASELINE_EM = 0.8;
/** How far DejaVu's descenders reach below the baseline, em. */
const DESCENT_EM = 0.24;

/**
 * Lines of `pitch` that fit in `height`. By their ink, the last needs less than its pitch: a line whose ink has
 * the room is not cut for want of the leading below it, where nothing is drawn (never fewer than by the pitch).
 */
function linesIn(height: number, size: number, pitch: number, last: FitRequest['lastLine']): number {
  const byPitch = Math.floor(height / pitch);
  const ink = (pitch - size) / 2 + (BASELINE_EM + DESCENT_EM) * size;
  return last === 'ink' && height >= ink ? Math.max(byPitch, Math.floor((height - ink) / pitch) + 1) : byPitch;
}

/** The soft hyphen: a break point, drawn as "-" at the end of a line it breaks, and nowhere else. */
export const SHY = '\u00ad';
/** A token may break after these (URLs, e-mail addresses, paths, compounds), never inside a run of them. */
const BREAK_AFTER = new Set(['/', '.', '-', '_', '?', '&', '=']);

/** Paragraphs (split at line breaks) of words (split at white space). Soft hyphens stay: they are break points. */
export function splitWords(text: string): string[][] {
  return cleanText(text)
    .split(/\n+/)
    .map((p) => p.split(/ +/).filter((w) => w.replaceAll(SHY, '').length > 0))
    .filter((p) => p.length > 0);
}

/** A word as code points, with the places it may break (k: between chars[k - 1] and chars[k]). */
interface Token {
  chars: string[];
  breaks: number[];
}

function tokenOf(word: string): Token {
  const chars = [...word];
  const breaks: number[] = [];
  for (let k = 2; k < chars.length; k++) {
    const before = chars[k - 1]!;
    if (before === SHY || (BREAK_AFTER.has(before) && !BREAK_AFTER.has(chars[k]!) && chars[k] !== SHY)) breaks.push(k);
  }
  return { chars, breaks };
}

/** The drawn text of chars[a..b): soft hyphens left out, and a "-" where it ends at one that breaks the line. */
function pieceOf(t: Token, a: number, b: number): string {
  const text = t.chars.slice(a, b).join('').replaceAll(SHY, '');
  return b < t.chars.length && t.chars[b - 1] === SHY ? `${text}-` : text;
}

/** The widest stretch of a word between its break points, em: it can only be drawn whole or cut mid-word. */
function widestSegment(font: FontId, t: Token): number {
  let widest = 0;
  let a = 0;
  for (const k of [...t.breaks, t.chars.length]) {
    widest = Math.max(widest, measureEm(font, pieceOf(t, a, k)));
    a = k;
  }
  return widest;
}

/**
 * The tokens of one fitText call's words, with each whole word's text and width: fitting tries the same words at
 * every size from the largest down, and most words go on a line whole.
 */
class TokenMemo {
  private readonly tokens = new Map<string, Token & { whole: string; wholeEm: number }>();

  constructor(private readonly font: FontId) {}

  of(word: string): Token & { whole: string; wholeEm: number } {
    let t = this.tokens.get(word);
    if (!t) {
      const token = tokenOf(word);
      const whole = pieceOf(token, 0, token.chars.length);
      t = { ...token, whole, wholeEm: measureEm(this.font, whole) };
      this.tokens.set(word, t);
    }
    return t;
  }
}

/** Lines, and whether a word had to be cut between two characters that are no break point. */
interface Wrapped {
  lines: TextLine[];
  midWord: boolean;
}

/**
 * Greedy wrap of words at `size` into `width` px. A word that does not fit where the line has got to goes to the
 * next line whole, or, hyphenated at a soft hyphen, partly on this one; a word wider than the line is broken at
 * its break points (soft hyphens, and after / . - _ ? & =), else between any two characters.
 */
function wrap(font: FontId, size: number, paragraphs: string[][], width: number, tokens: TokenMemo = new TokenMemo(font)): Wrapped {
  const space = wordSpace(font, size);
  const px = (s: string): number => measureEm(font, s) * size;
  const lines: TextLine[] = [];
  let midWord = false;
  for (const para of paragraphs) {
    let cur: { text: string; x: number }[] = [];
    let x = 0;
    const place = (text: string, at: number): void => {
      cur.push({ text, x: at });
      x = at + px(text);
    };
    const flush = (): void => {
      if (cur.length === 0) return;
      lines.push({ text: cur.map((w) => w.text).join(' '), words: cur, width: x });
      cur = [];
      x = 0;
    };
    for (const word of para) {
      const t = tokens.of(word);
      const n = t.chars.length;
      let start = 0;
      while (start < n) {
        const rest = start === 0 ? t.whole : pieceOf(t, start, n);
        const restPx = start === 0 ? t.wholeEm * size : px(rest);
        const at = cur.length === 0 ? 0 : x + space;
        if (at + restPx <= width) {
          cur.push({ text: rest, x: at });
          x = at + restPx;
          break;
        }
        // The longest piece up to a break point that fits after `at` (soft hyphens only, for a word that fits a line).
        const fitsALine = restPx <= width;
        let k = -1;
        for (const b of t.breaks) {
          if (b <= start || (fitsALine && t.chars[b - 1] !== SHY)) continue;
          if (at + px(pieceOf(t, start, b)) <= width) k = b;
        }
        if (k < 0 && cur.length > 0) {
          flush();
          continue;
        }
        if (k < 0) {
          // Nothing fits: as many characters as the line holds (at least one).
          k = start + 1;
          while (k < n && px(pieceOf(t, start, k + 1)) <= width) k++;
          midWord = true;
        }
        place(pieceOf(t, start, k), at);
        flush();
        start = k;
      }
    }
    flush();
  }
  return { lines, midWord };
}

const TRAILING = /[\s,;:.!?\-–—(/&+]+$/u;

/**
 * The line with words removed from its end until it fits with an ellipsis after the last whole word; a line of
 * one word that does not fit so is cut mid-word ("Thunderst…"). "…" alone only where not one letter fits.
 */
function withEllipsis(font: FontId, size: number, line: TextLine, width: number): TextLine {
  const words = line.words.map((w) => ({ ...w }));
  const ended = (text: string, x: number): TextLine | null => {
    const candidate = text + ELLIPSIS;
    const w = x + measureEm(font, candidate) * size;
    if (text.length === 0 || w > width) return null;
    words[words.length - 1] = { text: candidate, x };
    return { text: words.map((x) => x.text).join(' '), words, width: w };
  };
  for (;;) {
    const last = words[words.length - 1];
    if (!last) return { text: ELLIPSIS, words: [{ text: ELLIPSIS, x: 0 }], width: measureEm(font, ELLIPSIS) * size };
    const whole = ended(last.text.replace(TRAILING, ''), last.x);
    if (whole) return whole;
    if (words.length === 1) {
      const chars = [...last.text];
      for (let k = chars.length - 1; k > 0; k--) {
        const cut = ended(chars.slice(0, k).join('').replace(TRAILING, ''), last.x);
        if (cut) return cut;
      }
    }
    words.pop();
  }
}

/**
 * The largest size in [min, max] at which `fits` gives a result, by bisection (about 5 tries where counting down
 * from the largest took up to 30 wraps): fitting is monotone in the size, as every width on a line scales with it,
 * the line pitch and the widest unbreakable stretch too, so a smaller size fits whatever a larger one fits.
 */
export function largestFitting<T>(min: number, max: number, fits: (size: number) => T | null): { size: number; fit: T } | null {
  let best: { size: number; fit: T } | null = null;
  let lo = min;
  let hi = max;
  // The largest first: short text (a label, a one-line outfit) fits at once.
  const top = hi >= lo ? fits(hi) : null;
  if (top !== null) return { size: hi, fit: top };
  hi--;
  while (lo <= hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const fit = fits(mid);
    if (fit !== null) {
      best = { size: mid, fit };
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

export function fitText(req: FitRequest): FittedText {
  const lineHeight = req.lineHeight ?? 1.2;
  const tail = req.tail?.trim() ?? '';
  const paragraphs = splitWords(req.text);
  const tokens = new TokenMemo(req.font);
  // The tail is one token (its spaces are no break points): "(+3" never ends a line with "more)" on the next.
  const lastParagraph = paragraphs[paragraphs.length - 1];
  if (tail && lastParagraph) lastParagraph.push(tail);
  else if (tail) paragraphs.push([tail]);
  const maxSize = Math.max(req.minSize, Math.floor(req.maxSize));
  const minSize = Math.max(1, Math.floor(req.minSize));
  const build = (size: number, wrapped: Wrapped, truncated: boolean): FittedText => {
    const pitch = Math.round(size * lineHeight);
    const { lines, midWord } = wrapped;
    return { font: req.font, size, pitch, lines, truncated, midWord, height: lines.length * pitch, width: lines.reduce((m, l) => Math.max(m, l.width), 0) };
  };
  // The widest stretch that some size down to minSize can keep whole: a size that would cut it mid-word is not a fit
  // (at minSize it is the last resort). Stretches too wide even at minSize (a long URL without break points) are cut
  // at any size rather than shrink everything around them.
  const limit = paragraphs
    .flat()
    .map((w) => widestSegment(req.font, tokens.of(w)))
    .filter((w) => w * minSize <= req.width)
    .reduce((m, w) => Math.max(m, w), 0);
  const fitsAt = (size: number): Wrapped | null => {
    if (limit * size > req.width && size > minSize) return null;
    const pitch = Math.round(size * lineHeight);
    const maxLines = Math.min(req.maxLines ?? Infinity, linesIn(req.height, size, pitch, req.lastLine));
    const wrapped = wrap(req.font, size, paragraphs, req.width, tokens);
    return wrapped.lines.length <= maxLines ? wrapped : null;
  };
  const found = largestFitting(minSize, maxSize, fitsAt);
  if (found) return build(found.size, found.fit, false);
  const pitch = Math.round(minSize * lineHeight);
  const maxLines = Math.min(req.maxLines ?? Infinity, linesIn(req.height, minSize, pitch, req.lastLine));
  const tailW = tail ? measure(req.font, minSize, ` ${tail}`) : 0;
  const wrapped = wrap(req.font, minSize, tail ? splitWords(req.text) : paragraphs, req.width, tokens);
  if (maxLines <= 0) return build(minSize, { lines: [], midWord: false }, wrapped.lines.length > 0);
  const kept = wrapped.lines.slice(0, maxLines);
  // The ellipsis goes after the last whole word that fits. When no word of the last line fits beside it (a word
  // that had to be broken), it goes on the line before, rather than alone on a line of its own.
  for (;;) {
    const last = kept[kept.length - 1];
    if (!last) break;
    const shortened = withEllipsis(req.font, minSize, last, req.width - tailW);
    if (shortened.text !== ELLIPSIS || kept.length === 1) {
      kept[kept.length - 1] = shortened;
      break;
    }
    kept.pop();
  }
  const end = kept[kept.length - 1];
  if (tail && end) {
    const x = end.width + wordSpace(req.font, minSize);
    kept[kept.length - 1] = { text: `${end.text} ${tail}`, words: [...end.words, { text: tail, x }], width: x + measure(req.font, minSize, tail) };
  }
  return build(minSize, { lines: kept, midWord: wrapped.midWord }, true);
}

/** One line: the largest size from maxSize down to minSize at which it fits, else shortened with an ellipsis (before `tail`). */
export function fitLine(font: FontId, text: string, width: number, maxSize: number, minSize: number, tail?: string): FittedText {
  return fitText({ text: text.replace(/\s+/g, ' '), font, width, height: Infinity, maxSize, minSize, maxLines: 1, lineHeight: 1, tail });
}
