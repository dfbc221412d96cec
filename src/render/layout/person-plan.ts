import type { Box } from './blocks.js';
import type { PersonContent } from './content.js';
import { fitOutfit, type OutfitFit } from './outfit-fit.js';
import type { RowItem } from '../../domain/weather-demands.js';
import { fill } from '../../i18n/labels.js';
import { additionsHeight, additionsWidth, type AdditionsPlace } from './person-additions.js';
import type { Surface } from '../draw/surface.js';
import { measure } from '../text/fonts.js';
import { fitLine } from '../text/text-fit.js';

/**
 * How a person's cell on a household frame is shared out (person-cell.ts draws it): the garments as large as the
 * type scale's 30′ down to 20′, in one row or two or counted ("+N"), the additions beside the garments or below them,
 * the name above or beside them, and the outfit in what is left, by priority: the outfit whole first, else cut at a
 * sentence end, never inside one where any plan avoids it; then every garment named; then the outfit at the scale's
 * size; then the garments as large as they can be.
 */

/** The sizes a household frame gives every person alike, px. */
export interface PersonCellOptions {
  /** The name's size: the readings' at least. */
  nameSize: number;
  /** The smallest garment pictogram (20′ at the viewing distance) and the largest (the type scale's, 30′). */
  pictogramMin: number;
  pictogramMax: number;
  /** An added garment's pictogram: small, a line of the label high. */
  additionSize: number;
  /** The outfit's largest size (a short outfit grows to it). */
  outfitMax: number;
  /** The "+ for <name>" label's size: the readings'. */
  labelSize: number;
  /** Name beside the pictograms (a wide, low cell) rather than above them. */
  inline: boolean;
}

/** A quarter of a pictogram between two, as the garment row has (pictogram-row.ts). */
export const GAP = 0.25;

/** Pictograms of `size` that fit in `width`. */
const perRow = (width: number, size: number): number =>
  Math.max(1, Math.floor((width + size * GAP) / (size * (1 + GAP))));

/** The name, and "Out" after it for a person away, as drawn: the name cut to leave "Out" its room. */
export function nameLine(p: PersonContent, width: number, size: number): { name: string; away: string } {
  const away = p.away ? `· ${p.content.locale.labels.person_away}` : '';
  const awayW = away ? measure('condensed', size, ` ${away}`) : 0;
  const name = fitLine('bold', p.name, Math.max(size, width - awayW), size, size);
  return { name: name.lines[0]?.text ?? p.name, away };
}

const nameWidth = (p: PersonContent, width: number, size: number): number => {
  const l = nameLine(p, width, size);
  return measure('bold', size, l.name) + (l.away ? measure('condensed', size, ` ${l.away}`) : 0);
};

/** The outfit at the type scale's size (10′), its lead at least; else whole at the rest's (6′); else cut at a sentence end. */
function fitPersonOutfit(sf: Surface, text: string, box: Box, o: PersonCellOptions): OutfitFit {
  const S = sf.scale;
  const base = {
    text,
    font: 'condensed' as const,
    width: box.w,
    height: box.h,
    maxSize: Math.max(S.outfit, o.outfitMax),
    minSize: S.outfit,
    restMin: S.outfitRest,
    lineHeight: 1.1,
    gap: Math.round(6 * sf.unit),
  };
  const f = fitOutfit(base);
  if (!f.truncated) return f;
  // Whole at the rest's size (6′) rather than cut at the outfit's; cut at a sentence end at the larger where neither
  // is whole; a first sentence too long for a narrow column alone, at the reasoning's size (5′) rather than cut inside.
  const rest = fitOutfit({ ...base, minSize: S.outfitRest });
  if (!rest.truncated || (f.inSentence && !rest.inSentence)) return rest;
  if (!f.inSentence) return f;
  const least = Math.min(S.outfitRest, S.reasoning);
  return fitOutfit({ ...base, minSize: least, restMin: least });
}

/**
 * The additions' label and pictogram sizes: the cell's, or where the label and the pictograms do not fit on one line
 * in `width`, the label down to the outfit rest's size (6′) and the pictograms with it, where that puts them on one.
 */
function additionSizes(
  sf: Surface,
  p: PersonContent,
  width: number,
  o: PersonCellOptions,
): { labelSize: number; iconSize: number } {
  const share = o.additionSize / o.labelSize;
  for (let size = o.labelSize; size >= sf.scale.outfitRest; size--) {
    const sized = { labelSize: size, iconSize: Math.round(size * share) };
    if (additionsWidth(p, sized.labelSize, sized.iconSize) <= width) return sized;
  }
  // The label above the pictograms: as large as fits the width, never past it.
  const label = fill(p.content.locale.labels.person_additions, { name: p.name });
  let size = o.labelSize;
  while (size > sf.scale.outfitRest && measure('condensed', size, label) > width) size--;
  return { labelSize: size, iconSize: o.additionSize };
}

