import { fill } from '../../i18n/labels.js';
import { baseDirection, hasRightToLeft } from '../text/bidi.js';
import type { FrameContent, StatusText } from './content.js';
import type { UnshownScript } from './unshown-text.js';
import type { PersonReport } from './person-report.js';
import { drawText, measure, measureEm, type FontId } from '../text/fonts.js';
import { inkExtentEm, recordInk, type DrawnLine, type InkBox } from '../text/ink-box.js';
import { lineRoom, type TextBox } from '../draw/text-box.js';
import { statusMark } from '../pictograms/marks.js';
import { drawStatusOutline, statusOutlineWidth } from './status-box.js';
import type { Box } from '../draw/box.js';
import type { Surface } from '../draw/surface.js';
import { BASELINE_EM, ELLIPSIS, fitLine, type FittedText } from '../text/text-fit.js';

/** Pieces every layout uses: fitted text, the header or status band, the alert band, the weather details. */

export type { Box } from '../draw/box.js';

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
  /** The feels-like temperature, the figure the outfit is based on. */
  feelsLike: number | null;
  /** The alerts' text (the first, most severe one's). */
  alert: number | null;
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
  /** Garments the row left off for want of room, counted on the frame as "+N" (0: none). */
  pictogramsMore: number;
  /** The squares the pictogram row fills, px (its pictograms and "+N"); null: no row. */
  pictogramRow: Box | null;
  /** The room the row was centred in, px: the frame less its margins, or less a headline set beside the garments. */
  pictogramRoom: Box | null;
  sizes: LayoutSizes;
  texts: string[];
  /** Every block of lines drawn whole (drawFitted), as it was fitted: its lines, face and size, for the break checks. */
  blocks: FittedText[];
  /** Ink boxes of the texts drawn, by item (ink-box.ts), for the layout checks. */
  inks: InkBox[];
  /** Every text drawn and the room it had (text-box.ts), for the check that none is clipped. */
  textBoxes: TextBox[];
  /** Code points drawn as a missing-glyph box (no bundled font has them), each once; frame.ts fills it. */
  missingGlyphs: number[];
  /** Scripts no font has, whose texts were said in words instead (unshown-text.ts); frame.ts fills it. */
  missingScripts: UnshownScript[];
  /** The age badge of an outfit out of date: its text, text size and height, px; null when none is drawn. */
  badge: { text: string; size: number; height: number } | null;
  /** The headline of an outfit of an earlier day ("Yesterday's outfit"): its lines and text size, px; null when none. */
  headline: { lines: string[]; size: number } | null;
  /** The outfit block is marked as old (a dashed frame around it). */
  markedOld: boolean;
  /** The boxes framed as old (dashed), px: what is inside them is as old as the outfit. */
  oldMarks: Box[];
  /** The people drawn (a household frame's, or a one-person frame's one); empty: a frame of the display's outfit. */
  people: PersonReport[];
  /** A one-person frame's additions as drawn after "+ for <name>" (their pictograms); empty: none drawn. */
  additionsDrawn: string[];
}

export function newReport(layout: LayoutReport['layout']): LayoutReport {
  const sizes: LayoutSizes = {
    outfit: null,
    outfitRest: null,
    reasoning: null,
    temperature: null,
    reading: null,
    pictogram: null,
    weatherIcon: null,
    feelsLike: null,
    alert: null,
  };
  return {
    layout,
    outfit: null,
    outfitRest: null,
    reasoning: null,
    alerts: [],
    pictograms: [],
    pictogramsMore: 0,
    pictogramRow: null,
    pictogramRoom: null,
    sizes,
    texts: [],
    blocks: [],
    inks: [],
    textBoxes: [],
    missingGlyphs: [],
    missingScripts: [],
    badge: null,
    headline: null,
    markedOld: false,
    oldMarks: [],
    people: [],
    additionsDrawn: [],
  };
}

/** Baseline of the first line of a block whose top is `top`. */
export function firstBaseline(top: number, fitted: FittedText): number {
  return top + Math.round((fitted.pitch - fitted.size) / 2 + fitted.size * BASELINE_EM);
}

/**
 * Draws a fitted block with its top at `top`, `x` the left of the box it was fitted into. A line of a right-to-left
 * paragraph (Hebrew, Arabic) ends at the box's right edge, the others start at `x`. `room`: the fill it is drawn on
 * (a band, a badge), where its ink must stay; default each line's own room on paper (text-box.ts).
 */
