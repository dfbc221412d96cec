import type { FontId } from '../text/fonts.js';
import { fitText, largestFitting, type FittedText } from '../text/text-fit.js';

/**
 * The outfit in its box, by the type scale: whole, at the largest size that fits, never below `minSize`; a short
 * outfit grows up to `maxSize` to fill the space. An outfit that does not fit whole at `minSize` keeps its first
 * sentence at `minSize` or more and gets the rest below it, shrunk down to `restMin` and then cut after a whole
 * word with an ellipsis (the pictogram row above carries the full list of garments). Pure arithmetic.
 */

export interface OutfitFitOptions {
  text: string;
  font: FontId;
  /** The box, px. */
  width: number;
  height: number;
  /** Largest size, px (a short outfit grows to this). */
  maxSize: number;
  /** Smallest size of the outfit, or of its first sentence, px. */
  minSize: number;
  /** Smallest size of the rest of a long outfit, px. */
  restMin: number;
  /** Line pitch as a multiple of the size. */
  lineHeight: number;
  /** Space between the first sentence and the rest, px. */
  gap: number;
}

export interface OutfitFit {
  /** The whole outfit, or its first sentence. */
  lead: FittedText;
  /** The rest of a long outfit, smaller (null when it fit whole, or nothing of it fits). */
  rest: FittedText | null;
  /** Whether words were cut (from the lead or the rest). */
  truncated: boolean;
  /** Height used, px. */
  height: number;
}

/** The first sentence (up to and with its ".", "!", "?" or ";") and the rest; rest is "" for a single sentence. */
function splitFirstSentence(text: string): [string, string] {
  const m = /^(.+?[.!?;:])\s+(\S[\s\S]*)$/u.exec(text.trim());
  return m ? [m[1]!, m[2]!] : [text.trim(), ''];
}

export function fitOutfit(o: OutfitFitOptions): OutfitFit {
  const fit = (text: string, height: number, maxSize: number, minSize: number): FittedText =>
    fitText({ text, font: o.font, width: o.width, height, maxSize, minSize, lineHeight: o.lineHeight });
  const whole = fit(o.text, o.height, o.maxSize, o.minSize);
  const [first, restText] = splitFirstSentence(o.text);
  if (!whole.truncated || !restText) return { lead: whole, rest: null, truncated: whole.truncated, height: whole.height };
  // The lead sentence at the largest size that leaves the rest room to fit whole at restMin or more; when no
  // size does, the lead at minSize and the rest cut.
  const restIn = (lead: FittedText): FittedText | null => {
    const left = o.height - lead.height - o.gap;
    if (left < Math.round(o.restMin * o.lineHeight)) return null;
    return fit(restText, left, Math.max(o.restMin, Math.min(lead.size - 1, o.minSize)), o.restMin);
  };
  // Monotone in the lead's size as text-fit.ts's search is: a smaller lead leaves the rest more room.
  const split = largestFitting(Math.floor(o.minSize) + 1, Math.floor(Math.max(o.minSize, o.maxSize)), (size) => {
    const lead = fit(first, o.height, size, size);
    if (lead.truncated) return null;
    const rest = restIn(lead);
    return rest && !rest.truncated ? { lead, rest } : null;
  });
  if (split) {
    const { lead, rest } = split.fit;
    return { lead, rest, truncated: false, height: lead.height + o.gap + rest.height };
  }
  const lead = fit(first, o.height, o.minSize, o.minSize);
  const rest = restIn(lead);
  // No line left for the rest: the whole outfit at minSize, cut after a whole word, says more than the lead alone.
  if (!rest) return { lead: whole, rest: null, truncated: true, height: whole.height };
  return { lead, rest, truncated: lead.truncated || rest.truncated, height: lead.height + o.gap + rest.height };
}
