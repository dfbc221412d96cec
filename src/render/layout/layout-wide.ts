import type { Weather } from '../../api/schemas.js';
import { drawLine, drawTopBand, newReport, rule, topBandHeight, type Box, type LayoutReport } from './blocks.js';
import type { FrameContent } from './content.js';
import { drawHeadline, headlineSize, markOld, oldFrameThickness, type HeadlineBox } from './mark-old.js';
import { measure } from '../text/fonts.js';
import { drawConditionIcon } from '../pictograms/icons.js';
import { inkBelow } from '../pictograms/pictogram.js';
import { CONDITION_PICTOGRAMS } from '../pictograms/weather-pictograms.js';
import { drawAlertBlock, planAlerts, type AlertBlockOptions } from './alert-block.js';
import { drawGarments, drawOutfitBlock, outfitBlockFit, outfitFits, outfitShown } from './outfit-block.js';
import { growRowIntoRoom, ROW_GROWTH } from './row-growth.js';
import { pictogramRowHeight, pictogramRowPlaces, type RowFit } from '../pictograms/pictogram-row.js';
import { chooseRoom, type HeadlinePlace, type RoomStep } from './wide-room.js';
import {
  drawFeelsLike,
  drawReadings,
  drawTemperature,
  readingsWidth,
  temperatureFit,
  temperatureWidths,
  weatherInk,
  weatherSurface,
} from './readings.js';
import type { Surface } from '../draw/surface.js';
import { fitLine } from '../text/text-fit.js';

/**
 * Wall panels, read from 2 m (7.5", TRMNL, Inkplate, Kindle). Geometry in layout units (1 unit = 1 px at 800x480
 * or 480x800); text sizes from the type scale (type-scale.ts), which knows the panel's pixel density. From the
 * top: a thin band with the name and time (not meant for 2 m); the weather (icon, temperature, the readings as
 * pictogram + value); the garment pictograms; the outfit, as large as fits and never below 10′ of arc. The room goes
 * by priority (wide-room.ts): the outfit whole first, in every state.
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
  // The words about the weather, as old as the outfit where it is (readings.ts).
  const ink = weatherInk(sf);
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
  drawConditionIcon(weatherSurface(sf), c.condition ?? 'unknown', icon.x, icon.y + (icon.s - s) / 2, s);
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
 * The smallest a step may shrink the garment row to, as a share of the type scale's pictogram (30′ at 2 m): 20′,
 * where they are still the largest thing after the temperature and the outfit's capitals.
 */
const PICTOGRAM_SHRINK = 14 / 30;

/**
 * Up to this many garments keep the type scale's pictogram size (30′) whatever the outfit's length, closing their
 * gaps where the row is too narrow for them (pictogram-row.ts RowFit.heroUpTo).
 */
const HERO_GARMENTS = 6;

/**
 * The outfit's largest size as a share of the temperature's: its capitals stay clearly below the temperature's, since
 * an outfit as tall as the temperature reads as the frame's headline. The outfit's own smallest size (type-scale.ts)
 * still holds: this caps how large a short outfit grows, never how small one gets.
 */
const OUTFIT_OF_TEMPERATURE = 0.75;

/** The gaps a step's spacing leaves between the blocks, in units, and the readings' row height (portrait), px. */
interface Spacing {
  band: number;
  rule: number;
  alerts: number;
  pictograms: number;
  /** The readings' grid's height below the current weather (portrait), px. */
  readings: number;
  /** Between the current weather, the readings and the rule below them. */
  around: number;
}

/**
 * The geometry's spacing, or closed up where the outfit needs the room: the readings' rows to a quarter of their
 * size above their marks' height, the gaps to what keeps the blocks apart.
 */