export function drawFitted(
  sf: Surface,
  fitted: FittedText,
  x: number,
  top: number,
  colour: string,
  report?: LayoutReport,
  room?: Box,
): void {
  let y = firstBaseline(top, fitted);
  sf.drawn.ink(colour);
  const drawn: DrawnLine[] = [];
  // Every line in its paragraph's direction (a zero-width LRM or RLM first), not in that of its own first word; lines
  // fitted elsewhere, without one, in the block's.
  const blockRtl = baseDirection(fitted.lines.map((l) => l.text).join(' ')) === 'rtl';
  const { font, size } = fitted;
  for (const line of fitted.lines) {
    const rtl = line.rtl ?? blockRtl;
    // A line with right-to-left text is drawn whole, so that its words are put in display order (bidi.ts); its ink
    // then keeps to its designed width (glyph-place.ts centres each word on the design), which it is aligned by.
    const whole = hasRightToLeft(line.text);
    const width = Math.max(line.width, measure(font, size, line.text));
    const right = fitted.boxWidth !== undefined && Number.isFinite(fitted.boxWidth) ? x + fitted.boxWidth : null;
    const drawnWidth = whole ? measureEm(font, line.text) * size : width;
    const lx = rtl && right !== null ? Math.max(x, right - drawnWidth) : x;
    const box = room ?? lineRoom(font, size, lx, y, width);
    const pieces = whole
      ? [{ text: (rtl ? '\u200F' : '\u200E') + line.text, x: lx }]
      : line.words.map((w) => ({ text: w.text, x: lx + w.x }));
    for (const p of pieces) {
      drawText(sf.text, font, size, p.text, p.x, y, colour);
      report?.textBoxes.push({ font, size, text: p.text, x: p.x, baseline: y, box });
    }
    report?.texts.push(line.text);
    drawn.push({ font: fitted.font, size: fitted.size, text: line.text, x: lx, baseline: Math.round(y) });
    y += fitted.pitch;
  }
  if (report) {
    recordInk(report.inks, drawn);
    report.blocks.push(fitted);
  }
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
  /** The fill it is drawn on (a band, a badge), where its ink must stay; default its own room on paper (text-box.ts). */
  room?: Box;
}

/** One line of text. Returns its width. */
export function drawLine(sf: Surface, o: DrawLineOptions): number {
  const { font, size, text, baseline, report } = o;
  const w = measure(font, size, text);
  const align = o.align ?? 'left';
  const left = align === 'left' ? o.x : align === 'right' ? o.x - w : o.x - w / 2;
  drawText(sf.text, font, size, text, left, baseline, o.colour);
  sf.drawn.ink(o.colour);
  report?.texts.push(text);
  report?.textBoxes.push({
    font,
    size,
    text,
    x: left,
    baseline,
    box: o.room ?? lineRoom(font, size, left, baseline, w),
  });
  if (report) recordInk(report.inks, [{ font, size, text, x: left, baseline: Math.round(baseline) }]);
  return w;
}

export function rule(sf: Surface, x: number, y: number, w: number, thickness: number, colour = sf.theme.ink): void {
  const box = { x: Math.round(x), y: Math.round(y), w: Math.round(w), h: Math.max(1, Math.round(thickness)) };
  sf.crisp.fillStyle = colour;
  sf.crisp.fillRect(box.x, box.y, box.w, box.h);
  sf.drawn.rule(box);
}

/**
 * The height of one row of the top band, px: `base`, or taller to hold the age badge or the status read from afar: the
 * badge, the frame's margin above it and below it, and the plain row's rule.
 */
function bandRowHeight(sf: Surface, c: FrameContent, base: number): number {
  return c.ageBadge !== null || c.status?.error
    ? Math.max(base, Math.ceil(badgeSize(sf) * 1.25 + 2 * badgePad(sf) + 2 * sf.unit))
    : base;
}

/** The clear space above and below the top band's age badge, px: the frame's margin, from the edge and the rule. */
const badgePad = (sf: Surface): number => Math.max(3 * sf.unit, sf.scale.margin);

/** The top band's age badge's height in a row `h` px high: the same in an error's row as in a plain one. */
const bandBadgeHeight = (sf: Surface, h: number): number => h - 2 * badgePad(sf) - 2 * sf.unit;

