import { drawFitted, rule, type Box, type LayoutReport } from './blocks.js';
import type { FrameContent } from './content.js';
import { fitOutfit, fitOutfitWhole, type OutfitFit, type OutfitFitOptions } from './outfit-fit.js';
import { drawPictogramRow, type RowFit } from '../pictograms/pictogram-row.js';
import type { Surface } from '../draw/surface.js';
import { fitText, splitWords, type FittedText } from '../text/text-fit.js';

/**
 * What to wear, for every layout: the pictogram row first (seen before a word is read), then the outfit at the
 * type scale's size (outfit-fit.ts), then the reasoning where it fits without shrinking the outfit much.
 */

/** The garment row at the top of `box` (box.h: the largest pictogram). Returns the height used (0 without garments). */
export function drawGarments(
  sf: Surface,
  c: FrameContent,
  box: Box,
  minSize: number,
  report: LayoutReport,
  fit: RowFit = {},
): number {
  return sf.drawn.within('pictograms', () => {
    const row = drawPictogramRow(sf, c.row, box, minSize, fit);
    report.pictograms = row.shown;
    report.pictogramsMore = row.more;
    report.pictogramRow = row.box ?? null;
    report.pictogramRoom = row.box ? { ...box } : null;
    if (row.more > 0) report.texts.push(`+${row.more}`);
    if (row.moreText) report.textBoxes.push(row.moreText);
    report.sizes.pictogram = row.size || null;
    return row.height;
  });
}

export interface OutfitBlockOptions {
  /** Largest outfit size, px: a short outfit grows to it. */
  maxSize: number;
  /** Line pitch of the outfit, as a multiple of its size. */
  lineHeight: number;
  /** Largest reasoning size, px (its smallest is the scale's). */
  reasoningMax: number;
  /** Smallest size of a long outfit's first sentence set apart, px (default: the scale's outfit size). */
  leadMin?: number;
  /** For outfitFits: whole at one size (true, the default), or whole at all, its lead set apart. */
  oneSize?: boolean;
  /**
   * For outfitFits: whole with the sentences that refuse a garment set smaller below the first too (fitOutfit's
   * last choice before it cuts, outfit-fit.ts); default not.
   */
  refusalsSmaller?: boolean;
  /** For outfitFits: cut, but only at a sentence end (never inside the first sentence); default whole. */
  sentenceEnd?: boolean;
}

/**
 * The outfit as drawn: the note when it says nothing in words (empty, spaces, only emoji, or only the signs left
 * between them, "👕 + 👖 + ☂ = 👍" → "+ + ☂ ="), so the panel is never blank or cryptic there.
 */
function outfitText(c: FrameContent): string {
  return splitWords(c.outfit ?? '').some((p) => p.some((w) => /[\p{L}\p{N}]/u.test(w)))
    ? c.outfit!
    : c.locale.labels.no_outfit;
}

/** The outfit's fitting options in `box`, `height` px high. */
function outfitOptions(
  sf: Surface,
  c: FrameContent,
  box: Box,
  o: OutfitBlockOptions,
  height: number,
): OutfitFitOptions {
  const S = sf.scale;
  return {
    text: outfitText(c),
    font: 'condensed',
    width: box.w,
    height,
    maxSize: Math.max(S.outfit, o.maxSize),
    minSize: S.outfit,
    restMin: S.outfitRest,
    lineHeight: o.lineHeight,
    gap: Math.round(6 * sf.unit),
    leadMin: o.leadMin,
  };
}

function outfitIn(sf: Surface, c: FrameContent, box: Box, o: OutfitBlockOptions): (height: number) => OutfitFit {
  return (height) => fitOutfit(outfitOptions(sf, c, box, o, height));
}

/** How much of the outfit fits in `box`, in characters (a cut one's sentences kept: fitOutfit). */
export function outfitShown(sf: Surface, c: FrameContent, box: Box, o: OutfitBlockOptions): number {
  const f = fitOutfit(outfitOptions(sf, c, box, o, box.h));
  return [f.lead, f.rest].reduce((n, t) => n + (t?.lines.reduce((k, l) => k + l.text.length, 0) ?? 0), 0);
}

