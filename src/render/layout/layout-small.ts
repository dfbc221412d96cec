import type { Weather } from '../../api/schemas.js';
import { drawAgeBadge, drawFitted, drawLine, newReport, rule, type LayoutReport } from './blocks.js';
import { measure } from '../text/fonts.js';
import type { FrameContent } from './content.js';
import { drawHeadline, markOld } from './mark-old.js';
import { drawStatusOutline } from './status-box.js';
import { drawConditionIcon } from '../pictograms/icons.js';
import { alertLook, drawAlertMark } from './alert-block.js';
import { drawGarments, drawOutfitBlock } from './outfit-block.js';
import { drawFeelsLike, drawReading, drawReadings, drawTemperature, weatherSurface } from './readings.js';
import type { Surface } from '../draw/surface.js';
import { fitLine, fitText } from '../text/text-fit.js';
import { pictogramRowPlaces } from '../pictograms/pictogram-row.js';

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
  const old = c.old;
  const thin = Math.max(1, Math.round(u));
  if (w && !tall) {
    const leftW = 84 * u;
    leftColumn(sf, c, w, leftW, report);
    if (old) {
      // The weather is as old as the outfit: framed as old too, its frame in place of the rule between the columns.
      markOld(sf, { x: 0, y: 0, w: leftW - 1 * u, h: H }, report, thin);
    } else {
      sf.crisp.fillStyle = sf.theme.ink;
      sf.crisp.fillRect(Math.round(leftW), 4 * u, thin, H - 8 * u);
    }
  }
  const x = tall ? 4 * u : w ? 84 * u + 6 * u : 6 * u;
  const tw = tall ? W - 8 * u : W - x - 4 * u;
  // On an error's band the status takes the whole line (what happened, and when it is tried again); the age badge
  // then heads the garment row instead.
  const badgeBelow = c.status?.error === true && c.ageBadge !== null;
  let y = headLine(sf, c, x, tw, !badgeBelow, report);
  // An old outfit is framed (dashed) inside the text column, with what is as old as it: the weather (upright), the alerts.
  const inset = old ? 3 * u : 0;
  const oldTop = y;
  y += inset;
  if (c.headline !== null) {
    // First inside the frame, as on the wall panels: how old all of it is.
    const size = Math.max(sf.scale.outfit, 12 * u);
    y +=
      drawHeadline(
        sf,
        c.headline,
        { x: x + inset, y, maxW: tw - 2 * inset, size, minSize: Math.min(size, 11) },
        report,
      ) +
      2 * u;
  }
  // Upright, the readings keep the column's width (their size is what is short there); only the icon moves in.
  if (w && tall) y = weatherStack(sf, c, w, { x, top: y, w: tw, iconX: old ? x : 0 }, report);
  y += alertLine(sf, c, x + inset, y, tw - 2 * inset, report);
  const bottom = (tall ? 2 : 1) * u;
  const badgeH = 13 * u;
  const badgeMaxW = (tw - 2 * inset) / 2;
  const row = rowPlace(sf, c, {
    x,
    w: tw,
    inset,
    badgeW: badgeBelow ? smallBadgeWidth(sf, c.ageBadge!, badgeMaxW) + 4 * u : 0,
  });
  if (badgeBelow && row.badgeBeside)
    smallBadge(sf, c.ageBadge!, { right: x + tw - inset, y: y + 1 * u, h: badgeH, maxW: badgeMaxW }, false, report);
  y += Math.max(garmentRow(sf, c, row.x, y, row.w, report), row.badgeBeside ? 15 * u : 0);
  if (badgeBelow && !row.badgeBeside) {
    // On a line of its own it may take the line, so that a long language's age is not cut ("2 godz. temu").
    smallBadge(sf, c.ageBadge!, { right: x + tw - inset, y, h: badgeH, maxW: tw - 2 * inset }, false, report);
    y += badgeH + 3 * u;
  }
  // The outfit's lines count by their ink (outfit-fit.ts), so its box ends where the ink may: a pixel above the
  // frame's edge, or the old outfit's inset above its dashed frame. A long outfit's first sentence is set apart at
  // half as large again as the rest's smallest, as the wall scale sets it (10′ over 6′).
  const outfitBottom = old ? bottom + inset : Math.max(1, Math.round(u));
  const outfitOpts = { maxSize: 24 * u, lineHeight: 1.15, reasoningMax: 0, leadMin: 1.5 * sf.scale.outfitRest };
  drawOutfitBlock(sf, c, { x: x + inset, y, w: tw - 2 * inset, h: H - y - outfitBottom }, outfitOpts, report);
  if (old)
    markOld(sf, { x: x - 2 * u, y: oldTop + 1 * u, w: tw + 4 * u, h: H - oldTop - 1 * u - bottom }, report, thin);
  return report;
}