/** The band's text size in a row `h` px high: its ink (ascenders to descenders, an em) the margin from edge and rule. */
const bandTextSize = (sf: Surface, h: number): number =>
  Math.min(h * 0.56, 26 * sf.unit, h - 2 * sf.unit - 2 * sf.scale.margin - 1);

/**
 * Whether an error's row holds the status (title and what happens next, at 70 % at least) beside the age badge;
 * else (narrow frames) the badge and the outfit's time get a row of their own below it.
 */
function errorFitsBesideBadge(sf: Surface, c: FrameContent, width: number, h: number): boolean {
  const st = c.status;
  if (!st?.error || c.ageBadge === null) return true;
  const u = sf.unit;
  const size = bandTextSize(sf, h);
  const badgeW = bandBadge(sf, c.ageBadge, bandBadgeHeight(sf, h)).w;
  const avail = width - 2 * errorRowPad(sf) - badgeW - 8 * u - Math.min(h * 0.8, size * 1.3) - 8 * u;
  return statusLineWidth(st, size) * 0.7 <= avail;
}

/** An error row's outline is inset 5 units from the frame's sides (as the dashed frame is), 3 from its top. */
function errorRowFrame(sf: Surface, box: Box): Box {
  // On whole pixels, inside the row: nothing of the outline reaches past the row's foot into the margin below it.
  // And the frame's margin from the panel's edges at least.
  const side = Math.max(5 * sf.unit, sf.scale.margin);
  const x = Math.round(box.x + side);
  const y = Math.round(box.y + Math.max(3 * sf.unit, sf.scale.margin));
  return { x, y, w: Math.floor(box.x + box.w - side) - x, h: Math.floor(box.y + box.h) - y };
}

/** From the frame's side to an error row's words: the outline's inset and weight, and a gap inside it. */
const errorRowPad = (sf: Surface): number => 5 * sf.unit + statusOutlineWidth(sf) + 6 * sf.unit;

/** The gap between what happened and what happens next on the status line, at text size `size`. */
const statusGap = (size: number): number => size * 0.4;

/** The width of the status line, title and "· what happens next", at text size `size`. */
function statusLineWidth(st: StatusText, size: number): number {
  return measure('condensed-bold', size, st.title) + statusGap(size) + measure('condensed', size, `· ${st.detail}`);
}

/**
 * The age badge at the right of a band row `box`, its right edge at `right`, on the error's fill (`onError`), centred,
 * or on paper, the margin below the top edge and above the rule. Returns the room it took from the row: its width and
 * the gap before it.
 */
function bandAgeBadge(
  sf: Surface,
  text: string,
  box: Box,
  right: number,
  onError: boolean,
  report: LayoutReport,
): number {
  const h = bandBadgeHeight(sf, box.h);
  const y = onError ? box.y + (box.h - h) / 2 : box.y + badgePad(sf);
  const badge = { text, xRight: right, y, h, ...bandBadge(sf, text, h), onError };
  return drawAgeBadge(sf, badge, report).w + 8 * sf.unit;
}

/** The top band's age badge in a box `h` px high: its text size and width. */
function bandBadge(sf: Surface, text: string, h: number): { size: number; w: number } {
  const size = Math.min(badgeSize(sf), h * 0.8);
  return { size, w: measure('condensed-bold', size, text) + h * 0.5 };
}

/** The height of the top band, px, for a frame `width` px wide: one row, or two when an error and a badge need them. */
export function topBandHeight(sf: Surface, c: FrameContent, base: number): number {
  const h = bandRowHeight(sf, c, base);
  return errorFitsBesideBadge(sf, c, sf.width, h) ? h : 2 * h;
}

/** The age badge's text size: its capitals subtend the outfit's arc (10′ on a wall panel at 2 m: type-scale.ts). */
function badgeSize(sf: Surface): number {
  return sf.scale.outfit;
}

/**
 * The top band: the display name and the time of the outfit on show, with an outlined badge of its age when it is
 * out of date ("3 h old"); or, for an error, an outlined band with the status in plain words (status-box.ts: the
 * service's state never looks like an alert's filled band), and still the outfit's time (or its age badge) at the
 * right: the band never hides how old the outfit below it is. Where an error and the badge do not fit in one row
 * (`box` two rows high: topBandHeight), the name, time and badge get the second.
 */
