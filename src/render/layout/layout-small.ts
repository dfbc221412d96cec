import type { Weather } from '../../api/schemas.js';
import { drawAgeBadge, drawFitted, drawLine, newReport, rule, type LayoutReport } from './blocks.js';
import { measure } from '../text/fonts.js';
import { inkExtentEm } from '../text/ink-box.js';
import type { FrameContent } from './content.js';
import { drawHeadline, markOld } from './mark-old.js';
import { drawStatusOutline, statusOutlineWidth } from './status-box.js';
import { drawConditionIcon } from '../pictograms/icons.js';
import { chooseAlerts, drawAlerts } from './small-alerts.js';
import { drawGarments, drawOutfitBlock, outfitFits } from './outfit-block.js';
import { drawFeelsLike, drawReading, drawReadings, drawTemperature, weatherSurface } from './readings.js';
import type { Surface } from '../draw/surface.js';
import { fitLine, fitText } from '../text/text-fit.js';
import { pictogramRowPlaces, type RowFit } from '../pictograms/pictogram-row.js';
import { additionsHeight, drawAdditions } from './person-additions.js';

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
  // The frame's margin (type-scale.ts): no ink nearer the panel's edge, a rule or the old outfit's dashed frame.
  const M = sf.scale.margin;
  const leftW = Math.round(84 * u);
  if (w && !tall) {
    // The weather is as old as the outfit: framed as old too, its frame's right side in place of the rule between
    // the columns, and shared with the text column's frame.
    const inner = old ? M + thin : 0;
    leftColumn(
      sf,
      c,
      w,
      { x: Math.max(3 * u, M + inner), y: M + inner, right: leftW - M, bottom: H - M - inner },
      report,
    );
    if (old) {
      markOld(sf, { x: M, y: M, w: leftW + thin - M, h: H - 2 * M }, report, thin);
    } else {
      const columnRule = { x: leftW, y: Math.round(4 * u), w: thin, h: H - Math.round(8 * u) };
      sf.crisp.fillStyle = sf.theme.ink;
      sf.crisp.fillRect(columnRule.x, columnRule.y, columnRule.w, columnRule.h);
      sf.drawn.rule(columnRule);
    }
  }
  let x = tall ? 4 * u : w ? 84 * u + 6 * u : 6 * u;
  let tw = tall ? W - 8 * u : W - x - 4 * u;
  const calmW = tw;
  // On an error's band the status takes the whole line (what happened, and when it is tried again); the age badge
  // then heads the garment row instead.
  const badgeBelow = c.status?.error === true && c.ageBadge !== null;
  let y = headLine(sf, c, x, tw, !badgeBelow, report);
  // An old outfit is framed (dashed) below the head line, with what is as old as it: the weather (upright), the
  // alerts; all of it the frame's margin inside the frame, which keeps the margin from the panel's edges.
  const oldTop = y;
  const frameLeft = w && !tall ? leftW : M;
  if (old) {
    x = Math.max(x, frameLeft + thin + M);
    tw = Math.min(x + tw, W - M - thin - M) - x;
    y += thin + M;
  }
  if (c.headline !== null) {
    // First inside the frame, as on the wall panels: how old all of it is.
    const size = Math.max(sf.scale.outfit, 12 * u);
    y += drawHeadline(sf, c.headline, { x, y, maxW: tw, size, minSize: Math.min(size, 11) }, report) + 2 * u;
  }
  // Upright, the icon stands the margin in from the panel's edge (or inside the old outfit's frame).
  if (w && tall) {
    const readingsRight = old ? W - M - thin : x + tw;
    y = weatherStack(sf, c, w, { x, top: y, w: tw, iconX: old ? x : M, readingsRight }, report);
  }
  // An alert's band reaches a little out of the column, never into the margin.
  const bandRoom = old ? { lo: x, hi: x + tw } : { lo: w && !tall ? leftW + thin + M : M, hi: W - M };
  const badgeH = 13 * u;
  const badgeMaxW = tw / 2;
  const row = rowPlace(sf, c, {
    x,
    w: tw,
    calmW,
    badgeW: badgeBelow ? smallBadgeWidth(sf, c.ageBadge!, badgeMaxW) + 4 * u : 0,
  });
  // The outfit's lines count by their ink (outfit-fit.ts), so its box ends where the ink may: the margin above the
  // frame's edge, or above the old outfit's dashed frame. A long outfit's first sentence is set apart at half as
  // large again as the rest's smallest, as the wall scale sets it (10′ over 6′).
  const outfitBottom = old ? 2 * M + thin : M;
  const outfitOpts = { maxSize: 24 * u, lineHeight: 1.15, reasoningMax: 0, leadMin: 1.5 * sf.scale.outfitRest };
  // What the garment row and the badge take below the alerts (garmentRow: the row 1 unit down, 4 units below it).
  const rowH =
    Math.max(row.h + 5 * u, row.badgeBeside ? 15 * u : 0) + (badgeBelow && !row.badgeBeside ? badgeH + 3 * u : 0);
  const person = c.people?.[0];
  const additionsAt = { x, y, w: tw, labelSize: sf.scale.reading, iconSize: PICTOGRAM_MIN_PX };
  const additionsH = person && person.additions.length > 0 ? additionsHeight(person, additionsAt) + 3 * u : 0;
  const alertAt = { x, y, w: tw, ...bandRoom };
  const outfitWhole = (alertH: number): boolean =>
    outfitFits(
      sf,
      c,
      { x, y: 0, w: tw, h: H - y - alertH - rowH - additionsH - outfitBottom },
      { ...outfitOpts, oneSize: false },
    );
  y += drawAlerts(sf, c, alertAt, chooseAlerts(sf, c, alertAt, outfitWhole), report);
  if (badgeBelow && row.badgeBeside)
    smallBadge(sf, c.ageBadge!, { right: x + tw, y: y + 1 * u, h: badgeH, maxW: badgeMaxW }, false, report);
  y += Math.max(garmentRow(sf, c, row, y, report), row.badgeBeside ? 15 * u : 0);
  if (badgeBelow && !row.badgeBeside) {
    // On a line of its own it may take the line, so that a long language's age is not cut ("2 godz. temu").
    smallBadge(sf, c.ageBadge!, { right: x + tw, y, h: badgeH, maxW: tw }, false, report);
    y += badgeH + 3 * u;
  }
  // A one-person frame of a household: the garments the person adds at their own warmth, after "+ for <name>".
  if (person && person.additions.length > 0) {
    report.additionsDrawn = drawAdditions(sf, person, { ...additionsAt, y }, report);
    y += additionsH;
  }
  drawOutfitBlock(sf, c, { x, y, w: tw, h: H - y - outfitBottom }, outfitOpts, report);
  if (old) {
    // Lying, its left side is the weather's frame's right side.
    const frame = { x: frameLeft, y: oldTop, w: W - M - frameLeft, h: H - M - oldTop };
    markOld(sf, frame, report, thin, !(w && !tall));
  }
  return report;
}