function spacing(sf: Surface, g: WideGeometry, c: FrameContent, tight: boolean): Spacing {
  const u = sf.unit;
  const below = g.weather.readings.place === 'below' ? g.weather.readings.height * u : 0;
  if (!tight)
    return {
      band: g.band.gap,
      rule: g.weather.ruleGap,
      alerts: g.alerts.gap,
      pictograms: g.pictograms.gap,
      readings: below,
      around: 4,
    };
  const rows = Math.ceil(c.readings.length / 2);
  return {
    band: Math.min(g.band.gap, 4),
    rule: Math.min(g.weather.ruleGap, 5),
    alerts: Math.min(g.alerts.gap, 4),
    pictograms: Math.min(g.pictograms.gap, 6),
    readings: Math.min(below, Math.ceil(rows * readingSizeOf(sf, g) * 1.25)),
    around: 2,
  };
}

/** Where each block of a step starts, px, from the headline down to the garment row. */
interface Tops {
  headline: number;
  weather: number;
  alerts: number;
  row: number;
}

/** The wall layout of an 800x480 frame or of one turned upright. */
export function layoutWide(sf: Surface, c: FrameContent, layout: WideGeometry['layout']): LayoutReport {
  const g = GEOMETRY[layout];
  const report = newReport(layout);
  const u = sf.unit;
  const W = sf.width;
  const H = sf.height;
  const m = MARGIN * u;
  const w = c.weather;
  const bandH = topBandHeight(sf, c, g.band.height * u);
  // An old outfit's dashed frame stands the frame's margin in from the edges; what it frames, the margin inside it.
  const insideOld = c.old ? oldFrameAt(sf) + oldFrameThickness(sf) + sf.scale.margin : 0;
  // The outfit's foot: the geometry's, and at least the frame's margin from the edge or the dashed frame.
  const bottom = c.old ? insideOld : Math.max(g.outfit.bottom * u, sf.scale.margin);
  // Alerts at least at the readings' size: a warning is read from where the weather is.
  const alertSize = Math.max(g.alerts.size * u, readingSizeOf(sf, g));
  const alertOpts = (y: number, whole: number): AlertBlockOptions => ({
    box: { x: m, y, w: W - 2 * m, h: 0 },
    maxLines: g.alerts.lines,
    size: alertSize,
    whole,
  });
  // The headline at the outfit's size above the weather; beside the garments, at that size or at the alerts'.
  const headlineBox = (y: number, place: HeadlinePlace): HeadlineBox => {
    const size = place.endsWith('-small') ? Math.min(alertSize, sf.scale.outfit) : sf.scale.outfit;
    // A little out into the side margin, as far as an old outfit's dashed frame's margin allows.
    const x = Math.max(m - 4 * u, insideOld);
    return { x, y, maxW: W - m - x, size, minSize: size };
  };
  const headlines =
    c.headline === null
      ? null
      : {
          above: headlineSize(sf, c.headline, headlineBox(0, 'above')),
          beside: headlineSize(sf, c.headline, headlineBox(0, 'beside')),
          'above-small': headlineSize(sf, c.headline, headlineBox(0, 'above-small')),
          'beside-small': headlineSize(sf, c.headline, headlineBox(0, 'beside-small')),
        };
  const isAbove = (place: HeadlinePlace): boolean => place.startsWith('above');
  /** The headline's size where a step puts it beside the garments, else null. */
  const beside = (step: RoomStep): { w: number; h: number } | null =>
    headlines && !isAbove(step.headline) ? headlines[step.headline] : null;
  const tops = (step: RoomStep): Tops => {
    const s = spacing(sf, g, c, step.tight);
    // An old outfit's dashed frame runs between the band and the weather: the gap makes room for it.
    // An old outfit's dashed frame runs the frame's margin below the band (oldFrameAt), what it frames the margin
    // inside it.
    const top = c.old ? bandH + insideOld : bandH + s.band * u;
    const weather = top + (headlines && isAbove(step.headline) ? headlines[step.headline].h + s.alerts * u : 0);
    const alerts = weather + (w ? weatherPlan(sf, c, w, g, s).height : 0);
    const alertH = planAlerts(sf, c, alertOpts(alerts, step.alertsWhole)).height;
    return { headline: top, weather, alerts, row: alerts + (alertH ? alertH + s.alerts * u : 0) };
  };
  // The garments as large as the type scale's pictogram (30′ at 2 m), or the geometry's size where that is larger;
  // after the headline where a step sets it beside them.
  const full = Math.max(g.pictograms.size * u, sf.scale.pictogram);
  const rowBox = (step: RoomStep, top: number, h: number): Box => {
    const b = beside(step);
    const x = b ? Math.max(m - 4 * u, insideOld) + b.w + 12 * u : m;
    return { x, y: top, w: W - m - x, h };
  };
  const temperature = w ? temperatureSizeOf(sf, c, w, g) : null;
  const maxSize = Math.min(
    g.outfit.maxSize * u,
    temperature === null ? Infinity : Math.floor(temperature * OUTFIT_OF_TEMPERATURE),
  );
  const outfitOpts = { maxSize, lineHeight: 1.1, reasoningMax: g.outfit.reasoningMax * u };
  // The row centred in its width; a row grown past the scale's size (growRowIntoRoom) keeps quarter gaps.
  const rowFit = (rows: 1 | 2): RowFit => ({ maxRows: rows, heroUpTo: HERO_GARMENTS, heroSize: full, centre: true });
  const below = (step: RoomStep, top: number, rows: 1 | 2, h: number): Box => {
    const rh = pictogramRowHeight(c.row, rowBox(step, top, h), PICTOGRAM_MIN * u, rowFit(rows));
    const used = Math.max(rh, beside(step)?.h ?? 0);
    const y = top + (used ? used + spacing(sf, g, c, step.tight).pictograms * u : 0);
    return { x: m, y, w: W - 2 * m, h: H - y - bottom };
  };
  const rowTops = new Map<RoomStep, number>();
  const rowTop = (step: RoomStep): number => {
    let top = rowTops.get(step);
    if (top === undefined) rowTops.set(step, (top = tops(step).row));
    return top;
  };
  // Up to HERO_GARMENTS keep the type scale's size until a step gives it up; more are smaller anyway.
  const floor = (step: RoomStep): number =>
    c.row.length > HERO_GARMENTS
      ? PICTOGRAM_MIN * u
      : Math.min(
          full,
          step.smallPictograms
            ? Math.max(PICTOGRAM_MIN * u, sf.scale.pictogram * PICTOGRAM_SHRINK)
            : sf.scale.pictogram,
        );
  // The headline goes beside the garments only where they all keep their places there, as large as a step that
  // shrinks them may make them at least.
  const smallest: RoomStep = { tight: true, smallPictograms: true, headline: 'above', alertsWhole: 0 };
  const places = (['beside', 'above-small', 'beside-small'] as const).filter((headline) => {
    if (isAbove(headline)) return true;
    const step = { ...smallest, headline };
    const box = rowBox(step, 0, floor(step));
    return (
      pictogramRowPlaces(c.row, box, PICTOGRAM_MIN * u, rowFit(1)) >= c.row.length &&
      pictogramRowHeight(c.row, box, PICTOGRAM_MIN * u, rowFit(1)) >= Math.floor(floor(step))
    );
  });
  const choice = chooseRoom({
    steps: roomSteps(Math.min(c.alerts.length, g.alerts.lines), headlines ? places : []),
    full,
    floor,
    twoRows: g.pictograms.rows === 2,
    whole: (step, rows, h, how) =>
      outfitFits(sf, c, below(step, rowTop(step), rows, h), {
        ...outfitOpts,
        oneSize: how === 'one-size',
        refusalsSmaller: how === 'refusals-smaller',
        sentenceEnd: how === 'sentence-end',
      }),
    shown: (step, h) => outfitShown(sf, c, below(step, rowTop(step), 1, h), outfitOpts),
  });
  const { step } = choice;
  const t = tops(step);
  drawTopBand(sf, c, { x: 0, y: 0, w: W, h: bandH }, report);
  if (c.headline !== null)
    drawHeadline(sf, c.headline, headlineBox(isAbove(step.headline) ? t.headline : t.row, step.headline), report);
  const icon = w ? drawWeather(sf, c, w, t.weather, g, spacing(sf, g, c, step.tight), report) : null;
  drawAlertBlock(sf, c, alertOpts(t.alerts, step.alertsWhole), report);
  // Where the row kept its size, it grows into the room a short outfit leaves, as far as the outfit keeps its size.
  const row = rowBox(step, t.row, choice.h);
  if (choice.h === full)
    growRowIntoRoom({
      row,
      ceiling: Math.round(sf.scale.pictogram * ROW_GROWTH),
      block: () => outfitBlockFit(sf, c, below(step, t.row, choice.rows, row.h), outfitOpts),
      height: () => pictogramRowHeight(c.row, row, PICTOGRAM_MIN * u, rowFit(choice.rows)),
    });
  drawGarments(sf, c, row, PICTOGRAM_MIN * u, report, rowFit(choice.rows));
  if (icon !== null) drawIcon(sf, c, icon, report);
  drawOutfitBlock(sf, c, below(step, t.row, choice.rows, row.h), outfitOpts, report);
  if (c.old) {
    // The weather with the outfit: its readings are as old as the garments, and never look current beside them.
    // In the side margins, the gap below the band and at the foot (oldFrameAt): it takes its room from the outfit's
    // foot, and moves the weather down.
    const frameAt = oldFrameAt(sf);
    const oldTop = bandH + frameAt;
    markOld(sf, { x: frameAt, y: oldTop, w: W - 2 * frameAt, h: H - oldTop - frameAt }, report);
  }
  return report;
}

