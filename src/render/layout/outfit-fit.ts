import { refusedGarmentsOf } from '../../domain/garments.js';
import type { FontId } from '../text/fonts.js';
import { ELLIPSIS, fitText, largestFitting, type FittedText } from '../text/text-fit.js';

/**
 * The outfit in its box, by the type scale: whole, at the largest size that fits, never below `minSize`; a short
 * outfit grows up to `maxSize` to fill the space. An outfit that does not fit whole at `minSize` keeps its lead at
 * `minSize` or more and gets the rest below it, shrunk down to `restMin`. The lead is its first sentence, and every
 * sentence up to the last in which the garment reader found a garment said not to be worn ("Leave the umbrella at
 * home", "an umbrella is not needed"): the pictogram row cannot say that, so such a sentence is not set smaller
 * while the rest can be; only where the whole fits no other way is it set smaller, with every sentence after the
 * first. What still does not fit is cut at a sentence end, never inside one: whole sentences are left out, those
 * that refuse nothing first (from the end), then those that do; only a first sentence too long for the box alone is
 * cut after a whole word, with an ellipsis (the pictogram row above carries the full list of garments).
 * Where `leadMin` is above `minSize` (a hand-held panel, whose smallest outfit is body text), an outfit long for the
 * panel keeps its lead at `leadMin` or more, as a wall panel's does at its larger minimum, when the rest still gets
 * a few lines below it. Lines count by their ink (text-fit.ts 'ink'): no line is cut that has the room.
 */

export interface OutfitFitOptions {
  text: string;
  font: FontId;
  /** The box, px. */
  width: number;
  height: number;
  /** Largest size, px (a short outfit grows to this). */
  maxSize: number;
  /** Smallest size of the outfit, or of its lead, px. */
  minSize: number;
  /** Smallest size of the rest of a long outfit, px. */
  restMin: number;
  /** Line pitch as a multiple of the size. */
  lineHeight: number;
  /** Space between the lead and the rest, px. */
  gap: number;
  /** Smallest size of a long outfit's lead set apart, px (default `minSize`). */
  leadMin?: number;
}

export interface OutfitFit {
  /** The whole outfit, or its lead (its first sentence, and any after it up to the last that refuses a garment). */
  lead: FittedText;
  /** The rest of a long outfit, smaller (null when it fit whole, or nothing of it fits). */
  rest: FittedText | null;
  /** Whether words were left out: whole sentences, or the end of a first sentence too long for the box. */
  truncated: boolean;
  /** Whether it was cut inside its first sentence, after a whole word (that sentence alone is too long for the box). */
  inSentence: boolean;
  /** Height used, px. */
  height: number;
  /**
   * Cut inside its first sentence only to keep a sentence that refuses a garment, where it could have been cut at a
   * sentence end (without that sentence): for the room a wall frame gives it, it counts as cut at a sentence end.
   */
  refusalsKept?: boolean;
}

/** A sentence of the outfit (or a clause, up to its ";"), and whether it names a garment it says not to wear. */
interface Part {
  text: string;
  refuses: boolean;
  /** It goes on from a clause ended by ";" ("…for the walk; an umbrella is not needed today."). */
  continues: boolean;
}

/**
 * The first sentence (up to and with its ".", "!", "?" or ";") and the rest; rest is "" for a single sentence. Never at
 * a colon: what comes before one is a lead-in ("Stay dry:"), which alone would be a big line that says nothing.
 */
function splitFirstSentence(text: string): [string, string] {
  const m = /^(.+?[.!?;])\s+(\S[\s\S]*)$/u.exec(text.trim());
  return m ? [m[1]!, m[2]!] : [text.trim(), ''];
}

/** The last outfit cut into parts: a layout fits the same outfit many times, the garment reader reads it once. */
let lastParts: { text: string; parts: Part[] } | null = null;

/** The outfit's sentences, each read by the garment reader (garments.ts): does it refuse a garment? */
function outfitParts(text: string): Part[] {
  if (lastParts?.text === text) return lastParts.parts;
  const parts: Part[] = [];
  for (let rest = text.trim(); rest !== '';) {
    const [first, after] = splitFirstSentence(rest);
    const continues = parts[parts.length - 1]?.text.endsWith(';') ?? false;
    parts.push({ text: first, refuses: refusedGarmentsOf(first).length > 0, continues });
    rest = after;
  }
  lastParts = { text, parts };
  return parts;
}

/**
 * The parts as one text. A clause whose ";" clause before it was left out now follows a full stop: it starts with a
 * capital ("…leather boots. An umbrella is not needed today."), as the sentence it has become.
 */