/** The feels-like temperature's words, full and short (FrameContent's). */
const feelsText = (c: FrameContent): { full: string; short: string } => ({
  full: c.feelsLike ?? '',
  short: c.feelsLikeShort ?? c.feelsLike ?? '',
});

/** Where the weather column's content goes, px: its left edge and top, and how far right and down it may reach. */
interface ColumnRoom {
  x: number;
  y: number;
  right: number;
  bottom: number;
}

/**
 * The icon above the temperature, the feels-like temperature beneath it at the readings' size (the figure the outfit
 * is based on: the icon gave up a quarter of its height for it), then the four readings, one a row. Where the column
 * is short (its margins, an old outfit's frame), the icon gives up height first, so that the readings keep rows of 13.75
 * units: 11 px values with descenders stay 2 px apart ("48 mph" over "UV 1").
 */
function leftColumn(sf: Surface, c: FrameContent, w: Weather, room: ColumnRoom, report: LayoutReport): void {
  const u = sf.unit;
  const width = room.right - room.x;
  const icon = Math.max(20 * u, Math.min(30 * u, room.bottom - room.y - 39 * u - 4 * 13.75 * u));
  drawConditionIcon(weatherSurface(sf), c.condition ?? 'unknown', room.x + (width - icon) / 2, room.y, icon);
  report.sizes.weatherIcon = Math.round(icon);
  const tempBase = Math.round(room.y + icon + 23 * u);
  const t = drawTemperature(
    sf,
    w,
    room.x + 1 * u,
    tempBase,
    Math.max(sf.scale.temperature, 26 * u),
    width - 2 * u,
    report,
  );
  report.sizes.temperature = t.size;
  const top = room.y + icon + 39 * u;
  const rowH = (room.bottom - top) / 4;
  const size = Math.max(sf.scale.reading, Math.min(12 * u, rowH * 0.85));
  drawFeelsLike(sf, feelsText(c), room.x, Math.round(tempBase + 3 * u + size * 0.729), size, width, report);
  const mark = Math.min(rowH * 0.9, size * 1.2);
  c.readings.forEach((r, i) =>
    drawReading(sf, r, room.x, top + i * rowH + (rowH - mark) / 2, mark, size, width, report),
  );
  report.sizes.reading = Math.round(size);
}

