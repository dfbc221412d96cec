import { drawFitted, drawLine, type Box, type LayoutReport } from './blocks.js';
import type { PersonContent } from './content.js';
import { markOld } from './mark-old.js';
import { innerBox } from './household-arrangement.js';
import { drawPictogramRow } from '../pictograms/pictogram-row.js';
import { drawAdditions } from './person-additions.js';
import { chooseCell, GAP, nameLine, type PersonCellOptions } from './person-plan.js';
import type { Surface } from '../draw/surface.js';
import { measure } from '../text/fonts.js';
import { fitLine } from '../text/text-fit.js';

export type { PersonCellOptions } from './person-plan.js';

/**
 * One person on a household frame (layout-household.ts): their name (and "Out" where they are away), their garment
 * pictograms, the garments they add at their own warmth after "+ for <name>" (never among the service's), and their
 * outfit, whole where the room allows, else cut at a sentence end (outfit-fit.ts). Their column is framed as old
 * (dashed) where their answer is out of date. Where each goes is person-plan.ts's choice.
 */

function drawName(
  sf: Surface,
  p: PersonContent,
  x: number,
  top: number,
  width: number,
  size: number,
  report: LayoutReport,
): void {
  sf.drawn.within('person', () => {
    const baseline = top + Math.round(size * 0.9);
    const l = nameLine(p, width, size);
    const w = drawLine(sf, { font: 'bold', size, text: l.name, x, baseline, colour: sf.theme.ink, report });
    if (l.away)
      drawLine(sf, {
        font: 'condensed',
        size,
        text: l.away,
        x: x + w + measure('condensed', size, ' '),
        baseline,
        colour: sf.theme.ink,
        report,
      });
  });
}

/** One person in `box`; their report is added to `report.people`. */
export function drawPersonCell(
  sf: Surface,
  p: PersonContent,
  box: Box,
  o: PersonCellOptions,
  report: LayoutReport,
): void {
  const c = p.content;
  const u = sf.unit;
  if (c.old) markOld(sf, box, report);
  const inner = innerBox(sf, p, box);
  const plan = chooseCell(sf, p, inner, o);
  drawName(sf, p, inner.x, inner.y, plan.inline ? inner.w * 0.4 : inner.w, o.nameSize, report);
  const row = { shown: [] as string[], more: 0, size: 0 };
  sf.drawn.within('pictograms', () => {
    let y = plan.row.y;
    for (const items of plan.rows) {
      const box = { x: plan.row.x, y, w: plan.row.w, h: plan.size };
      const drawn = drawPictogramRow(sf, items, box, plan.size);
      row.shown.push(...drawn.shown.map(String));
      row.more += drawn.more;
      row.size = drawn.size || row.size;
      if (drawn.more > 0) report.texts.push(`+${drawn.more}`);
      y += Math.round(plan.size * (1 + GAP));
    }
  });
  const added = plan.additions ? drawAdditions(sf, p, plan.additions, report) : [];
  const f = plan.fit;
  sf.drawn.within('outfit', () => {
    const b = plan.outfit;
    if (f) {
      drawFitted(sf, f.lead, b.x, b.y, sf.theme.ink, report);
      if (f.rest) drawFitted(sf, f.rest, b.x, b.y + f.lead.height + Math.round(6 * u), sf.theme.ink, report);
      return;
    }
    const text = c.status?.kind === 'withdrawn' ? c.status.title : c.locale.labels.person_no_outfit;
    const line = fitLine('condensed', text, b.w, o.labelSize, sf.scale.outfitRest);
    if (line.lines[0] && b.h >= line.size)
      drawLine(sf, {
        font: 'condensed',
        size: line.size,
        text: line.lines[0].text,
        x: b.x,
        baseline: b.y + Math.round(line.size * 0.9),
        colour: sf.theme.ink,
        report,
      });
  });
  const shown = f ? [f.lead, f.rest].flatMap((t) => t?.lines.map((l) => l.text) ?? []).join(' ') : null;
  report.people.push({
    id: p.id,
    name: p.name,
    garments: c.garments,
    pictograms: row.shown,
    pictogramsMore: row.more,
    additions: p.additions,
    additionsDrawn: added,
    offsetC: p.offsetC,
    away: p.away,
    old: c.old,
    outfit: shown,
    outfitTruncated: f?.truncated ?? false,
    sizes: {
      name: o.nameSize,
      pictogram: row.size || null,
      additions: added.length > 0 ? (plan.additions?.iconSize ?? null) : null,
      outfit: f?.lead.size ?? null,
      outfitRest: f?.rest?.size ?? null,
    },
    box: { ...box },
  });
}