/**
 * Whether the outfit fits whole, at the scale's size or more, in `box` (at one size, unless `o.oneSize` is false), or
 * (`o.sentenceEnd`) is cut at a sentence end at worst.
 */
export function outfitFits(sf: Surface, c: FrameContent, box: Box, o: OutfitBlockOptions): boolean {
  if (o.sentenceEnd === true) {
    const f = fitOutfit(outfitOptions(sf, c, box, o, box.h));
    return !f.inSentence || f.refusalsKept === true;
  }
  const f = fitOutfitWhole(outfitOptions(sf, c, box, o, box.h), o.refusalsSmaller === true);
  return f !== null && !f.truncated && (f.rest === null || o.oneSize === false);
}

/** The outfit and the reasoning as drawOutfitBlock sets them in `box`; the reasoning null where it is left out. */
export interface OutfitBlockFit {
  outfit: OutfitFit;
  reasoning: FittedText | null;
}

/**
 * What drawOutfitBlock draws in `box`, without drawing: the outfit at its best, and the reasoning where it fits
 * whole below it, for a layout that weighs the room it gives the block (layout-wide.ts).
 */
export function outfitBlockFit(sf: Surface, c: FrameContent, box: Box, o: OutfitBlockOptions): OutfitBlockFit {
  const S = sf.scale;
  const gap = Math.round(8 * sf.unit);
  const fit = outfitIn(sf, c, box, o);
  const best = fit(box.h);
  let outfit = best;
  let reasoning: FittedText | null = null;
  if (c.reasoning && !best.truncated) {
    // The reasoning, whole, at the largest of two sizes that leaves the outfit whole and at 70 % of its best size.
    for (const size of [Math.max(S.reasoning, o.reasoningMax), S.reasoning]) {
      const r = fitText({
        text: c.reasoning,
        font: 'condensed',
        width: box.w,
        height: box.h,
        maxSize: size,
        minSize: size,
        lineHeight: 1.2,
      });
      const rest = box.h - r.height - 2 * gap;
      // Not at the larger size if a word would be cut mid-word there (a word wider than the line is, at the smaller).
      if (r.truncated || rest <= 0 || (r.midWord && size > S.reasoning)) continue;
      const smaller = fit(rest);
      if (
        !smaller.truncated &&
        smaller.rest === null &&
        smaller.lead.size >= Math.max(S.outfit, best.lead.size * 0.7)
      ) {
        [outfit, reasoning] = [smaller, r];
        break;
      }
    }
  }
  return { outfit, reasoning };
}

export function drawOutfitBlock(
  sf: Surface,
  c: FrameContent,
  box: Box,
  o: OutfitBlockOptions,
  report: LayoutReport,
): void {
  return sf.drawn.within('outfit', () => {
    if (c.outfit === null || box.h <= 0) return;
    const u = sf.unit;
    const gap = Math.round(8 * u);
    const { outfit, reasoning } = outfitBlockFit(sf, c, box, o);
    report.outfit = outfit.lead;
    report.outfitRest = outfit.rest;
    report.sizes.outfit = outfit.lead.size;
    report.sizes.outfitRest = outfit.rest?.size ?? null;
    drawFitted(sf, outfit.lead, box.x, box.y, sf.theme.ink, report);
    if (outfit.rest)
      drawFitted(sf, outfit.rest, box.x, box.y + outfit.lead.height + Math.round(6 * u), sf.theme.ink, report);
    if (!reasoning) return;
    const why = reasoning;
    const top = box.y + outfit.height + 2 * gap;
    report.reasoning = why;
    report.sizes.reasoning = why.size;
    sf.drawn.within('reasoning', () => {
      // Where the reasoning's lines start: at the right for a right-to-left paragraph (drawFitted).
      const ruleX = why.lines[0]?.rtl ? box.x + box.w - 60 * u : box.x;
      rule(sf, ruleX, top - gap - u, 60 * u, 2 * u);
      drawFitted(sf, why, box.x, top, sf.theme.ink, report);
    });
  });
}
