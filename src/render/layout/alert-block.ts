import type { AlertSeverity } from '../../domain/alert-severity.js';
import { fill } from '../../i18n/labels.js';
import { drawLine, type Box, type LayoutReport } from './blocks.js';
import type { FrameContent } from './content.js';
import type { FrameAlert } from './format.js';
import { warningTriangle, warningTriangleOutline } from '../pictograms/marks.js';
import type { Surface } from '../draw/surface.js';
import type { FontId } from '../text/fonts.js';
import { fitLine, type FittedText } from '../text/text-fit.js';

/**
 * Weather alerts, each marked by how severe it is (alert-severity.ts), most severe first: an extreme or severe one
 * inverted, on a band of the alert colour with a filled warning mark and bold text, as a warning asks for action; a
 * moderate one, or one of unknown severity, on paper with a filled mark and bold text; a minor one (an advisory) on
 * paper, an outlined mark and regular text. The wall panels give each alert its own line at the readings' size.
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

/** Where the alert block goes and how large: its box (`h` unused), the lines at most, the text size. */
export interface AlertBlockOptions {
  box: Box;
  maxLines: number;
  /** Text size, px: at least the readings' on a wall panel. */
  size: number;
}

/**
 * The alerts one a line, most severe first, each cut after a whole word where it is too long (one line an alert:
 * the title says what it is); the count of those not shown ("(+3 more)") ends the last line and stays when it is
 * cut. Returns the height used (0 without alerts).
 */
export function drawAlertBlock(
  sf: Surface,
  c: Pick<FrameContent, 'alerts' | 'locale'>,
  o: AlertBlockOptions,
  report: LayoutReport,
): number {
  return sf.drawn.within('alerts', () => {
    const alerts = c.alerts;
    if (alerts.length === 0) return 0;
    const u = sf.unit;
    const { box, size } = o;
    const pad = 8 * u;
    // Tight as a band allows: the capitals (0.73 of the size) centred, and room under the baseline for a descender's ink
    // (0.26 of the size in DejaVu's condensed faces), which is lost off an inverted band. Every line costs the outfit.
    const lineH = Math.round(size * 1.2);
    const mark = size * 1.05;
    const textX = box.x + pad + mark + pad;
    const shown = alerts.slice(0, o.maxLines);
    const more = alerts.length - shown.length;
    const tail = more > 0 ? `(${fill(c.locale.labels.more_alerts, { n: more })})` : undefined;
    let y = box.y;
    shown.forEach((a: FrameAlert, i) => {
      const look = alertLook(a.severity);
      const fitted: FittedText = fitLine(
        look.font,
        a.text,
        box.x + box.w - pad - textX,
        size,
        size,
        i === shown.length - 1 ? tail : undefined,
      );
      const band = {
        x: Math.round(box.x),
        y: Math.round(y),
        w: Math.round(box.w),
        h: Math.round(y + lineH) - Math.round(y),
      };
      if (look.inverted) {
        sf.crisp.fillStyle = sf.theme.danger;
        sf.drawn.ink(sf.theme.danger);
        sf.crisp.fillRect(band.x, band.y, band.w, band.h);
      }
      drawAlertMark(sf, look, box.x + pad, y + (lineH - mark) / 2, mark);
      const line = fitted.lines[0];
      // On the band, the text's ink must stay on it: paper-coloured ink beyond it is lost.
      if (line)
        drawLine(sf, {
          font: look.font,
          size: fitted.size,
          text: line.text,
          // A right-to-left alert ends at the band's right, as the outfit's lines do (drawFitted).
          ...(line.rtl ? { x: box.x + box.w - pad, align: 'right' as const } : { x: textX }),
          baseline: Math.round(y + Math.min(lineH / 2 + fitted.size * 0.365, lineH - fitted.size * 0.26)),
          colour: look.inverted ? sf.theme.paper : sf.theme.ink,
          report,
          room: look.inverted ? band : undefined,
        });
      report.alerts.push(fitted);
      y += lineH;
    });
    report.sizes.alert = size;
    return y - box.y;
  });
}
