import type { Weather } from '../api/schemas.js';
import { fill } from '../i18n/labels.js';
import { ENGLISH, type Locale } from '../i18n/locale.js';
import { baseDirection, hasRightToLeft } from './bidi.js';
import type { FrameContent, StatusText } from './content.js';
import { drawText, measure, type FontId } from './fonts.js';
import { recordInk, type DrawnLine, type InkBox } from './ink-box.js';
import { formatTempShort } from './format.js';
import { statusMark, warningTriangle } from './marks.js';
import type { Surface } from './surface.js';
import { fitLine, fitText, type FittedText } from './text-fit.js';

/** Pieces every layout uses: fitted text, the header or status band, the alert band, the weather details. */

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The sizes a layout chose, px (null: not drawn). */
export interface LayoutSizes {
  /** The outfit, or the first sentence of a long one. */
  outfit: number | null;
  /** The rest of a long outfit. */
  outfitRest: number | null;
  reasoning: number | null;
  temperature: number | null;
  /** The readings' values. */
  reading: number | null;
  /** The garment pictograms (square). */
  pictogram: number | null;
  weatherIcon: number | null;
}

/** What a layout placed, for tests, the gallery and `render --out x.json`: texts, sizes, what was shortened. */
export interface LayoutReport {
  layout: 'landscape' | 'portrait' | 'small' | 'error';
  /** The whole outfit, or the first sentence of a long one. */
  outfit: FittedText | null;
  /** The rest of a long outfit, smaller or cut (null when the outfit fit whole). */
  outfitRest: FittedText | null;
  reasoning: FittedText | null;
  alerts: FittedText[];
  /** The pictogram row, in order ('nothing-extra': the tick). */
  pictograms: string[];
  sizes: LayoutSizes;
  texts: string[];
  /** Ink boxes of the texts drawn, by item (ink-box.ts), for the layout checks. */
  inks: InkBox[];
  /** Code points drawn as a missing-glyph box (no bundled font has them), each once; frame.ts fills it. */
  missingGlyphs: number[];
}

export function newReport(layout: LayoutReport['layout']): LayoutReport {
  const sizes: LayoutSizes = { outfit: null, outfitRest: null, reasoning: null, temperature: null, reading: null, pictogram: null, weatherIcon: null };
  return { layout, outfit: null, outfitRest: null, reasoning: null, alerts: [], pictograms: [], sizes, texts: [], inks: [], missingGlyphs: [] };
}

/** Baseline of the first line of a block whose top is `top`. */
export function firstBaseline(top: number, fitted: FittedText): number {
  return top + Math.round((fitted.pitch - fitted.size) / 2 + fitted.size * 0.8);
}

export function drawFitted(sf: Surface, fitted: FittedText, x: number, top: number, colour: string, report?: LayoutReport): void {
  let y = firstBaseline(top, fitted);
  const drawn: DrawnLine[] = [];
  // Every line in the paragraph's direction (a zero-width LRM or RLM first), not in that of its own first word.
  const mark = baseDirection(fitted.lines.map((l) => l.text).join(' ')) === 'rtl' ? '\u200F' : '\u200E';
  for (const line of fitted.lines) {
    // A line with right-to-left text is drawn whole, so that its words are put in display order (bidi.ts).
    if (hasRightToLeft(line.text)) drawText(sf.text, fitted.font, fitted.size, mark + line.text, x, y, colour);
    else for (const w of line.words) drawText(sf.text, fitted.font, fitted.size, w.text, x + w.x, y, colour);
    report?.texts.push(line.text);
    drawn.push({ font: fitted.font, size: fitted.size, text: line.text, x, baseline: Math.round(y) });
    y += fitted.pitch;
  }
  if (report) recordInk(report.inks, drawn);
}

/** One line of text, for drawLine. */
export interface DrawLineOptions {
  font: FontId;
  /** Font size, px. */
  size: number;
  text: string;
  /** Where the line is anchored, px: its left edge, right edge or centre, as `align` says. */
  x: number;
  /** The baseline, px (rounded for the ink box only: the glyphs are placed at the exact value). */
  baseline: number;
  /** A CSS colour from the surface's theme. */
  colour: string;
  /** What `x` is; default 'left'. */
  align?: 'left' | 'right' | 'center';
  /** Where the text and its ink box are recorded; without one, nothing is (the caller records it itself). */
  report?: LayoutReport;
}

/** One line of text. Returns its width. */
export function drawLine(sf: Surface, o: DrawLineOptions): number {
  const { font, size, text, baseline, report } = o;
  const w = measure(font, size, text);
  const align = o.align ?? 'left';
  const left = align === 'left' ? o.x : align === 'right' ? o.x - w : o.x - w / 2;
  drawText(sf.text, font, size, text, left, baseline, o.colour);
  report?.texts.push(text);
  if (report) recordInk(report.inks, [{ font, size, text, x: left, baseline: Math.round(baseline) }]);
  return w;
}

export function rule(sf: Surface, x: number, y: number, w: number, thickness: number, colour = sf.theme.ink): void {
  sf.crisp.fillStyle = colour;
  sf.crisp.fillRect(Math.round(x), Math.round(y), Math.round(w), Math.max(1, Math.round(thickness)));
}