/**
 * The steps a wall frame takes to keep the outfit whole (wide-room.ts), roomiest first: the geometry's spacing and
 * pictograms with every alert on the lines it needs; spacing closed up; pictograms below the scale's size; an old
 * outfit's headline beside the garments rather than above the weather, then at the alerts' size above the weather,
 * then beside the garments (`beside`: the places the garments leave it); then the alerts' second lines given up, the
 * least severe alert's first.
 */
function roomSteps(alerts: number, beside: readonly HeadlinePlace[]): RoomStep[] {
  const steps: RoomStep[] = [
    { tight: false, smallPictograms: false, headline: 'above', alertsWhole: alerts },
    { tight: true, smallPictograms: false, headline: 'above', alertsWhole: alerts },
    { tight: true, smallPictograms: true, headline: 'above', alertsWhole: alerts },
  ];
  for (const headline of beside) steps.push({ tight: true, smallPictograms: true, headline, alertsWhole: alerts });
  const headline = beside[beside.length - 1] ?? 'above';
  for (let n = alerts - 1; n >= 0; n--) steps.push({ tight: true, smallPictograms: true, headline, alertsWhole: n });
  return steps;
}

/** The readings' size, px: the type scale's, or the geometry's smallest where that is larger. */
const readingSizeOf = (sf: Surface, g: WideGeometry): number =>
  Math.max(sf.scale.reading, g.weather.readingMin * sf.unit);

