import type { Weather } from '../api/schemas.js';
import {
  drawAlerts,
  drawDetailCell,
  drawFitted,
  drawLine,
  drawTopBand,
  feelsLike,
  newReport,
  rule,
  weatherDetails,
  type Box,
  type LayoutReport,
} from './blocks.js';
import type { FrameContent } from './content.js';
import { formatTemp } from './format.js';
import { conditionOf, drawConditionIcon } from './icons.js';
import type { Surface } from './surface.js';
import { fitLine, fitText, type FittedText } from './text-fit.js';

/**
 * Landscape and portrait layouts for large panels (800x480 and up, or turned to 480x800). Sizes are in layout
 * units (1 unit = 1 px at 800x480); the outfit gets all the room the weather leaves, at the largest size that
 * fits, and never below OUTFIT_MIN_UNITS, which keeps a 120-word outfit readable at 2 m on a 7.5" panel.
 */

export const OUTFIT_MIN_UNITS = 21;
export const OUTFIT_MAX_UNITS = 44;

/** Icon, big temperature, feels-like and description. Returns nothing; fills `box`. */
function drawCurrent(sf: Surface, w: Weather, box: Box, iconSize: number, report: LayoutReport, portrait: boolean): void {
  const u = sf.unit;
  drawConditionIcon(sf, conditionOf(w.description, w.is_day), box.x, box.y + (box.h - iconSize) / 2, iconSize);
  const x = box.x + iconSize + 14 * u;
  const width = box.x + box.w - x;
  const temp = fitLine('bold', formatTemp(w.temp, w.temp_unit), width - 12 * u, (portrait ? 100 : 96) * u, 40 * u);
  const tempTop = box.y + (portrait ? 6 : 2) * u;
  const tempBase = tempTop + temp.size * 0.8;
  if (temp.lines[0]) drawLine(sf, 'bold', temp.size, temp.lines[0].text, x, tempBase, sf.theme.ink, 'left', report);
  const feelsSize = 24 * u;
  drawLine(sf, 'condensed', feelsSize, feelsLike(w), x, tempBase + feelsSize * 1.45, sf.theme.ink, 'left', report);
  if (portrait) {
    const desc = fitText({ text: w.description, font: 'condensed-bold', width, height: 2 * 30 * u, maxSize: 26 * u, minSize: 18 * u, lineHeight: 1.15 });
    drawFitted(sf, desc, x, tempBase + feelsSize * 1.9, sf.theme.ink, report);
  }
}

/**
 * The outfit at the largest size that fits; the reasoning below it where space allows. The outfit gives up at
 * most a quarter of its size to make room for the whole reasoning; otherwise the reasoning gets what is left,
 * shortened, if two lines fit.
 */
function drawOutfitAndReasoning(sf: Surface, c: FrameContent, box: Box, report: LayoutReport): void {
  const u = sf.unit;
  if (!c.outfit) return;
  const outfitAt = (maxSize: number): FittedText =>
    fitText({ text: c.outfit ?? '', font: 'condensed', width: box.w, height: box.h, maxSize, minSize: OUTFIT_MIN_UNITS * u, lineHeight: 1.2 });
  const gap = 14 * u;
  const reasoningMin = Math.max(11, 15 * u);
  const reasoningIn = (outfit: FittedText, shorten: boolean): FittedText | null => {
    if (!c.reasoning) return null;
    const height = box.h - outfit.height - gap;
    const maxSize = Math.max(reasoningMin, Math.min(24 * u, outfit.size * 0.72));
    if (height < Math.round(reasoningMin * 1.2) * 2) return null;
    const r = fitText({ text: c.reasoning, font: 'condensed', width: box.w, height, maxSize, minSize: reasoningMin, lineHeight: 1.2 });
    return r.truncated && !shorten ? null : r;
  };
  const best = outfitAt(OUTFIT_MAX_UNITS * u);
  let outfit = best;
  let reasoning = reasoningIn(best, false);
  for (let size = best.size - 1; !reasoning && c.reasoning && size >= best.size * 0.75 && size >= OUTFIT_MIN_UNITS * u; size--) {
    const smaller = outfitAt(size);
    const r = reasoningIn(smaller, false);
    if (r) [outfit, reasoning] = [smaller, r];
  }
  if (!reasoning) [outfit, reasoning] = [best, reasoningIn(best, true)];
  report.outfit = outfit;
  drawFitted(sf, outfit, box.x, box.y, sf.theme.ink, report);
  if (!reasoning) return;
  const top = box.y + outfit.height + gap;
  rule(sf, box.x, top - gap / 2 - u, 60 * u, 2 * u);
  report.reasoning = reasoning;
  drawFitted(sf, reasoning, box.x, top, sf.theme.ink, report);
}

