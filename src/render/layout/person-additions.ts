import { fill } from '../../i18n/labels.js';
import { drawLine, type LayoutReport } from './blocks.js';
import type { PersonContent } from './content.js';
import { drawPictogramRow } from '../pictograms/pictogram-row.js';
import type { Surface } from '../draw/surface.js';
import { measure } from '../text/fonts.js';

/**
 * A person's own additions (domain/warmth.ts additionsFor): the garments the weather asks for at their own feels-like
 * that the service's outfit lacks, drawn as theirs: a "+ for Anna" label, then their pictograms, apart from the
 * service's garment row, so that the service's answer is never changed on the frame.
 */

/** Where and how large: the label's size and the pictograms'. */
export interface AdditionsPlace {
  x: number;
  y: number;
  /** The width they may take, px. */
  w: number;
  labelSize: number;
  iconSize: number;
  /** Beside the person's name: the label is "+" alone, as "for Anna" would repeat the name beside it. */
  besideName?: boolean;
}

/** A quarter of a pictogram between two (pictogram-row.ts). */
const GAP = 0.25;

/** The label in the person's language, "+ for Anna"; beside their name, "+". */
const labelOf = (p: PersonContent, besideName = false): string =>
  besideName ? '+' : fill(p.content.locale.labels.person_additions, { name: p.name });

/** Label and pictograms on one line (true), or the label above them. */
function oneLine(p: PersonContent, at: AdditionsPlace): boolean {
  const n = p.additions.length;
  const icons = n * at.iconSize + (n - 1) * at.iconSize * GAP;
  return measure('condensed', at.labelSize, labelOf(p, at.besideName)) + at.labelSize * 0.4 + icons <= at.w;
}

/** The width of label and pictograms on one line, px. */
export function additionsWidth(p: PersonContent, labelSize: number, iconSize: number, besideName = false): number {
  const n = p.additions.length;
  if (n === 0) return 0;
  const label = measure('condensed', labelSize, labelOf(p, besideName));
  return label + labelSize * 0.4 + n * iconSize * (1 + GAP) - iconSize * GAP;
}

/** The height drawAdditions takes at `at`, px (0: nothing to add). */
export function additionsHeight(p: PersonContent, at: AdditionsPlace): number {
  if (p.additions.length === 0) return 0;
  const line = Math.round(at.labelSize * 1.2);
  return oneLine(p, at) ? Math.max(at.iconSize, line) : line + at.iconSize;
}

/** Draws the label and the pictograms; returns the pictograms drawn (fewer, and "+N", only where the width ends). */
export function drawAdditions(sf: Surface, p: PersonContent, at: AdditionsPlace, report: LayoutReport): string[] {
  if (p.additions.length === 0) return [];
  return sf.drawn.within('additions', () => {
    const size = at.labelSize;
    const label = labelOf(p, at.besideName);
    const a = at.iconSize;
    const labelW = measure('condensed', size, label);
    const gap = Math.round(size * 0.4);
    const line = Math.round(size * 1.2);
    // On one line where both fit, the label's capitals centred on the pictograms; else the label above them.
    const one = oneLine(p, at);
    const h = Math.max(a, line);
    const baseline = one ? at.y + h / 2 + size * 0.36 : at.y + Math.round(size * 0.9);
    drawLine(sf, { font: 'condensed', size, text: label, x: at.x, baseline, colour: sf.theme.ink, report });
    const row = one
      ? { x: at.x + labelW + gap, y: at.y + (h - a) / 2, w: at.w - labelW - gap, h: a }
      : { x: at.x, y: at.y + line, w: at.w, h: a };
    const drawn = drawPictogramRow(sf, p.additions, row, a);
    if (drawn.more > 0) report.texts.push(`+${drawn.more}`);
    return drawn.shown.map(String);
  });
}