/** The feels-like temperature's words, full and short (FrameContent's). */
const feelsText = (c: FrameContent): { full: string; short: string } => ({
  full: c.feelsLike ?? '',
  short: c.feelsLikeShort ?? c.feelsLike ?? '',
});

/**
 * The icon above the temperature, the feels-like temperature beneath it at the readings' size (the figure the outfit
 * is based on: the icon gave up a quarter of its height for it), then the four readings, one a row.
 */
function leftColumn(sf: Surface, c: FrameContent, w: Weather, leftW: number, report: LayoutReport): void {
  const u = sf.unit;
  const icon = 30 * u;
  drawConditionIcon(weatherSurface(sf), c.condition ?? 'unknown', (leftW - icon) / 2, 1 * u, icon);
  report.sizes.weatherIcon = Math.round(icon);
  const tempBase = Math.round(icon + 25 * u);
  const t = drawTemperature(sf, w, 4 * u, tempBase, Math.max(sf.scale.temperature, 26 * u), leftW - 8 * u, report);
  report.sizes.temperature = t.size;
  const top = icon + 42 * u;
  const rowH = (sf.height - top - 1 * u) / 4;
  const size = Math.max(sf.scale.reading, Math.min(12 * u, rowH * 0.85));
  drawFeelsLike(sf, feelsText(c), 3 * u, Math.round(tempBase + 3 * u + size * 0.729), size, leftW - 6 * u, report);
  const mark = Math.min(rowH * 0.9, size * 1.2);
  c.readings.forEach((r, i) =>
    drawReading(sf, r, 3 * u, top + i * rowH + (rowH - mark) / 2, mark, size, leftW - 6 * u, report),
  );
  report.sizes.reading = Math.round(size);
}

/** The text column and what the garment row may share it with (layoutSmall's rowPlace). */
interface RowRoom {
  /** The column's left edge and width, px. */
  x: number;
  w: number;
  /** The old outfit's inset inside its dashed frame, px (0: not old). */
  inset: number;
  /** The width of the age badge that would head the row at its right, px (0: none). */
  badgeW: number;
}

/**
 * Where the garment row goes: inset inside the old outfit's frame and beside the badge where that costs no garment;
 * else out to the column's edges (the dashed frame lies outside them) and the badge on a line of its own below, so
 * that the row shows as many garments as on a calm frame: the status, badge and headline take their room from the
 * outfit's words (a 2.13" upright kept 2 of 6 inside the frame, 3 and "+3" without it).
 */
function rowPlace(sf: Surface, c: FrameContent, r: RowRoom): { x: number; w: number; badgeBeside: boolean } {
  const h = Math.max(PICTOGRAM_MIN_PX, 28 * sf.unit);
  const places = (w: number): number => pictogramRowPlaces(c.row, { x: 0, y: 0, w, h }, PICTOGRAM_MIN_PX);
  const calm = places(r.w);
  const options = [
    { x: r.x + r.inset, w: r.w - 2 * r.inset - r.badgeW, badgeBeside: true },
    { x: r.x, w: r.w - r.badgeW, badgeBeside: true },
    { x: r.x + r.inset, w: r.w - 2 * r.inset, badgeBeside: false },
  ];
  return options.find((o) => places(o.w) >= calm) ?? { x: r.x, w: r.w, badgeBeside: false };
}

/** The garment row at y; returns the height used with the space below it. */
function garmentRow(sf: Surface, c: FrameContent, x: number, y: number, tw: number, report: LayoutReport): number {
  return sf.drawn.within('pictograms', () => {
    const u = sf.unit;
    const h = drawGarments(
      sf,
      c,
      { x, y: y + 1 * u, w: tw, h: Math.max(PICTOGRAM_MIN_PX, 28 * u) },
      PICTOGRAM_MIN_PX,
      report,
    );
    return h ? h + 4 * u : 0;
  });
}

