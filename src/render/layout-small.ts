import type { Weather } from '../api/schemas.js';
import type { Locale } from '../i18n/locale.js';
import { drawLine, newReport, rule, type LayoutReport } from './blocks.js';
import type { FrameContent } from './content.js';
import { conditionOf, drawConditionIcon } from './icons.js';
import { warningTriangle } from './marks.js';
import { drawGarments, drawOutfitBlock } from './outfit-block.js';
import { drawReading, drawReadings, drawTemperature, readingsOf } from './readings.js';
import type { Surface } from './surface.js';
import { fitLine } from './text-fit.js';

/**
 * Small panels (4.2", 2.9", 2.13"), read at arm's length: their own type scale (type-scale.ts, 'hand').
 * Geometry in units of 1 px at 128 px high. Left: icon, temperature and the four readings as pictogram + value.
 * Right: name and time (or the status), alerts, the garment pictograms (at least 24 px), and the outfit.
 */

/** The smallest pictogram of the garment row, px: below this they cannot be told apart. */
const PICTOGRAM_MIN_PX = 24;

export function layoutSmall(sf: Surface, c: FrameContent): LayoutReport {
  const report = newReport('small');
  const u = sf.unit;
  const W = sf.width;
  const H = sf.height;
  const w = c.weather;
  // Lying (250x122 and the like): the weather in a column on the left, the text column beside it. Upright
  // (128x296 and the like, units of 1 px at 128 px wide): everything stacked, the weather below the head line.
  const tall = H > W;
  if (w && !tall) {
    const leftW = 84 * u;
    leftColumn(sf, w, leftW, report, c.locale);
    sf.crisp.fillStyle = sf.theme.ink;
    sf.crisp.fillRect(Math.round(leftW), 4 * u, Math.max(1, Math.round(u)), H - 8 * u);
  }
  const x = tall ? 4 * u : w ? 84 * u + 6 * u : 6 * u;
  const tw = tall ? W - 8 * u : W - x - 4 * u;
  let y = headLine(sf, c, x, tw, report);
  if (w && tall) y = weatherStack(sf, w, x, y, tw, report, c.locale);
  y += alertLine(sf, c, x, y, tw, report);
  y += garmentRow(sf, c, x, y, tw, report);
  const bottom = (tall ? 2 : 1) * u;
  drawOutfitBlock(sf, c, { x, y, w: tw, h: H - y - bottom }, { maxSize: 24 * u, lineHeight: 1.15, reasoningMax: 0 }, report);
  return report;
}

/** Icon and temperature side by side above the four readings, one a row. */
function leftColumn(sf: Surface, w: Weather, leftW: number, report: LayoutReport, locale: Locale): void {
  const u = sf.unit;
  const icon = 40 * u;
  drawConditionIcon(sf, conditionOf(w), (leftW - icon) / 2, 1 * u, icon);
  report.sizes.weatherIcon = Math.round(icon);
  const t = drawTemperature(sf, w, 4 * u, Math.round(icon + 25 * u), Math.max(sf.scale.temperature, 26 * u), leftW - 8 * u, report);
  report.sizes.temperature = t.size;
  const top = icon + 31 * u;
  const rowH = (sf.height - top - 1 * u) / 4;
  const size = Math.max(sf.scale.reading, Math.min(12 * u, rowH * 0.85));
  const mark = Math.min(rowH * 0.9, size * 1.2);
  readingsOf(w, locale).forEach((r, i) => drawReading(sf, r, 3 * u, top + i * rowH + (rowH - mark) / 2, mark, size, leftW - 6 * u, report));
  report.sizes.reading = Math.round(size);
}

/** The garment row at y; returns the height used with the space below it. */
function garmentRow(sf: Surface, c: FrameContent, x: number, y: number, tw: number, report: LayoutReport): number {
  const u = sf.unit;
  const h = drawGarments(sf, c, { x, y: y + 1 * u, w: tw, h: Math.max(PICTOGRAM_MIN_PX, 28 * u) }, PICTOGRAM_MIN_PX, report);
  return h ? h + 4 * u : 0;
}

/** The top line: the status in an inverted band, else the name and the update time. Returns its height. */
function headLine(sf: Surface, c: FrameContent, x: number, tw: number, report: LayoutReport): number {
  const u = sf.unit;
  const ink = sf.theme.ink;
  const headH = 17 * u;
  const st = c.status;
  if (st) {
    sf.crisp.fillStyle = sf.theme.accent;
    sf.crisp.fillRect(x - 2 * u, 1 * u, tw + 4 * u, headH - 2 * u);
    const line = fitLine('condensed', st.short, tw - 4 * u, 12 * u, Math.max(11, 11 * u));
    if (line.lines[0]) drawLine(sf, { font: 'condensed', size: line.size, text: line.lines[0].text, x: x + 1 * u, baseline: 13 * u, colour: sf.theme.paper, report });
  } else {
    const time = c.updated ?? '';
    const tW = time ? drawLine(sf, { font: 'condensed', size: 12 * u, text: time, x: x + tw, baseline: 12 * u, colour: ink, align: 'right', report }) : 0;
    const name = fitLine('condensed-bold', c.name, tw - tW - 6 * u, 12 * u, Math.max(10, 9 * u));
    if (name.lines[0]) drawLine(sf, { font: 'condensed-bold', size: name.size, text: name.lines[0].text, x, baseline: 12 * u, colour: ink, report });
    rule(sf, x, headH - 2 * u, tw, Math.max(1, u));
  }
  return headH + 1 * u;
}

/** The first alert (and how many more) in an inverted band. Returns its height, 0 without alerts. */
function alertLine(sf: Surface, c: FrameContent, x: number, y: number, tw: number, report: LayoutReport): number {
  if (c.alerts.length === 0) return 0;
  const u = sf.unit;
  const ah = 15 * u;
  sf.crisp.fillStyle = sf.theme.accent;
  sf.crisp.fillRect(x - 2 * u, y, tw + 4 * u, ah);
  warningTriangle(sf.crisp, x, y + 1.5 * u, 12 * u, sf.theme.paper);
  // The count stays when the first alert is cut.
  const more = c.alerts.length > 1 ? `+${c.alerts.length - 1}` : undefined;
  const line = fitLine('condensed', c.alerts[0]!, tw - 16 * u, 12 * u, Math.max(11, 11 * u), more);
  if (line.lines[0]) drawLine(sf, { font: 'condensed', size: line.size, text: line.lines[0].text, x: x + 15 * u, baseline: y + 12 * u, colour: sf.theme.paper, report });
  report.alerts.push(line);
  return ah + 2 * u;
}

/** Upright: icon and temperature side by side, the readings in two columns below, and a rule. Returns the y below. */
function weatherStack(sf: Surface, w: Weather, x: number, top: number, tw: number, report: LayoutReport, locale: Locale): number {
  const u = sf.unit;
  const icon = 44 * u;
  let y = top;
  drawConditionIcon(sf, conditionOf(w), 0, y, icon);
  report.sizes.weatherIcon = Math.round(icon);
  const t = drawTemperature(sf, w, icon + 2 * u, Math.round(y + 32 * u), Math.max(sf.scale.temperature, 28 * u), sf.width - icon - 6 * u, report);
  report.sizes.temperature = t.size;
  y += icon + 2 * u;
  const size = Math.max(sf.scale.reading, 12 * u);
  report.sizes.reading = drawReadings(sf, readingsOf(w, locale), { x, y, w: tw, h: 34 * u }, 2, size, report);
  y += 36 * u;
  rule(sf, x, y, tw, Math.max(1, u));
  return y + 3 * u;
}
