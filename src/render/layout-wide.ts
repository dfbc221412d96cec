import type { Weather } from '../api/schemas.js';
import type { Locale } from '../i18n/locale.js';
import { drawAlerts, drawTopBand, feelsLike, newReport, rule, drawLine, type Box, type LayoutReport } from './blocks.js';
import type { FrameContent } from './content.js';
import { measure } from './fonts.js';
import { conditionOf, drawConditionIcon } from './icons.js';
import { drawGarments, drawOutfitBlock, outfitFitsWhole } from './outfit-block.js';
import { pictogramRowHeight } from './pictogram-row.js';
import { drawReadings, drawTemperature, readingsOf } from './readings.js';
import type { Surface } from './surface.js';
import { ELLIPSIS, fitLine } from './text-fit.js';

/**
 * Wall panels, read from 2 m (7.5", TRMNL, Inkplate, Kindle). Geometry in layout units (1 unit = 1 px at 800x480
 * or 480x800); text sizes from the type scale (type-scale.ts), which knows the panel's pixel density. From the
 * top: a thin band with the name and time (not meant for 2 m); the weather (icon, temperature, the readings as
 * pictogram + value); the garment pictograms; the outfit, as large as fits and never below 10′ of arc.
 */

/** Icon, temperature, and the feels-like temperature with the description beneath. */
function drawCurrent(sf: Surface, w: Weather, box: Box, iconSize: number, tempMax: number, report: LayoutReport, locale: Locale): void {
  const u = sf.unit;
  drawConditionIcon(sf, conditionOf(w), box.x, box.y + (box.h - iconSize) / 2, iconSize);
  report.sizes.weatherIcon = Math.round(iconSize);
  const x = box.x + iconSize + 12 * u;
  const width = box.x + box.w - x;
  const size = Math.max(sf.scale.temperature, tempMax);
  const lineSize = 20 * u;
  const base = box.y + Math.min(size * 0.8, box.h - lineSize * 1.5);
  const temp = drawTemperature(sf, w, x, Math.round(base), Math.min(size, (box.h - lineSize * 1.4) / 0.78), width, report);
  report.sizes.temperature = temp.size;
  // The description where it fits at a readable size; the icon says it too.
  const text = [feelsLike(w, locale), w.description?.trim()].filter(Boolean).join(' · ');
  const full = fitLine('condensed', text, width, lineSize, lineSize * 0.85);
  const baseline = Math.round(base + lineSize * 1.25);
  const shortened = full.truncated ? describedShort(w, locale, width, lineSize * 0.85) : null;
  if (shortened) {
    drawLine(sf, 'condensed', lineSize * 0.85, shortened, x, baseline, sf.theme.ink, 'left', report);
    return;
  }
  const line = full.truncated ? fitLine('condensed', feelsLike(w, locale), width, lineSize, lineSize * 0.7) : full;
  if (line.lines[0]) drawLine(sf, 'condensed', line.size, line.lines[0].text, x, baseline, sf.theme.ink, 'left', report);
}

/**
 * The feels-like temperature whole and the description cut to the width left ("Feels like 1° · Thunderst…"), or
 * null where not three letters of the description would be left (then it is left out: the icon says it too).
 */
function describedShort(w: Weather, locale: Locale, width: number, size: number): string | null {
  const desc = w.description?.trim();
  if (!desc) return null;
  const feels = `${feelsLike(w, locale)} · `;
  const cut = fitLine('condensed', desc, width - measure('condensed', size, feels), size, size).lines[0];
  return cut && cut.text.replace(ELLIPSIS, '').length >= 3 ? feels + cut.text : null;
}

export function layoutLandscape(sf: Surface, c: FrameContent): LayoutReport {
  const report = newReport('landscape');
  const u = sf.unit;
  const W = sf.width;
  const H = sf.height;
  const m = 16 * u;
  const bandH = 26 * u;
  drawTopBand(sf, c, { x: 0, y: 0, w: W, h: bandH }, report);
  let y = bandH + 4 * u;
  const w = c.weather;
  if (w) {
    const rowH = 92 * u;
    const readW = 392 * u;
    drawCurrent(sf, w, { x: m - 4 * u, y, w: W - 2 * m - readW, h: rowH }, rowH, 76 * u, report, c.locale);
    report.sizes.reading = drawReadings(sf, readingsOf(w, c.locale), { x: W - m - readW, y, w: readW, h: rowH }, 2, Math.max(sf.scale.reading, 30 * u), report);
    y += rowH + 4 * u;
    rule(sf, m, y, W - 2 * m, 2 * u);
    y += 6 * u;
  }
  const alertH = drawAlerts(sf, c.alerts, { x: m, y, w: W - 2 * m, h: 0 }, 2, 22 * u, report, c.locale);
  if (alertH) y += alertH + 8 * u;
  const rowH = drawGarments(sf, c, { x: m, y, w: W - 2 * m, h: 64 * u }, 40 * u, report);
  if (rowH) y += rowH + 8 * u;
  drawOutfitBlock(sf, c, { x: m, y, w: W - 2 * m, h: H - y - 4 * u }, { maxSize: 110 * u, lineHeight: 1.1, reasoningMax: 24 * u }, report);
  return report;
}

export function layoutPortrait(sf: Surface, c: FrameContent): LayoutReport {
  const report = newReport('portrait');
  const u = sf.unit;
  const W = sf.width;
  const H = sf.height;
  const m = 16 * u;
  const bandH = 32 * u;
  drawTopBand(sf, c, { x: 0, y: 0, w: W, h: bandH }, report);
  let y = bandH + 6 * u;
  const w = c.weather;
  if (w) {
    const rowH = 120 * u;
    drawCurrent(sf, w, { x: m - 4 * u, y, w: W - 2 * m, h: rowH }, rowH, 96 * u, report, c.locale);
    y += rowH + 4 * u;
    const readH = 96 * u;
    report.sizes.reading = drawReadings(sf, readingsOf(w, c.locale), { x: m, y, w: W - 2 * m, h: readH }, 2, Math.max(sf.scale.reading, 32 * u), report);
    y += readH + 4 * u;
    rule(sf, m, y, W - 2 * m, 2 * u);
    y += 10 * u;
  }
  const alertH = drawAlerts(sf, c.alerts, { x: m, y, w: W - 2 * m, h: 0 }, 3, 24 * u, report, c.locale);
  if (alertH) y += alertH + 10 * u;
  // Two rows of larger pictograms where the outfit still fits whole below them, or would not fit whole anyway
  // (then the pictograms carry the full list).
  const rowBox = { x: m, y, w: W - 2 * m, h: 72 * u };
  const outfitOpts = { maxSize: 120 * u, lineHeight: 1.1, reasoningMax: 26 * u };
  const below = (rows: 1 | 2): Box => {
    const h = pictogramRowHeight(c.garments, rowBox, 40 * u, rows);
    const top = y + (h ? h + 10 * u : 0);
    return { x: m, y: top, w: W - 2 * m, h: H - top - 6 * u };
  };
  const rows = outfitFitsWhole(sf, c, below(2), outfitOpts) || !outfitFitsWhole(sf, c, below(1), outfitOpts) ? 2 : 1;
  drawGarments(sf, c, rowBox, 40 * u, report, rows);
  drawOutfitBlock(sf, c, below(rows), outfitOpts, report);
  return report;
}