/** The text column and what the garment row may share it with (layoutSmall's rowPlace). */
interface RowRoom {
  /** The column's left edge and width, px: inside the old outfit's frame, by the frame's margin, where it is old. */
  x: number;
  w: number;
  /** The column's width on a calm frame, px: the row shows as many garments as there. */
  calmW: number;
  /** The width of the age badge that would head the row at its right, px (0: none). */
  badgeW: number;
}

/** Where the garment row goes, whether the badge stands beside it, and how the row is fitted. */
interface RowPlace {
  x: number;
  w: number;
  /** The row's largest pictogram, px. */
  h: number;
  badgeBeside: boolean;
  fit: RowFit;
}

/**
 * Where the garment row goes: beside the badge where that costs no garment, else the badge on a line of its own
 * below; and with its gaps closed to an eighth where the old outfit's frame takes the width the calm frame's row has.
 * So the row shows as many garments as on a calm frame: the status, badge, headline and frame take their room from
 * the outfit's words (a 2.13" upright kept 2 of 6 inside the frame, 3 and "+3" with the gaps closed).
 */
function rowPlace(sf: Surface, c: FrameContent, r: RowRoom): RowPlace {
  const h = Math.max(PICTOGRAM_MIN_PX, 28 * sf.unit);
  const places = (o: Pick<RowPlace, 'w' | 'h' | 'fit'>): number =>
    pictogramRowPlaces(c.row, { x: 0, y: 0, w: o.w, h: o.h }, PICTOGRAM_MIN_PX, o.fit);
  const calm = places({ w: r.calmW, h, fit: {} });
  // Closed gaps: pictogram-row.ts closes a row's gaps before its pictograms shrink below the row's largest size, so
  // that size is at least a pixel above the smallest.
  const closed = { h: Math.max(h, PICTOGRAM_MIN_PX + 1), fit: { heroUpTo: c.row.length } };
  const options: RowPlace[] = [
    { x: r.x, w: r.w - r.badgeW, h, badgeBeside: true, fit: {} },
    { x: r.x, w: r.w - r.badgeW, badgeBeside: true, ...closed },
    { x: r.x, w: r.w, h, badgeBeside: false, fit: {} },
  ];
  return options.find((o) => places(o) >= calm) ?? { x: r.x, w: r.w, badgeBeside: false, ...closed };
}

/** The garment row at y; returns the height used with the space below it. */
function garmentRow(sf: Surface, c: FrameContent, row: RowPlace, y: number, report: LayoutReport): number {
  return sf.drawn.within('pictograms', () => {
    const u = sf.unit;
    const box = { x: row.x, y: y + 1 * u, w: row.w, h: row.h };
    const h = drawGarments(sf, c, box, PICTOGRAM_MIN_PX, report, row.fit);
    return h ? h + 4 * u : 0;
  });
}