const joined = (parts: readonly Part[]): string =>
  parts
    .map((p, i) =>
      p.continues && i > 0 && /[.!?]$/.test(parts[i - 1]!.text)
        ? p.text.charAt(0).toUpperCase() + p.text.slice(1)
        : p.text,
    )
    .join(' ');

/** How many parts the lead takes: the first, and on to the last that refuses a garment. */
function leadCount(parts: readonly Part[]): number {
  let k = 1;
  parts.forEach((p, i) => {
    if (p.refuses) k = Math.max(k, i + 1);
  });
  return k;
}

/** Parts to fit, and how many of them the lead takes. */
interface Kept {
  parts: Part[];
  lead: number;
}

/**
 * How a set of parts is tried: with its lead up to the last sentence that refuses a garment; else with those set
 * smaller below the first sentence, as the rest is (shrunk with the others, never before them).
 */
function* ways(parts: Part[]): Generator<Kept> {
  const k = leadCount(parts);
  yield { parts, lead: k };
  if (k > 1) yield { parts, lead: 1 };
}

/**
 * The parts kept where the whole does not fit, one fewer each time, in the order they are given up: those that refuse
 * nothing, from the end; then those that do, from the end. The first sentence is always kept.
 */
function* keptSets(parts: readonly Part[]): Generator<Part[]> {
  let kept = [...parts];
  for (const refusing of [false, true])
    for (let i = parts.length - 1; i >= 1; i--) {
      const p = parts[i]!;
      if (p.refuses !== refusing) continue;
      kept = kept.filter((q) => q !== p);
      yield kept;
    }
}

/**
 * Lines the rest of a long outfit keeps at least where its lead is set apart at `leadMin` and the rest is cut:
 * with fewer, the emphasis would cost more words than it is worth.
 */
const REST_LINES_MIN = 4;

type Fit = (text: string, height: number, maxSize: number, minSize: number) => FittedText;

function fitterFor(o: OutfitFitOptions): Fit {
  return (text, height, maxSize, minSize) =>
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
}

/** The fit marked as cut (sentences were left out): on its last block, which the report and the tests read. */
function leftOut(f: OutfitFit): OutfitFit {
  return f.rest
    ? { ...f, rest: { ...f.rest, truncated: true }, truncated: true }
    : { ...f, lead: { ...f.lead, truncated: true }, truncated: true };
}

/**
 * The parts whole: at one size, or the lead at `minSize` or more and the rest below it, smaller; null where they do
 * not fit whole. On a hand-held panel (`leadMin`), a long outfit's lead may be set apart with the rest cut at a
 * sentence end (then the fit says it is truncated).
 */