/**
 * The top line: the status in an outlined band, else the name; at the right the outfit's time, or the badge of its
 * age when it is out of date (never hidden by the status). Returns its height.
 */
function headLine(
  sf: Surface,
  c: FrameContent,
  x: number,
  tw: number,
  withBadge: boolean,
  report: LayoutReport,
): number {
  return sf.drawn.within(c.status?.error ? 'status' : 'top_band', () => {
    const u = sf.unit;
    const lineH = 17 * u;
    const st = c.status?.error ? c.status : null;
    const fore = st ? sf.theme.status : sf.theme.ink;
    const timeW = c.updated && c.ageBadge === null ? measure('condensed', 12 * u, c.updated) : 0;
    // The status in a few words and what happens next; on a narrow panel on two lines rather than cut.
    const status = st
      ? fitText({
          text: st.short,
          font: 'condensed',
          width: tw - (timeW ? timeW + 6 * u : 0) - 2 * u,
          height: 2 * 12 * u * 1.2 + 2,
          maxSize: 12 * u,
          minSize: Math.max(11, 11 * u),
          lineHeight: 1.2,
        })
      : null;
    const headH = status !== null && status.lines.length > 1 ? lineH + Math.round(status.pitch) : lineH;
    // The status outlined (status-box.ts), its lower edge below the words' descenders: their ink keeps inside it.
    const band = st ? drawStatusOutline(sf, { x: x - 2 * u, y: 1 * u, w: tw + 4 * u, h: headH - 1 * u }) : undefined;
    let rightW = 0;
    if (c.ageBadge !== null && withBadge) {
      rightW = smallBadge(sf, c.ageBadge, { right: x + tw, y: 2 * u, h: lineH - 4 * u, maxW: tw }, st !== null, report);
    } else if (timeW) {
      rightW = drawLine(sf, {
        font: 'condensed',
        size: 12 * u,
        text: c.updated!,
        x: x + tw,
        baseline: 12 * u,
        colour: fore,
        align: 'right',
        report,
        room: band,
      });
    }
    const avail = tw - rightW - (rightW ? 6 * u : 0);
    if (status !== null) {
      drawFitted(sf, status, x + 1 * u, 1 * u + Math.max(0, (lineH - 2 * u - status.pitch) / 2), fore, report, band);
    } else {
      const name = fitLine('condensed-bold', c.name, avail, 12 * u, Math.max(10, 9 * u));
      if (name.lines[0])
        drawLine(sf, {
          font: 'condensed-bold',
          size: name.size,
          text: name.lines[0].text,
          x,
          baseline: 12 * u,
          colour: fore,
          report,
        });
      rule(sf, x, headH - 2 * u, tw, Math.max(1, u));
    }
    return headH + 1 * u;
  });
}

/** Where a small badge goes: ending at `right`, `h` px high, at most `maxW` px wide. */
interface SmallBadgePlace {
  right: number;
  y: number;
  h: number;
  maxW: number;
}

/**
 * The small panels' age badge: text at the outfit's size, at least 12 units, down to 11 px where the text is wider
 * than `maxW` (a long language's "3 h old"), cut only where even that does not hold it. Returns its width.
 */
function smallBadge(sf: Surface, text: string, at: SmallBadgePlace, onError: boolean, report: LayoutReport): number {
  return sf.drawn.within('status', () => {
    const b = smallBadgeText(sf, text, at.maxW);
    return drawAgeBadge(
      sf,
      { text: b.shown, xRight: at.right, y: at.y, h: at.h, size: b.size, w: b.w, onError },
      report,
    ).w;
  });
}

/** The small badge's text as shown, its size and the badge's width, px, at most `maxW` wide. */
function smallBadgeText(sf: Surface, text: string, maxW: number): { shown: string; size: number; w: number } {
  const pad = 6 * sf.unit;
  const max = Math.max(sf.scale.outfit, 12 * sf.unit);
  const fitted = fitLine('condensed-bold', text, maxW - pad, max, Math.min(max, 11));
  const shown = fitted.lines[0]?.text ?? text;
  return { shown, size: fitted.size, w: measure('condensed-bold', fitted.size, shown) + pad };
}