/** How a person's cell is shared out at one pictogram size: where everything goes, and the outfit as it fits. */
export interface CellPlan {
  /** The garment pictograms' size, px, and the garments of each row (the last may end in "+N"). */
  size: number;
  rows: RowItem[][];
  row: { x: number; y: number; w: number; h: number };
  additions: AdditionsPlace | null;
  outfit: Box;
  fit: OutfitFit | null;
  /** The rows hold every garment (no "+N"). */
  complete: boolean;
  /** The garments the rows show (a "+N" takes a place). */
  shown: number;
  /** The name beside the garments. */
  inline: boolean;
}

/**
 * The additions after the name, "+" and their pictograms, where the whole name leaves them the room on its line (a
 * narrow column's name line is mostly empty): a line more for the outfit. Null where they do not fit there.
 */
function besideName(sf: Surface, p: PersonContent, inner: Box, o: PersonCellOptions): AdditionsPlace | null {
  if (o.inline || p.additions.length === 0) return null;
  const x = inner.x + nameWidth(p, Infinity, o.nameSize) + Math.round(12 * sf.unit);
  const w = inner.x + inner.w - x;
  // Their pictograms as large as the cell's additions, down to a line of the name's text high where that fits them.
  let iconSize = o.additionSize;
  while (iconSize > o.labelSize && additionsWidth(p, o.labelSize, iconSize, true) > w) iconSize--;
  const sized = { labelSize: o.labelSize, iconSize, besideName: true };
  if (additionsWidth(p, sized.labelSize, sized.iconSize, true) > w) return null;
  const h = additionsHeight(p, { x, y: inner.y, w, ...sized });
  return { x, y: inner.y + Math.round((o.nameSize * 1.2 - h) / 2), w, ...sized };
}

/**
 * The cell at garment size `size`, the garments in up to `maxRows` rows, below or beside a name `nameW` wide (the
 * additions after the name where `named` places them there).
 */
function planCell(
  sf: Surface,
  p: PersonContent,
  inner: Box,
  o: PersonCellOptions,
  at: { size: number; maxRows: 1 | 2; nameW: number; beside?: boolean; named?: AdditionsPlace },
): CellPlan {
  const u = sf.unit;
  const gap = Math.round(6 * u);
  const nameH = Math.round(o.nameSize * 1.2);
  const { size } = at;
  const x = o.inline ? inner.x + at.nameW + Math.round(12 * u) : inner.x;
  const nameBottom = at.named ? Math.max(inner.y + nameH, at.named.y + additionsHeight(p, at.named)) : inner.y + nameH;
  const y = o.inline ? inner.y : nameBottom + gap;
  const w = inner.x + inner.w - x;
  const items = p.content.row;
  // Beside: the additions keep their room at the row's end (a wide cell, its row cut short and counted).
  const addW = additionsWidth(p, o.labelSize, o.additionSize);
  // Beside them only where the row keeps two places (a garment and the count), else it would name none.
  const beside =
    at.beside === true &&
    o.inline &&
    addW > 0 &&
    perRow(w - addW - Math.round(12 * u), size) >= Math.min(2, items.length);
  const rowW = beside ? w - addW - Math.round(12 * u) : w;
  const per = perRow(rowW, size);
  const rows = items.length <= per || at.maxRows === 1 ? [[...items]] : [items.slice(0, per), items.slice(per)];
  const rowH = items.length === 0 ? 0 : Math.round(rows.length * size + (rows.length - 1) * size * GAP);
  let bottom = o.inline ? inner.y + Math.max(nameH, rowH) : y + rowH;
  let additions: AdditionsPlace | null = at.named ?? null;
  if (p.additions.length > 0 && !at.named) {
    const sized = additionSizes(sf, p, inner.w, o);
    const used = Math.min(per, items.length);
    const side = x + used * size * (1 + GAP) - size * GAP + Math.round(12 * u);
    const room = inner.x + inner.w - side;
    // Beside the garments where a wide cell leaves the room (a portrait frame's), else on a line of their own.
    if (o.inline && rowH > 0 && addW <= room) {
      const h = additionsHeight(p, { x: side, y, w: room, ...sized });
      additions = { x: side, y: y + Math.max(0, (Math.min(rowH, size) - h) / 2), w: room, ...sized };
      bottom = Math.max(bottom, additions.y + h);
    } else {
      additions = { x: inner.x, y: bottom + gap, w: inner.w, ...sized };
      bottom = additions.y + additionsHeight(p, additions);
    }
  }
  const outfit = { x: inner.x, y: bottom + gap, w: inner.w, h: inner.y + inner.h - bottom - gap };
  const text = p.content.outfit;
  const fit = text !== null && outfit.h > 0 ? fitPersonOutfit(sf, text, outfit, o) : null;
  const complete = rows.every((r) => r.length <= per);
  const shown = rows.reduce((n, r) => n + (r.length <= per ? r.length : per - 1), 0);
  return { size, rows, row: { x, y, w: rowW, h: rowH }, additions, outfit, fit, complete, shown, inline: o.inline };
}