export function layoutLandscape(sf: Surface, c: FrameContent): LayoutReport {
  const report = newReport('landscape');
  const u = sf.unit;
  const W = sf.width;
  const H = sf.height;
  const margin = 16 * u;
  const bandH = 40 * u;
  drawTopBand(sf, c, { x: 0, y: 0, w: W, h: bandH }, report);
  let y = bandH + 8 * u;
  const w = c.weather;
  if (w) {
    const rowH = 118 * u;
    const leftW = 380 * u;
    drawCurrent(sf, w, { x: margin - 6 * u, y, w: leftW, h: rowH }, 118 * u, report, false);
    const dx = margin + leftW + 4 * u;
    const dw = W - dx - margin;
    const desc = fitLine('condensed-bold', w.description, dw, 28 * u, 18 * u);
    if (desc.lines[0]) drawLine(sf, 'condensed-bold', desc.size, desc.lines[0].text, dx, y + 26 * u, sf.theme.ink, 'left', report);
    const cellW = dw / 2;
    weatherDetails(w).forEach((d, i) => {
      const cell = { x: dx + (i % 2) * cellW, y: y + 40 * u + Math.floor(i / 2) * 40 * u, w: cellW - 8 * u, h: 40 * u };
      drawDetailCell(sf, d, cell, 14 * u, 22 * u, report);
    });
    y += rowH + 6 * u;
    rule(sf, margin, y, W - 2 * margin, 2 * u);
    y += 8 * u;
  }
  const alertH = drawAlerts(sf, c.alerts, { x: margin, y, w: W - 2 * margin, h: 0 }, 2, 22 * u, report);
  if (alertH) y += alertH + 8 * u;
  drawOutfitAndReasoning(sf, c, { x: margin, y, w: W - 2 * margin, h: H - y - 8 * u }, report);
  return report;
}

export function layoutPortrait(sf: Surface, c: FrameContent): LayoutReport {
  const report = newReport('portrait');
  const u = sf.unit;
  const W = sf.width;
  const H = sf.height;
  const margin = 16 * u;
  const bandH = 44 * u;
  drawTopBand(sf, c, { x: 0, y: 0, w: W, h: bandH }, report);
  let y = bandH + 10 * u;
  const w = c.weather;
  if (w) {
    const rowH = 150 * u;
    drawCurrent(sf, w, { x: margin - 6 * u, y, w: W - 2 * margin, h: rowH }, 140 * u, report, true);
    y += rowH + 8 * u;
    const cellW = (W - 2 * margin) / 4;
    weatherDetails(w).forEach((d, i) => {
      drawDetailCell(sf, d, { x: margin + i * cellW, y, w: cellW - 6 * u, h: 50 * u }, 16 * u, 24 * u, report);
    });
    y += 56 * u;
    rule(sf, margin, y, W - 2 * margin, 2 * u);
    y += 10 * u;
  }
  const alertH = drawAlerts(sf, c.alerts, { x: margin, y, w: W - 2 * margin, h: 0 }, 3, 24 * u, report);
  if (alertH) y += alertH + 10 * u;
  drawOutfitAndReasoning(sf, c, { x: margin, y, w: W - 2 * margin, h: H - y - 10 * u }, report);
  return report;
}