const smallBadgeWidth = (sf: Surface, text: string, maxW: number): number => smallBadgeText(sf, text, maxW).w;

/**
 * The first alert, the most severe (and how many more), marked by its severity (alert-block.ts): an extreme or severe
 * one on an inverted band, a lesser one on paper. Returns its height, 0 without alerts.
 */
function alertLine(sf: Surface, c: FrameContent, x: number, y: number, tw: number, report: LayoutReport): number {
  return sf.drawn.within('alerts', () => {
    const first = c.alerts[0];
    if (first === undefined) return 0;
    const u = sf.unit;
    const look = alertLook(first.severity);
    // Regular whatever the severity: bold would cut "Severe storm warning" across a 2.13"; the band and the mark say it.
    const font = 'condensed';
    // The count stays when the first alert is cut.
    const more = c.alerts.length > 1 ? `+${c.alerts.length - 1}` : undefined;
    const min = Math.max(11, 11 * u);
    const line = fitLine(font, first.text, tw - 16 * u, 12 * u, min, more);
    // Upright, a title that does not fit one line gets two: the frame has the height, and "Severe storm warning" says
    // what "Severe storm…" does not.
    const two =
      line.truncated && sf.height > sf.width
        ? fitText({
            text: first.text,
            tail: more,
            font,
            width: tw - 16 * u,
            height: 2 * Math.round(min * 1.15),
            maxSize: min,
            minSize: min,
            lineHeight: 1.15,
          })
        : null;
    const fitted = two !== null && two.lines.length === 2 && !two.truncated ? two : line;
    const ah = 15 * u + (fitted === line ? 0 : fitted.pitch);
    const fore = look.inverted ? sf.theme.paper : sf.theme.ink;
    const band = look.inverted ? { x: x - 2 * u, y, w: tw + 4 * u, h: ah } : undefined;
    if (band) {
      sf.crisp.fillStyle = sf.theme.danger;
      sf.drawn.ink(sf.theme.danger);
      sf.crisp.fillRect(band.x, band.y, band.w, band.h);
    }
    drawAlertMark(sf, look, x, y + 1.5 * u, 12 * u);
    if (fitted === line) {
      if (line.lines[0])
        drawLine(sf, {
          font,
          size: line.size,
          text: line.lines[0].text,
          x: x + 15 * u,
          baseline: y + 12 * u,
          colour: fore,
          report,
          room: band,
        });
    } else {
      drawFitted(sf, fitted, x + 15 * u, y + 1 * u, fore, report, band);
    }
    report.alerts.push(fitted);
    report.sizes.alert = fitted.size;
    return ah + 2 * u;
  });
}

/** Where the upright weather goes: its column (`x`, `w`) from `top`, and the icon's left edge. */
interface StackPlace {
  x: number;
  top: number;
  w: number;
  iconX: number;
}

/** Upright: icon and temperature side by side, the readings in two columns below, and a rule. Returns the y below. */
function weatherStack(sf: Surface, c: FrameContent, w: Weather, at: StackPlace, report: LayoutReport): number {
  const u = sf.unit;
  const icon = 44 * u;
  const { x, w: tw } = at;
  let y = at.top;
  drawConditionIcon(weatherSurface(sf), c.condition ?? 'unknown', at.iconX, y, icon);
  report.sizes.weatherIcon = Math.round(icon);
  const tempX = at.iconX + icon + 2 * u;
  const tempW = Math.min(sf.width - 6 * u, x + tw + 2 * u) - at.iconX - icon;
  const t = drawTemperature(
    sf,
    w,
    tempX,
    Math.round(y + 29 * u),
    Math.max(sf.scale.temperature, 28 * u),
    tempW,
    report,
  );
  report.sizes.temperature = t.size;
  const size = Math.max(sf.scale.reading, 12 * u);
  // Beneath the temperature, beside the icon: the figure the outfit is based on, at the readings' size.
  drawFeelsLike(sf, feelsText(c), tempX, Math.round(y + 29 * u + 4 * u + size * 0.729), size, x + tw - tempX, report);
  y += icon + 2 * u;
  report.sizes.reading = drawReadings(sf, c.readings, { x, y, w: tw, h: 34 * u }, 2, size, report);
  y += 36 * u;
  rule(sf, x, y, tw, Math.max(1, u));
  return y + 3 * u;
}
