import type { Weather } from '../../api/schemas.js';
import { drawFitted, drawLine, firstBaseline, rule, type Box, type LayoutReport } from './blocks.js';
import type { FrameContent } from './content.js';
import { oldFrameThickness } from './mark-old.js';
import { measure } from '../text/fonts.js';
import { drawConditionIcon } from '../pictograms/icons.js';
import { inkBelow } from '../pictograms/pictogram.js';
import { CONDITION_PICTOGRAMS } from '../pictograms/weather-pictograms.js';
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
import { MARGIN, oldFrameAt, readingSizeOf, spacing, type Spacing, type WideGeometry } from './wide-geometry.js';
import { fitLine, fitText } from '../text/text-fit.js';

/**
 * The wall layout's weather row (layout-wide.ts): the icon, the temperature with the feels-like temperature and the
 * condition, the readings, and the rule below them; planned before it is drawn, so the room planner knows its height.
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
  // Whole, on as many lines as the number's height holds (its capitals to a descender below its baseline), the last
  // on its baseline; cut after a whole word only where not even that holds it ("Słabe przelotne opady śniegu").
  const fitted = desc
    ? fitText({
        text: desc,
        font: 'condensed',
        width: x + width - descX,
        height: temp.size * 0.76 + d.min * 0.24,
        maxSize: d.size,
        minSize: d.min,
        lineHeight: 1.1,
        lastLine: 'ink',
      })
    : null;
  if (fitted && fitted.lines.length > 0) {
    const top = tempBase - (fitted.lines.length - 1) * fitted.pitch - firstBaseline(0, fitted);
    sf.drawn.within('condition', () => drawFitted(sf, fitted, descX, top, ink, report));
  }
  return icon;
}

/** The weather icon's square: drawn after the garments (drawIcon), so that it is never the larger of the two. */
export interface IconPlace {
  x: number;
  y: number;
  s: number;
}

/**
 * The weather icon, no larger than the garments where they are at the type scale's size: the garments are the
 * largest thing after the temperature. Where the outfit made the row smaller than the geometry's icon (an upright
 * TRMNL X), the icon comes down with it, centred in its square; the text beside it keeps its place.
 */
export function drawIcon(sf: Surface, c: FrameContent, icon: IconPlace, report: LayoutReport): void {
  const garments = report.pictograms.length > 0 ? (report.sizes.pictogram ?? 0) : 0;
  const s = garments >= sf.scale.pictogram ? Math.min(icon.s, garments) : icon.s;
  drawConditionIcon(weatherSurface(sf), c.condition ?? 'unknown', icon.x, icon.y + (icon.s - s) / 2, s);
  report.sizes.weatherIcon = Math.round(s);
}

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
export interface WeatherPlan {
  current: CurrentPlan;
  /** Width of the readings' grid beside the current weather, px (0: below it). */
  readW: number;
  /** From the weather's top to below the rule's gap, px. */
  height: number;
}

/** The current weather's sizes in geometry `g`: the row's height for the icon, and the readings' size for feels-like. */
function currentSizes(sf: Surface, g: WideGeometry): CurrentSizes {
  const u = sf.unit;
  return { icon: g.weather.height * u, temperatureMax: g.weather.temperatureMax * u, feelsLike: readingSizeOf(sf, g) };
}

/** Where the current weather and the readings go, and the height they take with the rule below them. */
export function weatherPlan(sf: Surface, c: FrameContent, w: Weather, g: WideGeometry, s: Spacing): WeatherPlan {
  const u = sf.unit;
  const W = sf.width;
  const m = MARGIN * u;
  const rowH = g.weather.height * u;
  const readingSize = readingSizeOf(sf, g);
  const sizes = currentSizes(sf, g);
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
export function temperatureSizeOf(sf: Surface, c: FrameContent, w: Weather, g: WideGeometry): number {
  const u = sf.unit;
  const sizes = currentSizes(sf, g);
  const { current, readW } = weatherPlan(sf, c, w, g, spacing(sf, g, c, false));
  const width = sf.width - MARGIN * u - weatherLeft(sf, c) - readW - sizes.icon - 12 * u;
  if (current.feels !== 'beneath') return temperatureFit(w, temperatureBeside(sf, sizes, current.height), width);
  // Beneath: as drawCurrent sets the number a line above the feels-like temperature at the row's foot.
  const fs = sizes.feelsLike;
  const above = current.height - fs * 0.24 - fs * (0.729 + 0.3);
  return temperatureFit(w, Math.min(Math.max(sf.scale.temperature, sizes.temperatureMax), above / 0.76), width);
}

/** The current weather and the readings from `top`, and the rule below them, all but the icon. Returns its square. */
export function drawWeather(
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
  const sizes = currentSizes(sf, g);
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
