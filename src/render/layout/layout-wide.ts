import type { Weather } from '../../api/schemas.js';
import { drawLine, drawTopBand, newReport, rule, topBandHeight, type Box, type LayoutReport } from './blocks.js';
import type { FrameContent } from './content.js';
import { drawHeadline, markOld, oldFrameThickness } from './mark-old.js';
import { measure } from '../text/fonts.js';
import { drawConditionIcon } from '../pictograms/icons.js';
import { inkBelow } from '../pictograms/pictogram.js';
import { CONDITION_PICTOGRAMS } from '../pictograms/weather-pictograms.js';
import { drawAlertBlock } from './alert-block.js';
import { drawGarments, drawOutfitBlock, outfitFitsWhole } from './outfit-block.js';
import { pictogramRowHeight } from '../pictograms/pictogram-row.js';
import { drawFeelsLike, drawReadings, drawTemperature, readingsWidth, temperatureWidths } from './readings.js';
import type { Surface } from '../draw/surface.js';
import { fitLine } from '../text/text-fit.js';

/**
 * Wall panels, read from 2 m (7.5", TRMNL, Inkplate, Kindle). Geometry in layout units (1 unit = 1 px at 800x480
 * or 480x800); text sizes from the type scale (type-scale.ts), which knows the panel's pixel density. From the
 * top: a thin band with the name and time (not meant for 2 m); the weather (icon, temperature, the readings as
 * pictogram + value); the garment pictograms; the outfit, as large as fits and never below 10′ of arc.
 */

/** The current weather's sizes: the icon's square, the temperature's largest, and the feels-like temperature's. */
interface CurrentSizes {
  icon: number;
  temperatureMax: number;
  /** The feels-like temperature: the figure the outfit is based on, never smaller than the readings beside it. */
  feelsLike: number;
}

/** The feels-like temperature's face: the readings' own, so it reads as one of them. */
const FEELS_FONT = 'condensed-bold';

/** Where the feels-like temperature goes: beside the number (under its raised unit, or after it), or beneath it. */
type FeelsPlace = 'under-unit' | 'after-unit' | 'beneath';

/** The current weather's plan: where the feels-like temperature goes, and the row's height that takes. */
interface CurrentPlan {
  feels: FeelsPlace;
  /** The row's height, px: the geometry's, or more where the feels-like temperature goes beneath the number. */
  height: number;
}

/** The description's line size and its smallest, px: a detail (the icon says it too), never below the reasoning's. */
function descriptionSizes(sf: Surface): { size: number; min: number } {
  const size = 20 * sf.unit;
  return { size, min: Math.min(size, Math.max(sf.scale.reasoning, size * 0.85)) };
}

/** The temperature's size in a row `h` px high with the description's line beneath it. */
const temperatureBeside = (sf: Surface, sz: CurrentSizes, h: number): number =>
  Math.min(Math.max(sf.scale.temperature, sz.temperatureMax), (h - descriptionSizes(sf).size * 1.4) / 0.78);

/**
 * Where the feels-like temperature goes in a row `h` px high and `width` px wide beside the icon: beside the number
 * where it fits there at its size (under the raised unit where the number is large enough to leave room, else after
 * the unit), else beneath the number, the row growing to keep the number at the scale's size ("Feels like 1°" at
 * 73 px is wider than a landscape Kindle leaves beside the number).
 */
function planCurrent(
  sf: Surface,
  c: FrameContent,
  w: Weather,
  width: number,
  h: number,
  sz: CurrentSizes,
): CurrentPlan {
  const fs = sz.feelsLike;
  const tSize = temperatureBeside(sf, sz, h);
  const tw = temperatureWidths(w, tSize);
  const feelsW = measure(FEELS_FONT, fs, c.feelsLike ?? '');
  const gap = fs * 0.3;
  // Under the raised unit: its bottom is 0.4 of the number's size above the baseline, and the line's capitals (with
  // a gap of 0.15 of their size) must stay below it.
  if (tSize * 0.4 >= fs * 0.91 && tw.number + gap + feelsW <= width) return { feels: 'under-unit', height: h };
  if (tw.whole + gap + feelsW <= width) return { feels: 'after-unit', height: h };
  return { feels: 'beneath', height: Math.max(h, Math.ceil(sf.scale.temperature * 0.76 + fs * (0.3 + 0.729 + 0.24))) };
}