function fitParts(o: OutfitFitOptions, fit: Fit, { parts, lead: k }: Kept): OutfitFit | null {
  // Whatever fits holds every line at restMin at least: where they do not fit at that size alone, nothing does.
  if (fit(joined(parts), o.height, o.restMin, o.restMin).truncated) return null;
  const whole = fit(joined(parts), o.height, o.maxSize, o.minSize);
  const first = joined(parts.slice(0, k));
  const restParts = parts.slice(k);
  // Long for the panel: cut, or set at its smallest size or next to it.
  const long = whole.truncated || whole.size <= o.minSize + 1;
  const leadMin = long ? Math.max(o.minSize, Math.ceil(o.leadMin ?? 0)) : o.minSize;
  if (restParts.length === 0 || (!whole.truncated && whole.size >= leadMin))
    return whole.truncated
      ? null
      : { lead: whole, rest: null, truncated: false, inSentence: false, height: whole.height };
  const both = (lead: FittedText, rest: FittedText): OutfitFit => ({
    lead,
    rest,
    truncated: lead.truncated || rest.truncated,
    inSentence: false,
    height: lead.height + o.gap + rest.height,
  });
  // The rest below the lead, at the lead's size less one or smaller, down to restMin; null when not a line fits.
  const restIn = (lead: FittedText, text: string): FittedText | null => {
    const rest = fit(
      text,
      o.height - lead.height - o.gap,
      Math.max(o.restMin, Math.min(lead.size - 1, o.minSize)),
      o.restMin,
    );
    return rest.lines.length > 0 ? rest : null;
  };
  const restText = joined(restParts);
  // The lead at the largest size in [lo, hi] that leaves the rest room to fit whole at restMin or more.
  // Monotone in the lead's size as text-fit.ts's search is: a smaller lead leaves the rest more room.
  const splitWhole = (lo: number, hi: number): OutfitFit | null => {
    const found = largestFitting(lo, hi, (size) => {
      const lead = fit(first, o.height, size, size);
      if (lead.truncated) return null;
      const rest = restIn(lead, restText);
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
    // Set apart by choice: the lead at leadMin and as many of the rest's sentences as fit whole below it, as on a
    // wall panel; else the whole where it fits.
    const lead = fit(first, o.height, leadMin, leadMin);
    for (let j = restParts.length - 1; j >= 1 && !lead.truncated; j--) {
      const rest = restIn(lead, joined(restParts.slice(0, j)));
      if (rest && !rest.truncated && rest.lines.length >= REST_LINES_MIN) return leftOut(both(lead, rest));
    }
    if (!whole.truncated) return { lead: whole, rest: null, truncated: false, inSentence: false, height: whole.height };
  }
  return splitWhole(lo, Math.min(hi, apart - 1));
}

/**
 * The outfit whole, or null where it does not fit whole: with its lead up to the last sentence that refuses a garment
 * (fitOutfit's first choice), or also (`smallerRefusals`) with those sentences set smaller below the first.
 */
export function fitOutfitWhole(o: OutfitFitOptions, smallerRefusals = false): OutfitFit | null {
  const fit = fitterFor(o);
  for (const way of ways(outfitParts(o.text))) {
    const f = fitParts(o, fit, way);
    if (f || !smallerRefusals) return f;
  }
  return null;
}

/** The last outfits fitted, by their options: a layout tries the same box more than once while it plans its room. */
const fitted = new Map<string, OutfitFit>();
const FITTED_KEPT = 16;

export function fitOutfit(o: OutfitFitOptions): OutfitFit {
  const key = JSON.stringify(o);
  const hit = fitted.get(key);
  if (hit) return hit;
  const f = fitOutfitAnew(o);
  if (fitted.size >= FITTED_KEPT) fitted.delete(fitted.keys().next().value!);
  fitted.set(key, f);
  return f;
}

function fitOutfitAnew(o: OutfitFitOptions): OutfitFit {
  const fit = fitterFor(o);
  const parts = outfitParts(o.text);
  for (const way of ways(parts)) {
    const f = fitParts(o, fit, way);
    if (f) return f;
  }
  // The first set that fits, by halving: each set is the one before it less a sentence, so one that fits is followed
  // by sets that fit. A long answer has hundreds of sentences, and a frame's layout fits it in many rooms.
  const sets = [...keptSets(parts)];
  const fitsKept = (i: number): OutfitFit | null => {
    for (const way of ways(sets[i]!)) {
      const f = fitParts(o, fit, way);
      if (f) return f;
    }
    return null;
  };
  let best = sets.length > 0 ? fitsKept(sets.length - 1) : null;
  if (best) {
    let lo = -1;
    let hi = sets.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      const f = fitsKept(mid);
      if (f) {
        hi = mid;
        best = f;
      } else lo = mid;
    }
    // A refusal is never what is given up first: where one would be, the first sentence is cut after a whole word
    // instead, and the refusals stay whole below it (the pictogram row above names what the cut words did).
    const kept = sets[hi]!;
    if (parts.some((p) => p.refuses && !kept.includes(p))) {
      const refusals = keepRefusals(o, fit, parts);
      if (refusals) return { ...refusals, refusalsKept: true };
    }
    return leftOut(best);
  }
  // Not even the first sentence fits alone: the outfit at minSize, cut after a whole word; its refusals kept whole
  // below where they leave the first sentence a line.
  const refusalsKept = parts.some((p, i) => i > 0 && p.refuses) ? keepRefusals(o, fit, parts) : null;
  if (refusalsKept) return refusalsKept;
  const whole = fit(o.text, o.height, o.maxSize, o.minSize);
  return { lead: whole, rest: null, truncated: true, inSentence: true, height: whole.height };
}

/**
 * The sentences that refuse a garment whole at `minSize`, below the first sentence at that size cut after a whole
 * word to the room they leave it (a line at least); null where they leave it none. The sentences that refuse
 * nothing are left out.
 */
function keepRefusals(o: OutfitFitOptions, fit: Fit, parts: readonly Part[]): OutfitFit | null {
  const refusing = parts.filter((p, i) => i > 0 && p.refuses);
  // After the cut first sentence, a refusing clause is a sentence of its own ("…over a fleece… An umbrella is…").
  const text = joined(refusing);
  const rest = fit(text.charAt(0).toUpperCase() + text.slice(1), o.height, o.minSize, o.minSize);
  if (rest.truncated) return null;
  const lead = fit(parts[0]!.text, o.height - rest.height - o.gap, o.minSize, o.minSize);
  if (lead.lines.length === 0 || lead.lines.every((l) => l.text === ELLIPSIS)) return null;
  return { lead, rest, truncated: true, inSentence: true, height: lead.height + o.gap + rest.height };
}
