import type { FontId } from '../text/fonts.js';
import { fitText, largestFitting, type FittedText } from '../text/text-fit.js';

/**
 * The outfit in its box, by the type scale: whole, at the largest size that fits, never below `minSize`; a short
 * outfit grows up to `maxSize` to fill the space. An outfit that does not fit whole at `minSize` keeps its first
 * sentence at `minSize` or more and gets the rest below it, shrunk down to `restMin` and then cut after a whole
 * word with an ellipsis (the pictogram row above carries the full list of garments). Where `leadMin` is above
 * `minSize` (a hand-held panel, whose smallest outfit is body text), an outfit long for the panel keeps its first
 * sentence at `leadMin` or more, as a wall panel's does at its larger minimum, when the rest still gets a few
 * lines below it. Lines count by their ink (text-fit.ts 'ink'): no line is cut that has the room. Pure arithmetic.
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
  /** Smallest size of a long outfit's first sentence set apart, px (default `minSize`). */
  leadMin?: number;
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

/**
 * The first sentence (up to and with its ".", "!", "?" or ";") and the rest; rest is "" for a single sentence. Never at
 * a colon: what comes before one is a lead-in ("Stay dry:"), which alone would be a big line that says nothing.
 */
function splitFirstSentence(text: string): [string, string] {
  const m = /^(.+?[.!?;])\s+(\S[\s\S]*)$/u.exec(text.trim());
  return m ? [m[1]!, m[2]!] : [text.trim(), ''];
}

/**
 * Lines the rest of a long outfit keeps at least where its first sentence is set apart at `leadMin` and the rest
 * is cut: with fewer, the emphasis would cost more words than it is worth.
 */
const REST_LINES_MIN = 4;

export function fitOutfit(o: OutfitFitOptions): OutfitFit {
  const fit = (text: string, height: number, maxSize: number, minSize: number): FittedText =>
    fitText({
      text,
      font: o.font,
      width: o.width,
      height,
      maxSize,
      minSize,
      lineHeight: o.lineHeight,
      lastLine: 'ink',
    });
  const whole = fit(o.text, o.height, o.maxSize, o.minSize);
  const [first, restText] = splitFirstSentence(o.text);
  // Long for the panel: cut, or set at its smallest size or next to it.
  const long = whole.truncated || whole.size <= o.minSize + 1;
  const leadMin = long ? Math.max(o.minSize, Math.ceil(o.leadMin ?? 0)) : o.minSize;
  if (!restText || (!whole.truncated && whole.size >= leadMin))
    return { lead: whole, rest: null, truncated: whole.truncated, height: whole.height };
  const both = (lead: FittedText, rest: FittedText): OutfitFit => ({
    lead,
    rest,
    truncated: lead.truncated || rest.truncated,
    height: lead.height + o.gap + rest.height,
  });
  // The rest below the lead, at the lead's size less one or smaller, down to restMin; null when not a line fits.
  const restIn = (lead: FittedText): FittedText | null => {
    const rest = fit(
      restText,
      o.height - lead.height - o.gap,
      Math.max(o.restMin, Math.min(lead.size - 1, o.minSize)),
      o.restMin,
    );
    return rest.lines.length > 0 ? rest : null;
  };
  // The lead sentence at the largest size in [lo, hi] that leaves the rest room to fit whole at restMin or more.
  // Monotone in the lead's size as text-fit.ts's search is: a smaller lead leaves the rest more room.
  const splitWhole = (lo: number, hi: number): OutfitFit | null => {
    const found = largestFitting(lo, hi, (size) => {
      const lead = fit(first, o.height, size, size);
      if (lead.truncated) return null;
      const rest = restIn(lead);
      return rest && !rest.truncated ? both(lead, rest) : null;
    });
    return found?.fit ?? null;
  };
  const lo = Math.floor(o.minSize) + 1;
  const hi = Math.floor(Math.max(o.minSize, o.maxSize));
  const apart = Math.max(lo, Math.ceil(leadMin));
  const set = splitWhole(apart, hi);
  if (set) return set;
  if (leadMin > o.minSize) {
    // Set apart by choice: the lead at leadMin and the rest cut, as on a wall panel; else the whole where it fits.
    const lead = fit(first, o.height, leadMin, leadMin);
    const rest = lead.truncated ? null : restIn(lead);
    if (rest && rest.lines.length >= REST_LINES_MIN) return both(lead, rest);
    if (!whole.truncated) return { lead: whole, rest: null, truncated: false, height: whole.height };
  }
  const smaller = splitWhole(lo, Math.min(hi, apart - 1));
  if (smaller) return smaller;
  // When no size does, the lead at minSize and the rest cut.
  const lead = fit(first, o.height, o.minSize, o.minSize);
  const rest = restIn(lead);
  // No line left for the rest: the whole outfit at minSize, cut after a whole word, says more than the lead alone.
  if (!rest) return { lead: whole, rest: null, truncated: true, height: whole.height };
  return both(lead, rest);
}