/**
 * Icon, temperature, and the feels-like temperature at the readings' size at least (it is what the outfit answers),
 * where planCurrent put it. Beside the number, the description takes the line beneath at a detail's size; beneath
 * it, the description goes beside the number instead, after its unit, cut to fit, or is left to the icon.
 */
function drawCurrent(
  sf: Surface,
  c: FrameContent,
  w: Weather,
  box: Box,
  sz: CurrentSizes,
  plan: CurrentPlan,
  report: LayoutReport,
): IconPlace {
  const u = sf.unit;
  const icon = { x: box.x, y: box.y + (box.h - sz.icon) / 2, s: sz.icon };
  const x = box.x + sz.icon + 12 * u;
  const width = box.x + box.w - x;
  const size = Math.max(sf.scale.temperature, sz.temperatureMax);
  const d = descriptionSizes(sf);
  const fs = sz.feelsLike;
  const feels = c.feelsLike ?? '';
  const desc = c.description ?? '';
  const ink = sf.theme.ink;
  const gap = fs * 0.3;
  if (plan.feels !== 'beneath') {
    const base = Math.round(box.y + Math.min(size * 0.8, box.h - d.size * 1.5));
    const temp = drawTemperature(sf, w, x, base, temperatureBeside(sf, sz, box.h), width, report);
    report.sizes.temperature = temp.size;
    sf.drawn.within('feels_like', () =>
      drawLine(sf, {
        font: FEELS_FONT,
        size: fs,
        text: feels,
        x: x + (plan.feels === 'under-unit' ? temp.numberWidth : temp.width) + gap,
        baseline: base,
        colour: ink,
        report,
      }),
    );
    report.sizes.feelsLike = fs;
    const fitted = desc ? fitLine('condensed', desc, width, d.size, d.min) : null;
    const line = fitted?.lines[0];
    if (fitted && line)
      sf.drawn.within('condition', () =>
        drawLine(sf, {
          font: 'condensed',
          size: fitted.size,
          text: line.text,
          x,
          baseline: Math.round(base + d.size * 1.25),
          colour: ink,
          report,
        }),
      );
    return icon;
  }
  // Beneath: its baseline a descent above the row's end, the number's a gap above its capitals.
  const feelsBase = Math.round(box.y + box.h - fs * 0.24);
  const tempBase = Math.round(feelsBase - fs * (0.729 + 0.3));
  const temp = drawTemperature(sf, w, x, tempBase, Math.min(size, (tempBase - box.y) / 0.76), width, report);
  report.sizes.temperature = temp.size;
  drawFeelsLike(sf, { full: feels, short: c.feelsLikeShort ?? feels }, x, feelsBase, fs, width, report);
  const descX = x + temp.width + gap;
  const fitted = desc ? fitLine('condensed', desc, x + width - descX, d.size, d.min) : null;
  const line = fitted?.lines[0];
  // Whole or not at all: "Light…" of "Light snow showers" misleads, and the icon says it.
  if (fitted && line && !fitted.truncated)
    sf.drawn.within('condition', () =>
      drawLine(sf, {
        font: 'condensed',
        size: fitted.size,
        text: line.text,
        x: descX,
        baseline: tempBase,
        colour: ink,
        report,
      }),
    );
  return icon;
}

/** The weather icon's square: drawn after the garments (drawIcon), so that it is never the larger of the two. */
interface IconPlace {
  x: number;
  y: number;
  s: number;
}

/**
 * The weather icon, no larger than the garments where they are at the type scale's size: the garments are the
 * largest thing after the temperature. Where the outfit made the row smaller than the geometry's icon (an upright
 * TRMNL X), the icon comes down with it, centred in its square; the text beside it keeps its place.
 */
function drawIcon(sf: Surface, c: FrameContent, icon: IconPlace, report: LayoutReport): void {
  const garments = report.pictograms.length > 0 ? (report.sizes.pictogram ?? 0) : 0;
  const s = garments >= sf.scale.pictogram ? Math.min(icon.s, garments) : icon.s;
  drawConditionIcon(sf, c.condition ?? 'unknown', icon.x, icon.y + (icon.s - s) / 2, s);
  report.sizes.weatherIcon = Math.round(s);
}

