import { drawFitted, type Box, type LayoutReport } from './blocks.js';
import type { Surface } from '../draw/surface.js';
import { fitText, type FittedText } from '../text/text-fit.js';
import { drawStatusOutline, statusOutlineWidth } from './status-box.js';

/**
 * What marks an outfit as old (content.ts `old`): the dashed frame around it and what is as old as it (the weather,
 * the alerts), and the headline of one made for an earlier day ("Yesterday's outfit"). The age badge of a stale one
 * on its own day is the top band's (blocks.ts).
 */

/** Where and how large a headline is drawn (drawHeadline). */
export interface HeadlineBox {
  /** Its left edge and top, px, and the width it may take. */
  x: number;
  y: number;
  maxW: number;
  /** Text size, px: the outfit's (its capitals subtend the outfit's arc), and the smallest it may shrink to. */
  size: number;
  minSize: number;
}

/**
 * The headline of an outfit of an earlier day ("Yesterday's outfit"), first inside its dashed frame: outlined, in ink,
 * as the badge of a stale one is (status-box.ts: the service's state never looks like an alert's filled band), at the
 * outfit's size, on two lines where one does not hold it (a narrow frame, a long language), so the age is never cut
 * off. Returns the height used.
 */
export function drawHeadline(sf: Surface, text: string, b: HeadlineBox, report: LayoutReport): number {
  return sf.drawn.within('status', () => {
    const t = statusOutlineWidth(sf);
    const { fitted, padX, padY, h } = fitHeadline(text, b, t);
    const w = Math.max(0, ...fitted.lines.map((l) => l.width)) + 2 * padX;
    const room = drawStatusOutline(sf, { x: b.x, y: b.y, w, h }, t);
    drawFitted(sf, fitted, b.x + padX, b.y + padY, sf.theme.status, report, room);
    report.headline = { lines: fitted.lines.map((l) => l.text), size: fitted.size };
    return h;
  });
}

/** The width and height drawHeadline would use, px, without drawing: the layouts plan their room with it. */
export function headlineSize(sf: Surface, text: string, b: HeadlineBox): { w: number; h: number } {
  const { fitted, padX, h } = fitHeadline(text, b, statusOutlineWidth(sf));
  return { w: Math.max(0, ...fitted.lines.map((l) => l.width)) + 2 * padX, h };
}

/**
 * The headline's lines (one where it fits at any size allowed, else two at the largest that holds them) and padding:
 * the words' ink stays off the outline (`t` px, status-box.ts) by a pad of the outline's weight and more.
 */
function fitHeadline(
  text: string,
  b: HeadlineBox,
  t: number,
): { fitted: FittedText; padX: number; padY: number; h: number } {
  const padX = Math.max(3, Math.round(b.size * 0.25)) + t;
  const padY = Math.max(1, Math.round(b.size * 0.1), t + 1);
  const at = (lines: number): FittedText =>
    fitText({
      text,
      font: 'condensed-bold',
      width: b.maxW - 2 * padX,
      height: lines * Math.round(b.size * 1.15),
      maxSize: b.size,
      minSize: b.minSize,
      lineHeight: 1.15,
    });
  const one = at(1);
  const fitted = !one.truncated && one.lines.length === 1 ? one : at(2);
  return { fitted, padX, padY, h: Math.round(fitted.height + 2 * padY) };
}

/** The dashed frame's thickness on a wall panel, px (markOld's default). */
export const oldFrameThickness = (sf: Surface): number => Math.max(2, Math.round(3 * sf.unit));

/**
 * The outfit block of an outfit out of date, marked as old: a dashed frame around it (the badge above says how old).
 * Dashes, not a line: the frame reads as "not current" and never as part of the layout. Without its `left` side where
 * that is another frame's (a small panel's text column, beside its weather's).
 */
export function markOld(
  sf: Surface,
  box: Box,
  report: LayoutReport,
  thickness = oldFrameThickness(sf),
  left = true,
): void {
  const u = sf.unit;
  report.markedOld = true;
  report.oldMarks.push({ ...box });
  const t = thickness;
  // A hairline frame (a small panel's) in long dashes with short gaps: a dash of a line's height beside a word reads
  // as a letter ("|"), one of two lines' height as the frame it is.
  const hairline = t < 2;
  const dash = hairline ? Math.max(12, Math.round(26 * u)) : Math.max(6, Math.round(14 * u));
  const step = dash + (hairline ? Math.max(4, Math.round(8 * u)) : dash);
  const ctx = sf.crisp;
  ctx.fillStyle = sf.theme.ink;
  sf.drawn.within('old_mark', () => sf.drawn.icon('dashed-frame', sf.theme.ink));
  const x0 = Math.round(box.x);
  const y0 = Math.round(box.y);
  const x1 = Math.round(box.x + box.w) - t;
  const y1 = Math.round(box.y + box.h) - t;
  for (let x = x0; x < x1 + t; x += step) {
    const w = Math.min(dash, x1 + t - x);
    ctx.fillRect(x, y0, w, t);
    ctx.fillRect(x, y1, w, t);
  }
  // Its sides, as rules: text keeps the frame's margin from them as from any rule (drawn-log.ts).
  const sides = [
    { x: x0, y: y0, w: x1 + t - x0, h: t },
    { x: x0, y: y1, w: x1 + t - x0, h: t },
    { x: x1, y: y0, w: t, h: y1 + t - y0 },
  ];
  if (left) sides.push({ x: x0, y: y0, w: t, h: y1 + t - y0 });
  for (const side of sides) sf.drawn.rule(side);
  for (let y = y0; y < y1 + t; y += step) {
    const h = Math.min(dash, y1 + t - y);
    if (left) ctx.fillRect(x0, y, t, h);
    ctx.fillRect(x1, y, t, h);
  }
}