export function drawTopBand(sf: Surface, c: FrameContent, box: Box, report: LayoutReport): void {
  return sf.drawn.within('top_band', () => {
    const st = c.status?.error ? c.status : null;
    if (st === null) return plainRow(sf, c, box, report);
    const rowH = bandRowHeight(sf, c, 0);
    if (c.ageBadge !== null && box.h >= 2 * rowH && !errorFitsBesideBadge(sf, c, box.w, rowH)) {
      errorRow(sf, c, st, { ...box, h: box.h / 2 }, false, report);
      return plainRow(sf, c, { ...box, y: box.y + box.h / 2, h: box.h / 2 }, report);
    }
    errorRow(sf, c, st, box, true, report);
  });
}

/**
 * The status on an outlined row (status-box.ts), inset from the frame's sides as the old outfit's dashed frame is:
 * mark, what happened and what happens next, in ink; at the right the outfit's time or badge.
 */
function errorRow(
  sf: Surface,
  c: FrameContent,
  st: StatusText,
  box: Box,
  withAge: boolean,
  report: LayoutReport,
): void {
  return sf.drawn.within('status', () => {
    const u = sf.unit;
    const size = bandTextSize(sf, box.h);
    const fore = sf.theme.status;
    const frame = errorRowFrame(sf, box);
    // The words' room: inside the outline, which their ink must not touch.
    const room = drawStatusOutline(sf, frame);
    const pad = errorRowPad(sf);
    const base = frame.y + frame.h * 0.5 + size * 0.36;
    let right = box.x + box.w - pad;
    if (withAge && c.ageBadge !== null) {
      right -= bandAgeBadge(sf, c.ageBadge, box, right, true, report);
    } else if (withAge && c.updated) {
      right -=
        drawLine(sf, {
          font: 'condensed',
          size: size * 0.85,
          text: fill(c.locale.labels.updated, { time: c.updated }),
          x: right,
          baseline: base,
          colour: fore,
          align: 'right',
          report,
          room,
        }) +
        12 * u;
    }
    const left = box.x + pad;
    const markS = Math.min(room.h * 0.8, size * 1.3);
    statusMark(sf.crisp, st.mark, left, frame.y + (frame.h - markS) / 2, markS, fore);
    sf.drawn.icon(`status-${st.mark}`, fore);
    const textX = left + markS + 8 * u;
    const avail = right - textX;
    // What happened and what happens next, at one size that fits both (down to 70 %); else the short form, which
    // keeps both in fewer words ("Service error · again 07:12").
    const shared = Math.min(size, (size * avail) / statusLineWidth(st, size));
    if (shared >= size * 0.7) {
      const tw = drawLine(sf, {
        font: 'condensed-bold',
        size: shared,
        text: st.title,
        x: textX,
        baseline: base,
        colour: fore,
        report,
        room,
      });
      drawLine(sf, {
        font: 'condensed',
        size: shared,
        text: `· ${st.detail}`,
        x: textX + tw + statusGap(shared),
        baseline: base,
        colour: fore,
        report,
        room,
      });
    } else {
      const short = fitLine('condensed-bold', st.short, avail, size, size * 0.7);
      if (short.lines[0])
        drawLine(sf, {
          font: 'condensed-bold',
          size: short.size,
          text: short.lines[0].text,
          x: textX,
          baseline: base,
          colour: fore,
          report,
          room,
        });
    }
  });
}