/** The current weather's left edge, px: a little out into the side margin, as far as an old outfit's frame allows. */
const weatherLeft = (sf: Surface, c: FrameContent): number =>
  Math.max((MARGIN - 4) * sf.unit, c.old ? oldFrameAt(sf) + oldFrameThickness(sf) + sf.scale.margin : 0);

/** Above the weather's rule, px: the spacing's gap, or the frame's margin clear of the icon's ink below its square. */
function aboveRule(sf: Surface, c: FrameContent, g: WideGeometry, s: Spacing): number {
  const below = inkBelow(CONDITION_PICTOGRAMS[c.condition ?? 'unknown'], g.weather.height * sf.unit);
  return Math.max(s.around * sf.unit, sf.scale.margin + below);
}

/** From the weather's rule (2 units thick) to what follows, px: the spacing's gap, or the rule and the margin. */
const belowRule = (sf: Surface, s: Spacing): number => Math.max(s.rule * sf.unit, 2 * sf.unit + sf.scale.margin);

/** The weather's plan: the current weather's, the readings' width beside it (landscape), and the height to the row. */
interface WeatherPlan {
  current: CurrentPlan;
  /** Width of the readings' grid beside the current weather, px (0: below it). */
  readW: number;
  /** From the weather's top to below the rule's gap, px. */
  height: number;
}