/** The outfit's characters shown, spaces aside (where a line breaks is no more or less of the outfit). */
const shownChars = (f: OutfitFit | null): number =>
  [f?.lead, f?.rest].reduce((n, t) => n + (t?.lines.reduce((k, l) => k + l.text.replace(/\s/g, '').length, 0) ?? 0), 0);

/** Where cellKey has whether the outfit is whole. */
export const KEY_WHOLE = 3;

/**
 * What a cell's plan shows, by priority, larger better: some outfit shown, not cut inside its first sentence, whole,
 * as much of it as fits; then every garment named; then the outfit at the type scale's size (10′ on a wall). A
 * household frame sums these over its people to choose how they share the frame (household-arrangement.ts).
 */
export function cellKey(sf: Surface, p: PersonContent, c: CellPlan): number[] {
  const whole = c.fit === null ? p.content.outfit === null : !c.fit.truncated;
  return [
    c.shown > 0 || p.content.row.length === 0 ? 1 : 0,
    c.fit === null && p.content.outfit !== null ? 0 : 1,
    c.fit?.inSentence ? 0 : 1,
    whole ? 1 : 0,
    shownChars(c.fit),
    c.complete ? 1 : 0,
    c.fit === null || c.fit.lead.size >= sf.scale.outfit ? 1 : 0,
  ];
}

/**
 * The plan for a cell, by priority: the outfit whole, with the garments as large as that allows (the type scale's
 * 30′ down to 20′, two rows before "+N"); where it is whole at no size, the plan that shows the most of it cut at a
 * sentence end, the garments then at the smallest (their row names every garment it can, and counts the rest).
 */
export function chooseCell(sf: Surface, p: PersonContent, inner: Box, o: PersonCellOptions): CellPlan {
  const whole = (c: CellPlan): boolean => (c.fit === null ? p.content.outfit === null : !c.fit.truncated);
  // The outfit (its lead) at the type scale's size, 10′ on a wall.
  const atScale = (c: CellPlan): boolean => c.fit === null || c.fit.lead.size >= sf.scale.outfit;
  // cellKey's priorities, then as many garments as fit, as large as they can be.
  const key = (c: CellPlan): number[] => [...cellKey(sf, p, c), c.shown, c.size];
  const better = (x: number[], y: number[]): boolean => {
    const i = x.findIndex((v, k) => v !== y[k]);
    return i >= 0 && x[i]! > y[i]!;
  };
  const best = (plans: CellPlan[]): CellPlan => plans.reduce((a, b) => (better(key(b), key(a)) ? b : a));
  const steps = 4;
  const sizes = [
    ...new Set(
      Array.from({ length: steps + 1 }, (_, i) =>
        Math.round(o.pictogramMax - ((o.pictogramMax - o.pictogramMin) * i) / steps),
      ),
    ),
  ];
  const plansOf = (q: PersonCellOptions, named?: AdditionsPlace): CellPlan[] => {
    const nameW = q.inline ? Math.min(nameWidth(p, inner.w * 0.4, q.nameSize), inner.w * 0.4) : 0;
    const plans: CellPlan[] = [];
    for (const size of sizes)
      for (const beside of q.inline && p.additions.length > 0 ? [false, true] : [false]) {
        const at = { size: Math.max(size, q.pictogramMin), maxRows: 2 as const, nameW, beside, named };
        const plan = planCell(sf, p, inner, q, at);
        plans.push(plan);
        if (plan.complete && whole(plan) && atScale(plan)) return [plan];
      }
    // At the smallest size, one row that counts what it leaves off gives the outfit a row's height more.
    for (const beside of [false, true])
      plans.push(planCell(sf, p, inner, q, { size: q.pictogramMin, maxRows: 1, nameW, beside, named }));
    return plans;
  };
  const plans = plansOf(o);
  const first = best(plans);
  if (o.inline || whole(first)) return first;
  // A narrow cell whose outfit is cut: the additions after the name, or the name beside the garments, where that
  // gives the outfit a line more; the latter only where the whole name fits (a name cut to "A…" names nobody).
  const named = besideName(sf, p, inner, o);
  const more = [...plans, ...(named ? plansOf(o, named) : [])];
  if (nameWidth(p, Infinity, o.nameSize) <= inner.w * 0.4) more.push(...plansOf({ ...o, inline: true }));
  return best(more);
}