/** Where the readings go: beside the current weather (landscape), or in a row of their own below it (portrait). */
type ReadingsPlace =
  | {
      place: 'beside';
      /** Width of the readings' grid, units; the current weather gets the rest of the row. */
      width: number;
    }
  | {
      place: 'below';
      /** Height of the readings' row, units. */
      height: number;
    };

/** The numbers that set landscape and portrait apart, in layout units; everything else they share. */
interface WideGeometry {
  layout: 'landscape' | 'portrait';
  /** Height of the name-and-time band, and the space below it. */
  band: { height: number; gap: number };
  /**
   * The weather row: its height (the icon's size too), the largest temperature, the readings' smallest size,
   * the space below the rule under it, and where the readings go.
   */
  weather: { height: number; temperatureMax: number; readingMin: number; ruleGap: number; readings: ReadingsPlace };
  /** Alert lines at most, their smallest size (the readings' where larger), and the space below them. */
  alerts: { lines: number; size: number; gap: number };
  /**
   * The largest garment pictogram, the space below the row, and its rows at most: two where a portrait frame
   * has the height to spare (chosen in layoutWide).
   */
  pictograms: { size: number; gap: number; rows: 1 | 2 };
  /** The outfit's and the reasoning's largest sizes, and the space left below the outfit. */
  outfit: { maxSize: number; reasoningMax: number; bottom: number };
}

const GEOMETRY: Record<WideGeometry['layout'], WideGeometry> = {
  landscape: {
    layout: 'landscape',
    band: { height: 26, gap: 4 },
    weather: { height: 84, temperatureMax: 76, readingMin: 30, ruleGap: 6, readings: { place: 'beside', width: 392 } },
    alerts: { lines: 2, size: 22, gap: 4 },
    pictograms: { size: 86, gap: 8, rows: 1 },
    outfit: { maxSize: 110, reasoningMax: 24, bottom: 4 },
  },
  portrait: {
    layout: 'portrait',
    band: { height: 32, gap: 6 },
    weather: { height: 92, temperatureMax: 96, readingMin: 32, ruleGap: 10, readings: { place: 'below', height: 96 } },
    alerts: { lines: 3, size: 24, gap: 10 },
    pictograms: { size: 96, gap: 10, rows: 2 },
    outfit: { maxSize: 120, reasoningMax: 26, bottom: 6 },
  },
};

/**
 * Where an old outfit's dashed frame stands, px: the frame's margin (type-scale.ts) in from the panel's edges and below
 * the band; what it frames stands the margin inside it.
 */
const oldFrameAt = (sf: Surface): number => sf.scale.margin;

/** Side margin, units. */
const MARGIN = 16;
/** The smallest garment pictogram, units: at 40 they are told apart from 2 m. */
const PICTOGRAM_MIN = 40;

/**
 * Up to this many garments keep the type scale's pictogram size (30′) whatever the outfit's length, closing their
 * gaps where the row is too narrow for them (pictogram-row.ts RowFit.heroUpTo).
 */
const HERO_GARMENTS = 6;

/**
 * Where the outfit would not fit whole below the row, the row's largest size (`row.h`) comes down, never below
 * `floor`, to the largest size at which it does (whole px, by halving). Where it fits at no size, the row keeps its
 * full size: the outfit is cut anyway, and the pictograms carry the list.
 */
function shrinkRowForOutfit(row: Box, floor: number, fits: () => boolean): void {
  if (fits() || row.h <= floor) return;
  const full = row.h;
  row.h = floor;
  if (!fits()) {
    row.h = full;
    return;
  }
  let lo = Math.round(floor);
  let hi = Math.round(full);
  while (hi - lo > 1) {
    row.h = Math.floor((lo + hi) / 2);
    if (fits()) lo = row.h;
    else hi = row.h;
  }
  row.h = lo;
}

