import { alertLook, drawAlertMark } from './alert-block.js';
import { drawLine, type LayoutReport } from './blocks.js';
import type { FrameContent } from './content.js';
import type { Surface } from '../draw/surface.js';
import { fitLine, fitText, type FittedText } from '../text/text-fit.js';

/**
 * The small panels' alerts (layoutSmall), most severe first, each marked by its severity (alert-block.ts): an extreme
 * or severe one on an inverted band, a lesser one on paper. Where the outfit stays whole below them, as many alerts as
 * it allows get the lines they need (up to LINES_EACH), the count of the others ending the last ("+2"); the reasoning
 * gives up its room first, as it is set only where the outfit leaves some (outfit-block.ts). Else the first alert
 * alone on one line (upright, two), with the count of the others.
 */

/** Where the alerts go: their column (`x`, `w`) at `y`, and how far a band may reach out of it (`lo` to `hi`). */
export interface AlertPlace {
  x: number;
  y: number;
  w: number;
  lo: number;
  hi: number;
}

/** The alerts as they will be drawn: each one's lines, and the height they take with the space below them. */
export interface SmallAlertPlan {
  fitted: FittedText[];
  height: number;
}

/** Lines an alert may take at most; longer, it is cut after a whole word. */
const LINES_EACH = 3;
/** Line pitch of an alert's lines, as a multiple of the size. */
const PITCH = 1.15;

// Regular whatever the severity: bold would cut "Severe storm warning" across a 2.13"; the band and the mark say it.
const FONT = 'condensed';

/** The column's text width, px: the words start past the mark and keep 2 units inside a band. */
function textWidth(sf: Surface, at: AlertPlace, inverted: boolean): number {
  const u = sf.unit;
  const bandX = Math.max(at.x - 2 * u, at.lo);
  const bandRight = Math.min(at.x + at.w + 2 * u, at.hi);
  const x = inverted ? bandX + 2 * u : at.x;
  return (inverted ? bandRight - 2 * u - x : at.w) - 15 * u - 1 * u;
}

/** One alert's band height for `n` lines, px: a line's band, and a line's pitch for each more. */
const bandHeight = (sf: Surface, f: FittedText): number => 15 * sf.unit + (Math.max(1, f.lines.length) - 1) * f.pitch;

const planOf = (sf: Surface, fitted: FittedText[]): SmallAlertPlan => ({
  fitted,
  height: fitted.reduce((h, f) => h + bandHeight(sf, f) + 2 * sf.unit, 0),
});

/** The first `count` alerts, each on the lines it needs (up to LINES_EACH), the count of the others after the last. */
export function planAlerts(sf: Surface, c: FrameContent, at: AlertPlace, count: number): SmallAlertPlan {
  const u = sf.unit;
  const size = 12 * u;
  const shown = c.alerts.slice(0, count);
  const more = c.alerts.length - shown.length;
  const fitted = shown.map((a, i) =>
    fitText({
      text: a.text,
      tail: i === shown.length - 1 && more > 0 ? `+${more}` : undefined,
      font: FONT,
      width: textWidth(sf, at, alertLook(a.severity).inverted),
      height: LINES_EACH * Math.round(size * PITCH),
      maxSize: size,
      minSize: size,
      lineHeight: PITCH,
      maxLines: LINES_EACH,
    }),
  );
  return planOf(sf, fitted);
}

/** The first alert alone on a line, shrunk to 11 px and cut if need be (upright, on two lines rather than cut). */
export function planAlertLine(sf: Surface, c: FrameContent, at: AlertPlace): SmallAlertPlan {
  const first = c.alerts[0];
  if (first === undefined) return { fitted: [], height: 0 };
  const u = sf.unit;
  const width = textWidth(sf, at, alertLook(first.severity).inverted);
  // The count stays when the first alert is cut.
  const more = c.alerts.length > 1 ? `+${c.alerts.length - 1}` : undefined;
  const min = Math.max(11, 11 * u);
  const line = fitLine(FONT, first.text, width, 12 * u, min, more);
  // Upright, a title that does not fit one line gets two: the frame has the height, and "Severe storm warning" says
  // what "Severe storm…" does not.
  const two =
    line.truncated && sf.height > sf.width
      ? fitText({
          text: first.text,
          tail: more,
          font: FONT,
          width,
          height: 2 * Math.round(min * PITCH),
          maxSize: min,
          minSize: min,
          lineHeight: PITCH,
        })
      : null;
  return planOf(sf, [two !== null && two.lines.length === 2 && !two.truncated ? two : line]);
}

/**
 * The plan for the alerts: the most alerts, each on its lines, with which `fits` says the outfit keeps its room
 * (given their height), else the first alone on its line.
 */
export function chooseAlerts(
  sf: Surface,
  c: FrameContent,
  at: AlertPlace,
  fits: (height: number) => boolean,
): SmallAlertPlan {
  for (let k = c.alerts.length; k >= 1; k--) {
    const plan = planAlerts(sf, c, at, k);
    if (fits(plan.height)) return plan;
  }
  return planAlertLine(sf, c, at);
}

/**
 * The alerts as planned, one band each (two bands apart by 2 units of paper). A line's ink is centred in its band
 * (ascenders 0.76 of the size, descenders 0.26), rounded up: a descender keeps the band's edge below it ("warning").
 * Returns the height used, 0 without alerts.
 */
export function drawAlerts(
  sf: Surface,
  c: FrameContent,
  at: AlertPlace,
  plan: SmallAlertPlan,
  report: LayoutReport,
): number {
  return sf.drawn.within('alerts', () => {
    const u = sf.unit;
    let y = at.y;
    plan.fitted.forEach((fitted, i) => {
      const look = alertLook(c.alerts[i]!.severity);
      // The band reaches 2 units out of the column where its room allows; its mark and words stay 2 units inside it.
      const bandX = Math.max(at.x - 2 * u, at.lo);
      const bandRight = Math.min(at.x + at.w + 2 * u, at.hi);
      const x = look.inverted ? bandX + 2 * u : at.x;
      const h = bandHeight(sf, fitted);
      const fore = look.inverted ? sf.theme.paper : sf.theme.ink;
      const band = look.inverted ? { x: bandX, y, w: bandRight - bandX, h } : undefined;
      if (band) {
        sf.crisp.fillStyle = sf.theme.danger;
        sf.drawn.ink(sf.theme.danger);
        sf.crisp.fillRect(band.x, band.y, band.w, band.h);
      }
      drawAlertMark(sf, look, x, y + 1.5 * u, 12 * u);
      const first = Math.floor(y + 7.5 * u + 0.25 * fitted.size);
      fitted.lines.forEach((line, j) =>
        drawLine(sf, {
          font: FONT,
          size: fitted.size,
          text: line.text,
          x: x + 15 * u,
          baseline: first + Math.round(j * fitted.pitch),
          colour: fore,
          report,
          room: band,
        }),
      );
      report.alerts.push(fitted);
      report.sizes.alert = fitted.size;
      y += h + 2 * u;
    });
    return plan.height;
  });
}
