import type { AlertSeverity } from '../../domain/alert-severity.js';
import { fill } from '../../i18n/labels.js';
import { drawLine, type Box, type LayoutReport } from './blocks.js';
import type { FrameContent } from './content.js';
import type { FrameAlert } from './format.js';
import { warningTriangle, warningTriangleOutline } from '../pictograms/marks.js';
import type { Surface } from '../draw/surface.js';
import type { FontId } from '../text/fonts.js';
import { fitLine, fitText, type FittedText } from '../text/text-fit.js';

/**
 * Weather alerts, each marked by how severe it is (alert-severity.ts), most severe first: an extreme or severe one
 * inverted, on a band of the alert colour with a filled warning mark and bold text, as a warning asks for action; a
 * moderate one, or one of unknown severity, on paper with a filled mark and bold text; a minor one (an advisory) on
 * paper, an outlined mark and regular text. The wall panels give each alert the lines it needs at the readings' size,
 * with paper between two alerts; where the outfit needs the room, the least severe give up their second lines first.
 */

/** How an alert of a severity looks. */
export interface AlertLook {
  /** On a band of the alert colour, in paper (else on paper, in ink). */
  inverted: boolean;
  mark: 'filled' | 'outline';
  font: FontId;
}

export function alertLook(severity: AlertSeverity): AlertLook {
  switch (severity) {
    case 'extreme':
    case 'severe':
      return { inverted: true, mark: 'filled', font: 'condensed-bold' };
    case 'moderate':
    case 'unknown':
      return { inverted: false, mark: 'filled', font: 'condensed-bold' };
    case 'minor':
      return { inverted: false, mark: 'outline', font: 'condensed' };
  }
}

/** An alert's mark in the square (x, y, s): paper on its band, else the alert colour (ink on a black/white panel). */
export function drawAlertMark(sf: Surface, look: AlertLook, x: number, y: number, s: number): void {
  const colour = look.inverted ? sf.theme.paper : sf.theme.danger;
  if (look.mark === 'filled') warningTriangle(sf.crisp, x, y, s, colour);
  else warningTriangleOutline(sf.crisp, x, y, s, colour);
  sf.drawn.icon(look.mark === 'filled' ? 'warning-filled' : 'warning-outline', colour);
}

/** Where the alert block goes and how large: its box (`h` unused), the alerts at most, the text size. */
export interface AlertBlockOptions {
  box: Box;
  /** Alerts shown at most; the count of the others ends the last ("(+3 more)"). */
  maxLines: number;
  /** Text size, px: at least the readings' on a wall panel. */
  size: number;
  /**
   * How many of the first (most severe) alerts may take the lines they need (up to LINES_EACH); the others get one
   * line, cut after a whole word. Default: all. The layout gives them up, from the least severe, only where the
   * outfit would not be whole otherwise (layout-wide.ts).
   */
  whole?: number;
}

/** Lines an alert may take at most: its title, wrapped; longer than that, it is cut after a whole word. */
const LINES_EACH = 3;

/** The alerts as they will be drawn: each one's lines, and the block's height (0 without alerts). */
export interface AlertPlan {
  fitted: FittedText[];
  height: number;
  /** Paper between two alerts, px: two severe bands never merge into one block. */
  gap: number;
  /** One line's height, px. */
  lineH: number;
}

/** Where the text of an alert line starts, from the box's left edge: past the padding and the mark. */
const textInset = (size: number, u: number): number => 8 * u + size * 1.05 + 8 * u;

/** The alerts one after another, most severe first, each on the lines it needs; without drawing (drawAlertBlock). */
export function planAlerts(sf: Surface, c: Pick<FrameContent, 'alerts' | 'locale'>, o: AlertBlockOptions): AlertPlan {
  const u = sf.unit;
  const { size } = o;
  // Tight as a band allows: the capitals (0.73 of the size) centred, and room under the baseline for a descender's ink
  // (0.26 of the size in DejaVu's condensed faces), which is lost off an inverted band. Every line costs the outfit.
  const lineH = Math.round(size * 1.2);
  const gap = Math.max(2, Math.round(4 * u));
  const shown = c.alerts.slice(0, o.maxLines);
  const more = c.alerts.length - shown.length;
  const tail = more > 0 ? `(${fill(c.locale.labels.more_alerts, { n: more })})` : undefined;
  const width = o.box.w - 8 * u - textInset(size, u);
  const whole = o.whole ?? shown.length;
  const fitted = shown.map((a: FrameAlert, i) => {
    const font = alertLook(a.severity).font;
    const last = i === shown.length - 1 ? tail : undefined;
    if (i >= whole) return fitLine(font, a.text, width, size, size, last);
    return fitText({
      text: a.text,
      tail: last,
      font,
      width,
      height: LINES_EACH * lineH,
      maxSize: size,
      minSize: size,
      lineHeight: 1.2,
      maxLines: LINES_EACH,
    });
  });
  const lines = fitted.reduce((n, f) => n + Math.max(1, f.lines.length), 0);
  const height = shown.length === 0 ? 0 : lines * lineH + (shown.length - 1) * gap;
  return { fitted, height, gap, lineH };
}

/**
 * The alerts, most severe first, each on the lines it needs (planAlerts), cut after a whole word only where the
 * layout gave its lines up; the count of those not shown ("(+3 more)") ends the last line and stays when it is cut.
 * Between two alerts a gap of paper. Returns the height used (0 without alerts).
 */
export function drawAlertBlock(
  sf: Surface,
  c: Pick<FrameContent, 'alerts' | 'locale'>,
  o: AlertBlockOptions,
  report: LayoutReport,
): number {
  return sf.drawn.within('alerts', () => {
    const plan = planAlerts(sf, c, o);
    if (plan.fitted.length === 0) return 0;
    const u = sf.unit;
    const { box, size } = o;
    const { lineH } = plan;
    const mark = size * 1.05;
    const textX = box.x + textInset(size, u);
    let y = box.y;
    plan.fitted.forEach((fitted, i) => {
      const look = alertLook(c.alerts[i]!.severity);
      const n = Math.max(1, fitted.lines.length);
      const band = {
        x: Math.round(box.x),
        y: Math.round(y),
        w: Math.round(box.w),
        h: Math.round(y + n * lineH) - Math.round(y),
      };
      if (look.inverted) {
        sf.crisp.fillStyle = sf.theme.danger;
        sf.drawn.ink(sf.theme.danger);
        sf.crisp.fillRect(band.x, band.y, band.w, band.h);
      }
      drawAlertMark(sf, look, box.x + 8 * u, y + (lineH - mark) / 2, mark);
      // On the band, the text's ink must stay on it: paper-coloured ink beyond it is lost.
      fitted.lines.forEach((line, j) =>
        drawLine(sf, {
          font: look.font,
          size: fitted.size,
          text: line.text,
          // A right-to-left alert ends at the band's right, as the outfit's lines do (drawFitted).
          ...(line.rtl ? { x: box.x + box.w - 8 * u, align: 'right' as const } : { x: textX }),
          baseline: Math.round(y + j * lineH + Math.min(lineH / 2 + fitted.size * 0.365, lineH - fitted.size * 0.26)),
          colour: look.inverted ? sf.theme.paper : sf.theme.ink,
          report,
          room: look.inverted ? band : undefined,
        }),
      );
      report.alerts.push(fitted);
      y += n * lineH + plan.gap;
    });
    report.sizes.alert = size;
    return plan.height;
  });
}
