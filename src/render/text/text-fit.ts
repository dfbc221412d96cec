import { cleanText, measure, measureEm, wordSpace, type FontId } from './fonts.js';
import { wrap, type TextLine, type Wrapped } from './line-wrap.js';
import { SHY, TokenMemo, lastFittingDown, widestSegment } from './word-pieces.js';

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
  /** The width it was fitted into, px: a right-to-left line ends at its right edge (blocks.ts drawFitted). */
  boxWidth?: number;
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

export { SHY };
export type { TextLine };

/** Paragraphs (split at line breaks) of words (split at white space). Soft hyphens stay: they are break points. */
export function splitWords(text: string): string[][] {
  return cleanText(text)
    .split(/\n+/)
    .map((p) => p.split(/ +/).filter((w) => w.replaceAll(SHY, '').length > 0))
    .filter((p) => p.length > 0);
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
    return { ...line, text: words.map((x) => x.text).join(' '), words, width: w };
  };
  for (;;) {
    const last = words[words.length - 1];
    if (!last)
      return { ...line, text: ELLIPSIS, words: [{ text: ELLIPSIS, x: 0 }], width: measureEm(font, ELLIPSIS) * size };
    const whole = ended(last.text.replace(TRAILING, ''), last.x);
    if (whole) return whole;
    if (words.length === 1) {
      // The most characters that fit with the ellipsis, found from the end (word-pieces.ts): the line may be long.
      const chars = [...last.text];
      const cutAt = (k: number): string => chars.slice(0, k).join('').replace(TRAILING, '');
      const k = lastFittingDown(1, chars.length - 1, (k) => {
        const text = cutAt(k);
        return text.length > 0 && last.x + measureEm(font, text + ELLIPSIS) * size <= width;
      });
      if (k > 0) return ended(cutAt(k), last.x)!;
    }
    words.pop();
  }
}

/**
 * The largest size in [min, max] at which `fits` gives a result, by bisection (about 5 tries where counting down
 * from the largest took up to 30 wraps): fitting is monotone in the size, as every width on a line scales with it,
 * the line pitch and the widest unbreakable stretch too, so a smaller size fits whatever a larger one fits.
 */
export function largestFitting<T>(
  min: number,
  max: number,
  fits: (size: number) => T | null,
): { size: number; fit: T } | null {
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

/**
 * The most characters (code points) of a text that fitting considers: more than twice as many as the largest box
 * of any layout shows at its smallest size, so no frame shows less for it. A longer text is cut to these with an
 * ellipsis before it is split into words, and costs no more to lay out than they do (docs/reference/frame-rules.md).
 */
export const MAX_FIT_CHARS = 5_000;

/** The text cut to MAX_FIT_CHARS code points and an ellipsis; `cut` when it was longer. */
function bounded(text: string): { text: string; cut: boolean } {
  if (text.length <= MAX_FIT_CHARS) return { text, cut: false };
  let i = 0;
  for (let n = 0; n < MAX_FIT_CHARS && i < text.length; n++) i += text.codePointAt(i)! > 0xffff ? 2 : 1;
  return i >= text.length ? { text, cut: false } : { text: text.slice(0, i) + ELLIPSIS, cut: true };
}

export function fitText(req: FitRequest): FittedText {
  const lineHeight = req.lineHeight ?? 1.2;
  const tail = req.tail?.trim() ?? '';
  const { text, cut } = bounded(req.text);
  const paragraphs = splitWords(text);
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
    return {
      font: req.font,
      size,
      pitch,
      lines,
      truncated,
      midWord,
      height: lines.length * pitch,
      width: lines.reduce((m, l) => Math.max(m, l.width), 0),
      boxWidth: req.width,
    };
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
    // Wrapping stops a line past maxLines: such a size is no fit, however many more lines a long text would take.
    const wrapped = wrap(req.font, size, paragraphs, req.width, tokens, maxLines);
    return wrapped.lines.length <= maxLines ? wrapped : null;
  };
  const found = largestFitting(minSize, maxSize, fitsAt);
  // The size decided by the greedy wrap's line count; the lines then broken better, in no more of them (wrap).
  if (found)
    return build(found.size, wrap(req.font, found.size, paragraphs, req.width, tokens, Infinity, Infinity), cut);
  const pitch = Math.round(minSize * lineHeight);
  const maxLines = Math.min(req.maxLines ?? Infinity, linesIn(req.height, minSize, pitch, req.lastLine));
  const tailW = tail ? measure(req.font, minSize, ` ${tail}`) : 0;
  const words = tail ? splitWords(text) : paragraphs;
  // Broken better above the last line kept (which ends with the ellipsis): with the words bound where the lines kept
  // still show as much (a word moved past the cut would be a word less on the frame), else mended alone. Both as the
  // text's first lines alone decide, so a text cut shorter before it is fitted draws the same frame.
  const bound = wrap(req.font, minSize, words, req.width, tokens, Infinity, maxLines - 1, 'always');
  const mended = wrap(req.font, minSize, words, req.width, tokens, Infinity, maxLines - 1, 'never');
  const shown = (w: Wrapped): number => w.lines.slice(0, maxLines).reduce((n, l) => n + l.text.length, 0);
  const wrapped = shown(bound) >= shown(mended) ? bound : mended;
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
    kept[kept.length - 1] = {
      ...end,
      text: `${end.text} ${tail}`,
      words: [...end.words, { text: tail, x }],
      width: x + measure(req.font, minSize, tail),
    };
  }
  return build(minSize, { lines: kept, midWord: wrapped.midWord }, true);
}

/** One line: the largest size from maxSize down to minSize at which it fits, else shortened with an ellipsis (before `tail`). */
export function fitLine(
  font: FontId,
  text: string,
  width: number,
  maxSize: number,
  minSize: number,
  tail?: string,
): FittedText {
  return fitText({
    text: text.replace(/\s+/g, ' '),
    font,
    width,
    height: Infinity,
    maxSize,
    minSize,
    maxLines: 1,
    lineHeight: 1,
    tail,
  });
}