/**
 * The top line: the status in an outlined band, else the name; at the right the outfit's time, or the badge of its
 * age when it is out of date (never hidden by the status). Returns the y below it: the frame's margin below its rule
 * or its band.
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
    const M = sf.scale.margin;
    const thin = Math.max(1, Math.round(u));
    const st = c.status?.error ? c.status : null;
    const fore = st ? sf.theme.status : sf.theme.ink;
    const timeW = c.updated && c.ageBadge === null ? measure('condensed', 12 * u, c.updated) : 0;
    // On paper, the name's and the badge's ink the frame's margin below the top edge, the rule the margin below it
    // (an em of ink for the name: ascenders 0.76, descenders 0.24).
    const paperBadge = !st && withBadge && c.ageBadge !== null ? smallBadgeText(sf, c.ageBadge, tw) : null;
    const [hi, lo] = paperBadge ? (inkExtentEm('condensed-bold', paperBadge.shown) ?? [0.73, 0]) : [0, 0];
    // The badge's outline (status-box.ts) around the ink and a pixel's gap: drawAgeBadge grows it no further.
    const inkH = Math.max(
      12 * u,
      paperBadge ? Math.ceil((hi - lo) * paperBadge.size) + 2 + 2 * statusOutlineWidth(sf) : 0,
    );
    const base = st ? 12 * u : M + (inkH - 12 * u) / 2 + 0.76 * 12 * u;
    const ruleY = Math.ceil(M + inkH + M);
    const lineH = st ? 17 * u : ruleY + thin;
    // The outline's left side the frame's margin from the edge at least; the words as far in as it had to move.
    const inset = st ? Math.max(0, M - (x - 2 * u)) : 0;
    // The status in a few words and what happens next; on a narrow panel on two lines rather than cut.
    const status = st
      ? fitText({
          text: st.short,
          font: 'condensed',
          width: tw - (timeW ? timeW + 6 * u : 0) - 2 * u - inset,
          height: 2 * 12 * u * 1.2 + 2,
          maxSize: 12 * u,
          minSize: Math.max(11, 11 * u),
          lineHeight: 1.2,
        })
      : null;
    const headH = status !== null && status.lines.length > 1 ? lineH + Math.round(status.pitch) : lineH;
    // The status outlined (status-box.ts), the frame's margin inside the panel's edges, everything on it moved down
    // by as much; its lower edge below the words' descenders: their ink keeps inside it.
    const o = st ? Math.max(0, M - 1 * u) : 0;
    const bandX = x - 2 * u + inset;
    const band = st
      ? drawStatusOutline(sf, { x: bandX, y: M, w: Math.min(x + tw + 2 * u, sf.width - M) - bandX, h: headH - 1 * u })
      : undefined;
    let rightW = 0;
    if (c.ageBadge !== null && withBadge) {
      const at = st ? { y: 2 * u + o, h: lineH - 4 * u } : { y: M, h: inkH };
      rightW = smallBadge(sf, c.ageBadge, { right: x + tw, ...at, maxW: tw }, st !== null, report);
    } else if (timeW) {
      rightW = drawLine(sf, {
        font: 'condensed',
        size: 12 * u,
        text: c.updated!,
        x: x + tw,
        baseline: base + o,
        colour: fore,
        align: 'right',
        report,
        room: band,
      });
    }
    const avail = tw - rightW - (rightW ? 6 * u : 0);
    if (status !== null) {
      drawFitted(
        sf,
        status,
        x + 1 * u + inset,
        1 * u + o + Math.max(0, (lineH - 2 * u - status.pitch) / 2),
        fore,
        report,
        band,
      );
      // Below the outline (M to M + headH − 1 unit), the frame's margin.
      return Math.round(M + headH - 1 * u) + M;
    }
    const name = fitLine('condensed-bold', c.name, avail, 12 * u, Math.max(10, 9 * u));
    if (name.lines[0])
      drawLine(sf, {
        font: 'condensed-bold',
        size: name.size,
        text: name.lines[0].text,
        x,
        baseline: base,
        colour: fore,
        report,
      });
    rule(sf, x, ruleY, tw, thin);
    return ruleY + thin + M;
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

/** Where the upright weather goes: its column (`x`, `w`) from `top`, the icon's left edge, the readings' right edge. */
interface StackPlace {
  x: number;
  top: number;
  w: number;
  iconX: number;
  readingsRight: number;
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
  const tempW = Math.min(sf.width - 6 * u, x + tw) - at.iconX - icon;
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
  // Out to `readingsRight`: the grid ends each column with a pair's gap (readings.ts, 8 px at least), which keeps its
  // ink clear of an old outfit's frame, and the values need the width ("14 km/h" at 9 px on a 2.13" upright).
  const readings = { x, y, w: Math.max(tw, at.readingsRight - x), h: 34 * u };
  report.sizes.reading = drawReadings(sf, c.readings, readings, 2, size, report);
  y += 36 * u;
  const thin = Math.max(1, Math.round(u));
  rule(sf, x, y, tw, thin);
  return y + thin + sf.scale.margin;
}