/**
 * Two rows of pictograms or one: two where the outfit is whole below them (at one size, or with its first sentence
 * set larger), else one where that keeps it whole, else two (the pictograms carry the full list).
 */
function twoRowsOrOne(whole: (rows: 1 | 2, oneSize: boolean) => boolean): 1 | 2 {
  if (whole(2, true) || whole(2, false)) return 2;
  return whole(1, true) || whole(1, false) ? 1 : 2;
}

/** The wall layout of an 800x480 frame or of one turned upright. */
export function layoutWide(sf: Surface, c: FrameContent, layout: WideGeometry['layout']): LayoutReport {
  const g = GEOMETRY[layout];
  const report = newReport(layout);
  const u = sf.unit;
  const W = sf.width;
  const H = sf.height;
  const m = MARGIN * u;
  const bandH = topBandHeight(sf, c, g.band.height * u);
  drawTopBand(sf, c, { x: 0, y: 0, w: W, h: bandH }, report);
  // An old outfit's dashed frame runs between the band and the weather, and in the side margins (oldFrameAt).
  const frameAt = oldFrameAt(sf);
  const oldTop = bandH + (c.old ? frameAt : g.band.gap * u);
  const inside = c.old ? oldFrameThickness(sf) + sf.scale.margin : 0;
  let y = oldTop + inside;
  const bottom = c.old ? frameAt + inside : Math.max(g.outfit.bottom * u, sf.scale.margin);
  // The headline's fill a little out into the side margin, as far as the dashed frame's margin allows.
  const hx = Math.max(m - 4 * u, c.old ? frameAt + inside : 0);
  if (c.headline !== null)
    y +=
      drawHeadline(
        sf,
        c.headline,
        { x: hx, y, maxW: W - m - hx, size: sf.scale.outfit, minSize: sf.scale.outfit },
        report,
      ) +
      // Below it the band's gap: it heads the frame as the band heads the panel, and the frame's margins took room.
      g.band.gap * u;
  const w = c.weather;
  let icon: IconPlace | null = null;
  if (w) ({ y, icon } = drawWeather(sf, c, w, y, g, report));
  // Alerts at least at the readings' size: a warning is read from where the weather is.
  const alertH = drawAlertBlock(
    sf,
    c,
    {
      box: { x: m, y, w: W - 2 * m, h: 0 },
      maxLines: g.alerts.lines,
      size: Math.max(g.alerts.size * u, readingSizeOf(sf, g)),
    },
    report,
  );
  if (alertH) y += alertH + g.alerts.gap * u;
  // The garments as large as the type scale's pictogram (30′ at 2 m), or the geometry's size where that is larger.
  const rowBox = { x: m, y, w: W - 2 * m, h: Math.max(g.pictograms.size * u, sf.scale.pictogram) };
  const outfitOpts = { maxSize: g.outfit.maxSize * u, lineHeight: 1.1, reasoningMax: g.outfit.reasoningMax * u };
  const below = (rows: 1 | 2): Box => {
    const h = pictogramRowHeight(c.row, rowBox, PICTOGRAM_MIN * u, { maxRows: rows, heroUpTo: HERO_GARMENTS });
    const top = y + (h ? h + g.pictograms.gap * u : 0);
    return { x: m, y: top, w: W - 2 * m, h: H - top - bottom };
  };
  // Two rows of larger pictograms where the outfit still fits whole below them, or where it would not fit whole
  // below one row either (then the pictograms carry the full list). Where only one row leaves the outfit whole, one
  // row, its pictograms smaller: an outfit whole on the 7.5" is whole on an upright Kindle too, and the
  // row still names every garment.
  const rows =
    g.pictograms.rows === 2
      ? twoRowsOrOne((r, oneSize) => outfitFitsWhole(sf, c, below(r), { ...outfitOpts, oneSize }))
      : 1;
  const floor = c.row.length <= HERO_GARMENTS ? Math.min(rowBox.h, sf.scale.pictogram) : PICTOGRAM_MIN * u;
  // Whole at one size where a smaller row allows it; else whole at all (the first sentence set larger).
  const full = rowBox.h;
  shrinkRowForOutfit(rowBox, floor, () => outfitFitsWhole(sf, c, below(rows), outfitOpts));
  if (rowBox.h === full)
    shrinkRowForOutfit(rowBox, floor, () => outfitFitsWhole(sf, c, below(rows), { ...outfitOpts, oneSize: false }));
  drawGarments(sf, c, rowBox, PICTOGRAM_MIN * u, report, { maxRows: rows, heroUpTo: HERO_GARMENTS });
  if (icon !== null) drawIcon(sf, c, icon, report);
  drawOutfitBlock(sf, c, below(rows), outfitOpts, report);
  if (c.old) {
    // The weather with the outfit: its readings are as old as the garments, and never look current beside them.
    // In the side margins, the gap below the band and at the foot: it takes its room from the outfit's foot, and moves
    // the weather down.
    markOld(sf, { x: frameAt, y: oldTop, w: W - 2 * frameAt, h: H - oldTop - frameAt }, report);
  }
  return report;
}