/**
 * The top band: the display name and the update time, with an inverted "STALE" mark when the data is old;
 * or, for an error, a filled band with the status in white.
 */
export function drawTopBand(sf: Surface, c: FrameContent, box: Box, report: LayoutReport): void {
  const u = sf.unit;
  const pad = 10 * u;
  const size = box.h * 0.56;
  const base = box.y + box.h * 0.5 + size * 0.36;
  const st = c.status;
  if (st?.error) {
    sf.crisp.fillStyle = sf.theme.accent;
    sf.crisp.fillRect(box.x, box.y, box.w, box.h);
    const white = sf.theme.paper;
    const nameFit = fitLine('condensed', c.name, box.w * 0.3, size * 0.8, size * 0.6);
    const nameW = nameFit.width;
    if (nameFit.lines[0]) drawLine(sf, { font: 'condensed', size: nameFit.size, text: nameFit.lines[0].text, x: box.x + box.w - pad, baseline: base, colour: white, align: 'right', report });
    const markS = box.h * 0.7;
    statusMark(sf.crisp, st.mark, box.x + pad, box.y + (box.h - markS) / 2, markS, white);
    const textX = box.x + pad + markS + 8 * u;
    const avail = box.w - (textX - box.x) - nameW - 3 * pad;
    const title = fitLine('condensed-bold', `${st.title}:`, avail, size, size * 0.7);
    const tw = title.lines[0] ? drawLine(sf, { font: 'condensed-bold', size: title.size, text: title.lines[0].text, x: textX, baseline: base, colour: white, report }) : 0;
    const detail = fitLine('condensed', st.detail, avail - tw - 6 * u, size, size * 0.7);
    if (detail.lines[0] && avail - tw > 40 * u) drawLine(sf, { font: 'condensed', size: detail.size, text: detail.lines[0].text, x: textX + tw + 6 * u, baseline: base, colour: white, report });
    return;
  }
  const right = box.x + box.w - pad;
  let timeW = 0;
  if (c.updated) {
    const l = c.locale.labels;
    const updated = c.age ? fill(l.updated_ago, { time: c.updated, age: c.age }) : fill(l.updated, { time: c.updated });
    timeW = drawLine(sf, { font: 'condensed', size: size * 0.85, text: updated, x: right, baseline: base, colour: sf.theme.ink, align: 'right', report });
  }
  if (st) timeW += staleBadge(sf, st, c.locale.labels.stale_badge, right - timeW - 8 * u, box.y + box.h * 0.16, box.h * 0.68, report) + 8 * u;
  const name = fitLine('bold', c.name, box.w - timeW - 3 * pad, size, size * 0.6);
  if (name.lines[0]) drawLine(sf, { font: 'bold', size: name.size, text: name.lines[0].text, x: box.x + pad, baseline: base, colour: sf.theme.ink, report });
  rule(sf, box.x, box.y + box.h - 2 * u, box.w, 2 * u);
}

/** An inverted badge ending at x: "STALE" (`text`, in the frame's language). Returns its width. */
function staleBadge(sf: Surface, st: StatusText, text: string, xRight: number, y: number, h: number, report: LayoutReport): number {
  const size = h * 0.72;
  const w = measure('condensed-bold', size, text) + h * 0.6;
  sf.crisp.fillStyle = sf.theme.accent;
  sf.crisp.fillRect(xRight - w, y, w, h);
  drawLine(sf, { font: 'condensed-bold', size, text, x: xRight - w / 2, baseline: y + h / 2 + size * 0.36, colour: sf.theme.paper, align: 'center', report });
  report.texts.push(st.detail);
  return w;
}

/** Alert lines on a filled band with a warning triangle; returns the height used (0 without alerts). */
export function drawAlerts(sf: Surface, alerts: string[], box: Box, maxLines: number, size: number, report: LayoutReport, locale: Locale = ENGLISH): number {
  if (alerts.length === 0) return 0;
  const u = sf.unit;
  const pad = 8 * u;
  const tri = size * 1.15;
  const textX = box.x + pad + tri + pad;
  const shown = alerts.slice(0, maxLines);
  const more = alerts.length - shown.length;
  // The count is the tail: it stays when the alerts before it are cut, so five alerts never look like one.
  const tail = more > 0 ? `(${fill(locale.labels.more_alerts, { n: more })})` : undefined;
  const fitted = fitText({ text: shown.join(' · '), tail, font: 'condensed-bold', width: box.w - (textX - box.x) - pad, height: maxLines * Math.round(size * 1.2), maxSize: size, minSize: size * 0.8, lineHeight: 1.2 });
  const h = fitted.height + 2 * pad;
  sf.crisp.fillStyle = sf.theme.accent;
  sf.crisp.fillRect(box.x, box.y, box.w, h);
  warningTriangle(sf.crisp, box.x + pad, box.y + (h - tri) / 2, tri, sf.theme.paper);
  drawFitted(sf, fitted, textX, box.y + pad, sf.theme.paper, report);
  report.alerts.push(fitted);
  return h;
}

export function feelsLike(w: Weather, locale: Locale = ENGLISH): string {
  return fill(locale.labels.feels_like, { temp: formatTempShort(w.feels_like) });
}
