import { drawFitted, drawLine, newReport, rule, type LayoutReport } from './blocks.js';
import type { FrameContent } from './content.js';
import { formatNumber, formatPercent, formatTemp, formatTempShort, windDegrees } from './format.js';
import { conditionOf, drawConditionIcon } from './icons.js';
import { warningTriangle, windArrow } from './marks.js';
import type { Surface } from './surface.js';
import { fitLine, fitText } from './text-fit.js';

/**
 * Small panels (2.9", 2.13": about 128 px high). Sizes in units of 1 px at 128 px height. Left: icon and
 * temperature. Right: name and time (or the status), alerts, the outfit shortened to fit with an ellipsis,
 * and a line of details.
 */
export function layoutSmall(sf: Surface, c: FrameContent): LayoutReport {
  if (sf.height > sf.width) return layoutSmallTall(sf, c);
  const report = newReport('small');
  const u = sf.unit;
  const W = sf.width;
  const H = sf.height;
  const ink = sf.theme.ink;
  const leftW = 88 * u;
  const w = c.weather;
  if (w) {
    drawConditionIcon(sf, conditionOf(w.description, w.is_day), 16 * u, 0, 58 * u);
    const temp = fitLine('bold', formatTemp(w.temp, w.temp_unit), leftW - 6 * u, 30 * u, 14 * u);
    if (temp.lines[0]) drawLine(sf, 'bold', temp.size, temp.lines[0].text, leftW / 2, 84 * u, ink, 'center', report);
    drawLine(sf, 'condensed', 12 * u, `feels ${formatTempShort(w.feels_like)}`, leftW / 2, 100 * u, ink, 'center', report);
    const r = 5 * u;
    const windText = `${formatNumber(Math.round(w.wind_speed))} ${w.wind_speed_unit}`;
    const wf = fitLine('condensed', windText, leftW - 2 * r - 8 * u, 12 * u, 9 * u);
    const tw = wf.width + 2 * r + 3 * u;
    windArrow(sf.crisp, leftW / 2 - tw / 2 + r, 112 * u, r, windDegrees(w.wind_dir), ink);
    if (wf.lines[0]) drawLine(sf, 'condensed', wf.size, wf.lines[0].text, leftW / 2 - tw / 2 + 2 * r + 3 * u, 116 * u, ink, 'left', report);
    sf.crisp.fillStyle = ink;
    sf.crisp.fillRect(Math.round(leftW), 4 * u, Math.max(1, Math.round(u)), H - 8 * u);
  }
  const x = w ? leftW + 6 * u : 6 * u;
  const tw = W - x - 4 * u;
  let y = headLine(sf, c, x, tw, report);
  y += alertLine(sf, c, x, y, tw, report);
  const details = w && {
    text: `Rain ${formatPercent(w.rain_chance_pct)} · Hum. ${formatPercent(w.humidity_pct)} · UV ${formatNumber(Math.round(w.uv_index))}`,
    minSize: 9 * u,
  };
  outfitAndDetails(sf, c, x, y, tw, details, report);
  return report;
}

/** The outfit in the room left at `y`, above a bottom line of details under a rule (none without weather). */
function outfitAndDetails(
  sf: Surface,
  c: FrameContent,
  x: number,
  y: number,
  tw: number,
  details: { text: string; minSize: number } | null,
  report: LayoutReport,
): void {
  const u = sf.unit;
  const H = sf.height;
  const ink = sf.theme.ink;
  const bottomH = details ? 15 * u : 0;
  if (c.outfit) {
    const outfit = fitText({ text: c.outfit, font: 'condensed', width: tw, height: H - y - bottomH - 1 * u, maxSize: 20 * u, minSize: Math.max(11, 12 * u), lineHeight: 1.15 });
    report.outfit = outfit;
    drawFitted(sf, outfit, x, y, ink, report);
  }
  if (details) {
    const d = fitLine('condensed', details.text, tw, 12 * u, details.minSize);
    rule(sf, x, H - bottomH, tw, Math.max(1, u));
    if (d.lines[0]) drawLine(sf, 'condensed', d.size, d.lines[0].text, x, H - 3 * u, ink, 'left', report);
  }
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
    if (line.lines[0]) drawLine(sf, 'condensed', line.size, line.lines[0].text, x + 1 * u, 13 * u, sf.theme.paper, 'left', report);
  } else {
    const time = c.updated ?? '';
    const tW = time ? drawLine(sf, 'condensed', 12 * u, time, x + tw, 12 * u, ink, 'right', report) : 0;
    const name = fitLine('condensed-bold', c.name, tw - tW - 6 * u, 12 * u, Math.max(10, 9 * u));
    if (name.lines[0]) drawLine(sf, 'condensed-bold', name.size, name.lines[0].text, x, 12 * u, ink, 'left', report);
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
  const more = c.alerts.length > 1 ? ` +${c.alerts.length - 1}` : '';
  const line = fitLine('condensed', c.alerts[0] + more, tw - 16 * u, 12 * u, Math.max(11, 11 * u));
  if (line.lines[0]) drawLine(sf, 'condensed', line.size, line.lines[0].text, x + 15 * u, y + 12 * u, sf.theme.paper, 'left', report);
  report.alerts.push(line);
  return ah + 2 * u;
}

/** Small panels turned upright (128x296 and the like): everything stacked. Units: 1 px at 128 px wide. */
function layoutSmallTall(sf: Surface, c: FrameContent): LayoutReport {
  const report = newReport('small');
  const u = sf.unit;
  const W = sf.width;
  const ink = sf.theme.ink;
  const x = 4 * u;
  const tw = W - 8 * u;
  let y = headLine(sf, c, x, tw, report);
  const w = c.weather;
  if (w) {
    const icon = 52 * u;
    drawConditionIcon(sf, conditionOf(w.description, w.is_day), 0, y, icon);
    const temp = fitLine('bold', formatTemp(w.temp, w.temp_unit), W - icon - 4 * u, 30 * u, 14 * u);
    if (temp.lines[0]) drawLine(sf, 'bold', temp.size, temp.lines[0].text, icon, y + 30 * u, ink, 'left', report);
    drawLine(sf, 'condensed', 12 * u, `feels ${formatTempShort(w.feels_like)}`, icon, y + 46 * u, ink, 'left', report);
    y += icon + 4 * u;
    const r = 5 * u;
    windArrow(sf.crisp, x + r, y + 5 * u, r, windDegrees(w.wind_dir), ink);
    const wl = fitLine('condensed', `${formatNumber(Math.round(w.wind_speed))} ${w.wind_speed_unit} · Rain ${formatPercent(w.rain_chance_pct)}`, tw - 2 * r - 3 * u, 12 * u, Math.max(10, 9 * u));
    if (wl.lines[0]) drawLine(sf, 'condensed', wl.size, wl.lines[0].text, x + 2 * r + 3 * u, y + 9 * u, ink, 'left', report);
    y += 14 * u;
    rule(sf, x, y, tw, Math.max(1, u));
    y += 3 * u;
  }
  y += alertLine(sf, c, x, y, tw, report);
  const details = w && {
    text: `Hum. ${formatPercent(w.humidity_pct)} · UV ${formatNumber(Math.round(w.uv_index))}`,
    minSize: Math.max(10, 9 * u),
  };
  outfitAndDetails(sf, c, x, y, tw, details, report);
  return report;
}