/** The readings' size, px: the type scale's, or the geometry's smallest where that is larger. */
const readingSizeOf = (sf: Surface, g: WideGeometry): number =>
  Math.max(sf.scale.reading, g.weather.readingMin * sf.unit);

/**
 * The current weather and the readings from `y`, and the rule below them, all but the icon. Returns the y below the
 * rule's gap and the icon's square.
 */
function drawWeather(
  sf: Surface,
  c: FrameContent,
  w: Weather,
  top: number,
  g: WideGeometry,
  report: LayoutReport,
): { y: number; icon: IconPlace } {
  const u = sf.unit;
  const W = sf.width;
  const m = MARGIN * u;
  const rowH = g.weather.height * u;
  const readingSize = readingSizeOf(sf, g);
  const place = g.weather.readings;
  const sizes: CurrentSizes = { icon: rowH, temperatureMax: g.weather.temperatureMax * u, feelsLike: readingSize };
  let y = top;
  let icon: IconPlace;
  // Above the rule, the frame's margin clear of the icon's ink, which may reach half a stroke below its square.
  const below = inkBelow(CONDITION_PICTOGRAMS[c.condition ?? 'unknown'], rowH);
  const clear = Math.max(4 * u, sf.scale.margin + below);
  // The icon a little out into the side margin, as far as an old outfit's dashed frame allows (layoutWide).
  const left = Math.max(m - 4 * u, c.old ? oldFrameAt(sf) + oldFrameThickness(sf) + sf.scale.margin : 0);
  if (place.place === 'beside') {
    // The readings take what they need at full size and a pair's gap more, up to the geometry's width; the
    // condition text beside them gets the rest ("Clear and sunny with a light breeze" whole at 20 px).
    const readW = Math.min(place.width * u, readingsWidth(c.readings, rowH, 2, readingSize) + 24 * u);
    const box = { x: left, y, w: W - m - left - readW, h: rowH };
    const plan = planCurrent(sf, c, w, box.w - rowH - 12 * u, rowH, sizes);
    icon = drawCurrent(sf, c, w, { ...box, h: plan.height }, sizes, plan, report);
    // In the geometry's height, centred in a row grown for the feels-like temperature: a taller grid would draw larger
    // marks and leave the values less width.
    report.sizes.reading = drawReadings(
      sf,
      c.readings,
      { x: W - m - readW, y: y + (plan.height - rowH) / 2, w: readW, h: rowH },
      2,
      readingSize,
      report,
    );
    y += plan.height + clear;
  } else {
    const box = { x: left, y, w: W - m - left, h: rowH };
    const plan = planCurrent(sf, c, w, box.w - rowH - 12 * u, rowH, sizes);
    icon = drawCurrent(sf, c, w, { ...box, h: plan.height }, sizes, plan, report);
    y += plan.height + 4 * u;
    const readH = place.height * u;
    report.sizes.reading = drawReadings(sf, c.readings, { x: m, y, w: W - 2 * m, h: readH }, 2, readingSize, report);
    y += readH + clear;
  }
  rule(sf, m, y, W - 2 * m, 2 * u);
  // Below it, the geometry's gap, or the frame's margin clear of the rule where that is more.
  return { y: y + 2 * u + Math.max((g.weather.ruleGap - 2) * u, sf.scale.margin), icon };
}