/** Where the current weather and the readings go, and the height they take with the rule below them. */
function weatherPlan(sf: Surface, c: FrameContent, w: Weather, g: WideGeometry, s: Spacing): WeatherPlan {
  const u = sf.unit;
  const W = sf.width;
  const m = MARGIN * u;
  const rowH = g.weather.height * u;
  const readingSize = readingSizeOf(sf, g);
  const sizes: CurrentSizes = { icon: rowH, temperatureMax: g.weather.temperatureMax * u, feelsLike: readingSize };
  if (g.weather.readings.place === 'beside') {
    // The readings take what they need at full size and a pair's gap more, up to the geometry's width; the
    // condition text beside them gets the rest ("Clear and sunny with a light breeze" whole at 20 px).
    const readW = Math.min(g.weather.readings.width * u, readingsWidth(c.readings, rowH, 2, readingSize) + 24 * u);
    const current = planCurrent(sf, c, w, W - m - weatherLeft(sf, c) - readW - rowH - 12 * u, rowH, sizes);
    return { current, readW, height: current.height + aboveRule(sf, c, g, s) + belowRule(sf, s) };
  }
  const current = planCurrent(sf, c, w, W - m - weatherLeft(sf, c) - rowH - 12 * u, rowH, sizes);
  return {
    current,
    readW: 0,
    height: current.height + s.around * u + s.readings + aboveRule(sf, c, g, s) + belowRule(sf, s),
  };
}

/**
 * The temperature's size as drawCurrent will draw it, px, before anything is drawn: the outfit's largest size is a
 * share of it (OUTFIT_OF_TEMPERATURE), and the room is planned before the weather is drawn.
 */
function temperatureSizeOf(sf: Surface, c: FrameContent, w: Weather, g: WideGeometry): number {
  const u = sf.unit;
  const rowH = g.weather.height * u;
  const sizes: CurrentSizes = {
    icon: rowH,
    temperatureMax: g.weather.temperatureMax * u,
    feelsLike: readingSizeOf(sf, g),
  };
  const { current, readW } = weatherPlan(sf, c, w, g, spacing(sf, g, c, false));
  const width = sf.width - MARGIN * u - weatherLeft(sf, c) - readW - sizes.icon - 12 * u;
  if (current.feels !== 'beneath') return temperatureFit(w, temperatureBeside(sf, sizes, current.height), width);
  // Beneath: as drawCurrent sets the number a line above the feels-like temperature at the row's foot.
  const fs = sizes.feelsLike;
  const above = current.height - fs * 0.24 - fs * (0.729 + 0.3);
  return temperatureFit(w, Math.min(Math.max(sf.scale.temperature, sizes.temperatureMax), above / 0.76), width);
}

/** The current weather and the readings from `top`, and the rule below them, all but the icon. Returns its square. */
function drawWeather(
  sf: Surface,
  c: FrameContent,
  w: Weather,
  top: number,
  g: WideGeometry,
  s: Spacing,
  report: LayoutReport,
): IconPlace {
  const u = sf.unit;
  const W = sf.width;
  const m = MARGIN * u;
  const rowH = g.weather.height * u;
  const readingSize = readingSizeOf(sf, g);
  const sizes: CurrentSizes = { icon: rowH, temperatureMax: g.weather.temperatureMax * u, feelsLike: readingSize };
  const { current: plan, readW } = weatherPlan(sf, c, w, g, s);
  let y = top;
  let icon: IconPlace;
  const left = weatherLeft(sf, c);
  if (readW > 0) {
    const box = { x: left, y, w: W - m - left - readW, h: plan.height };
    icon = drawCurrent(sf, c, w, box, sizes, plan, report);
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
    y += plan.height + aboveRule(sf, c, g, s);
  } else {
    icon = drawCurrent(sf, c, w, { x: left, y, w: W - m - left, h: plan.height }, sizes, plan, report);
    y += plan.height + s.around * u;
    report.sizes.reading = drawReadings(
      sf,
      c.readings,
      { x: m, y, w: W - 2 * m, h: s.readings },
      2,
      readingSize,
      report,
    );
    y += s.readings + aboveRule(sf, c, g, s);
  }
  rule(sf, m, y, W - 2 * m, 2 * u);
  return icon;
}