/** The name at the left; at the right the outfit's time, and the badge of its age when it is out of date. */
function plainRow(sf: Surface, c: FrameContent, box: Box, report: LayoutReport): void {
  const u = sf.unit;
  const pad = 10 * u;
  const size = bandTextSize(sf, box.h);
  // Its ink (ascenders 0.76 em above the baseline, descenders 0.24 below) centred above the rule at the band's foot.
  const base = box.y + (box.h - 2 * u - size) / 2 + size * 0.76;
  const fore = sf.theme.ink;
  let right = box.x + box.w - pad;
  if (c.ageBadge !== null) {
    right -= bandAgeBadge(sf, c.ageBadge, box, right, false, report);
  }
  if (c.updated) {
    const l = c.locale.labels;
    const full =
      c.age && c.ageBadge === null
        ? fill(l.updated_ago, { time: c.updated, age: c.age })
        : fill(l.updated, { time: c.updated });
    // Beside a badge on a narrow frame the words may not fit ("Aktualizacja 05:00" ran off a 480 px band's left
    // edge): then the time alone, which the badge beside it explains.
    const room = right - box.x - pad;
    const text = [full, c.updated].find((t) => measure('condensed', size * 0.85, t) <= room);
    if (text !== undefined)
      right -=
        drawLine(sf, {
          font: 'condensed',
          size: size * 0.85,
          text,
          x: right,
          baseline: base,
          colour: fore,
          align: 'right',
          report,
        }) +
        12 * u;
  }
  const name = fitLine('bold', c.name, right - box.x - pad, size, size * 0.6);
  // A name with no room left but for "…" is left out: the outfit's time and age matter more.
  let left = box.x + pad;
  if (name.lines[0] && name.lines[0].text !== ELLIPSIS)
    left +=
      drawLine(sf, {
        font: 'bold',
        size: name.size,
        text: name.lines[0].text,
        x: left,
        baseline: base,
        colour: fore,
        report,
      }) +
      14 * u;
  drawDate(sf, c, { left, right, base, size: size * 0.85 }, report);
  if (c.status && c.ageBadge === null) report.texts.push(c.status.detail);
  rule(sf, box.x, box.y + box.h - 2 * u, box.w, 2 * u);
}

/**
 * The day after the name, in the band's room left between it and the outfit's time: "Saturday 28 November", else
 * "Sat 28 Nov", else nothing (the name, the time and the age matter more). In the band, so it takes no height from
 * the outfit.
 */
function drawDate(
  sf: Surface,
  c: FrameContent,
  at: { left: number; right: number; base: number; size: number },
  report: LayoutReport,
): void {
  const room = at.right - at.left;
  const text = [c.date.long, c.date.short].find((t) => t !== '' && measure('condensed', at.size, t) <= room);
  if (text !== undefined)
    drawLine(sf, {
      font: 'condensed',
      size: at.size,
      text,
      x: at.left,
      baseline: at.base,
      colour: sf.theme.ink,
      report,
    });
}

/** Where and how an age badge is drawn (drawAgeBadge). */
export interface AgeBadge {
  /** "3 h old". */
  text: string;
  /** The box's right edge, top and height, px. */
  xRight: number;
  y: number;
  h: number;
  /** The text size and the box's width, px. */
  size: number;
  w: number;
  /** On an error's outlined band: a compartment of its outline (a rule at its left) rather than an outline of its own. */
  onError: boolean;
}

/**
 * An outlined badge ending at xRight with the outfit's age ("3 h old"), in ink, its capitals as large as the outfit's
 * smallest (status-box.ts: the look of the service's state); on an error's band, a compartment at the band's right.
 * The top band's and the small panels' badge. Returns the badge.
 */
export function drawAgeBadge(sf: Surface, b: AgeBadge, report: LayoutReport): AgeBadge {
  return sf.drawn.within('status', () => {
    // The text's ink centred in the badge, which grows about its middle where the ink and the outline are taller than
    // it: the ink must stay off the outline ("il y a" read "il v a" on a 2.13", "godz." read "qodz." where it did not).
    const t = statusOutlineWidth(sf);
    const [hi, lo] = inkExtentEm('condensed-bold', b.text) ?? [0.73, 0];
    const h = Math.max(b.h, Math.ceil((hi - lo) * b.size) + 2 + (b.onError ? 0 : 2 * t));
    const y = b.y - (h - b.h) / 2;
    const box = { x: Math.round(b.xRight - b.w), y: Math.round(y), w: Math.round(b.w), h: Math.round(h) };
    let room: Box;
    if (b.onError) {
      sf.crisp.fillStyle = sf.theme.status;
      sf.drawn.ink(sf.theme.status);
      sf.crisp.fillRect(box.x, box.y, t, box.h);
      room = { ...box, x: box.x + t, w: box.w - t };
    } else {
      room = drawStatusOutline(sf, box, t);
    }
    const baseline = y + h / 2 + ((hi + lo) / 2) * b.size;
    drawLine(sf, {
      font: 'condensed-bold',
      size: b.size,
      text: b.text,
      x: b.xRight - b.w / 2 + (b.onError ? t / 2 : 0),
      baseline,
      colour: sf.theme.status,
      align: 'center',
      report,
      room,
    });
    report.badge = { text: b.text, size: b.size, height: box.h };
    return { ...b, y, h };
  });
}
