import type { Weather } from '../../api/schemas.js';
import { drawLine, type Box, type LayoutReport } from './blocks.js';
import { lineRoom } from '../draw/text-box.js';
import { temperatureMeaning, type Meaning } from '../draw/colour-meaning.js';
import { measure } from '../text/fonts.js';
import { recordInk } from '../text/ink-box.js';
import { formatTempShort, MISSING } from './format.js';
import type { Reading, ReadingKind } from './reading-values.js';
import { windArrow } from '../pictograms/marks.js';
import { drawPictogram, type Pictogram } from '../pictograms/pictogram.js';
import type { Surface } from '../draw/surface.js';
import { fitLine } from '../text/text-fit.js';
import { DROP, rainChanceMark, UV_SUN } from '../pictograms/weather-pictograms.js';
import type { FrameElement } from '../draw/drawn-log.js';

/**
 * The readings as pictogram + value pairs (rain chance, wind, UV, humidity), and the temperature with its unit
 * smaller than the number. A reading the response lacked shows "—" (format.ts MISSING). A value is coloured only
 * where it asks for action (colour-meaning.ts): a likely rain, a high UV index, freezing or heat.
 *
 * The weather of an outfit out of date (Surface `old`) is drawn as old, in the same place and size (the layouts'
 * room is the fresh frame's): on a grey panel faded, the temperature, readings, marks and the words beside them in a
 * lighter grey (colour-meaning.ts fadedInk); on a panel without greys the temperature's number outlined, hollow,
 * the 1-bit way to fade (a line struck through a lone "4" or "7" merged with the digit's own strokes, and a smaller
 * number would collide with the feels-like temperature the layouts set under its unit). The readings there keep their
 * ink: their strokes are too thin to hollow, and they are read from where the headline and the dashed frame are.
 */

/** Each reading's mark for a square of `size` px, and its name in the frame's JSON. */
const MARKS: Record<Exclude<ReadingKind, 'wind'>, (size: number) => { name: string; picto: Pictogram }> = {
  rain: (size) => rainChanceMark(size),
  uv: () => ({ name: 'sun', picto: UV_SUN }),
  humidity: () => ({ name: 'drop', picto: DROP }),
};

/** The frame element each reading is (drawn-log.ts). */
const ELEMENT_OF: Record<ReadingKind, FrameElement> = {
  rain: 'rain_chance',
  wind: 'wind',
  uv: 'uv',
  humidity: 'humidity',
};

/** The surface the weather is drawn on: an old outfit's faded, where the panel has a grey for it (see above). */
export function weatherSurface(sf: Surface): Surface {
  return sf.old && sf.theme.faded !== null ? { ...sf, theme: { ...sf.theme, ink: sf.theme.faded } } : sf;
}

/** The ink of the words about the weather (its condition, the feels-like temperature): faded when old (see above). */
export function weatherInk(sf: Surface): string {
  return weatherSurface(sf).theme.ink;
}

function colourOf(sf: Surface, m: Meaning | null): string {
  // Text is a stroke: only an ink that stands apart from black and paper (colour-meaning.ts).
  return (m && sf.theme.meaning[m].stroke) ?? sf.theme.ink;
}

/** One reading: its mark in a square of `mark` px, then its value at up to `size` px. Returns the width used. */
export function drawReading(
  surface: Surface,
  r: Reading,
  x: number,
  top: number,
  mark: number,
  size: number,
  maxW: number,
  report: LayoutReport,
): number {
  const sf = weatherSurface(surface);
  return sf.drawn.within(ELEMENT_OF[r.kind], () => {
    const mid = top + mark / 2;
    if (r.kind === 'wind') {
      windArrow(sf.crisp, x + mark / 2, mid, mark * 0.42, r.windFrom ?? null, sf.theme.ink);
      sf.drawn.icon(r.windFrom === null || r.windFrom === undefined ? 'ring' : 'arrow', sf.theme.ink);
    } else {
      const { name, picto } = MARKS[r.kind](mark);
      sf.drawn.icon(name, drawPictogram(sf, picto, x, top, mark, r.meaning ?? undefined));
    }
    const tx = x + mark + Math.max(3, mark * 0.18);
    const full = fitLine('condensed-bold', r.value, maxW - (tx - x), size, size * 0.85);
    const v = full.truncated && r.short ? fitLine('condensed-bold', r.short, maxW - (tx - x), size, size * 0.7) : full;
    const line = v.lines[0];
    if (!line) return mark;
    const base = Math.round(mid + v.size * 0.36);
    drawLine(sf, {
      font: 'condensed-bold',
      size: v.size,
      text: line.text,
      x: tx,
      baseline: base,
      colour: colourOf(sf, r.meaning),
      report,
    });
    return tx - x + line.width;
  });
}

/**
 * The four readings in a grid of `cols` columns in `box`: rows of mark + value, with more space between pairs
 * than within one, so that which value belongs to which mark is obvious. Returns the value size used.
 */
export function drawReadings(
  sf: Surface,
  readings: Reading[],
  box: Box,
  cols: number,
  size: number,
  report: LayoutReport,
): number {
  const rows = Math.ceil(readings.length / cols);
  const rowH = box.h / rows;
  const mark = Math.min(rowH * 0.92, size * 1.15);
  const grid = readingColumns(readings, box.w, cols, mark, size);
  readings.forEach((r, i) => {
    const col = i % cols;
    const x = box.x + grid.x[col]!;
    const top = box.y + Math.floor(i / cols) * rowH + (rowH - mark) / 2;
    drawReading(sf, r, x, top, mark, grid.size, grid.w[col]! - grid.gap, report);
  });
  return grid.size;
}

/**
 * The width the readings need in a grid of `cols` columns of `box.h` at `size`: each column as wide as its widest
 * value with its mark and gap. A layout gives what it does not need to the text beside them.
 */
export function readingsWidth(readings: readonly Reading[], height: number, cols: number, size: number): number {
  const rows = Math.ceil(readings.length / cols);
  const mark = Math.min((height / rows) * 0.92, size * 1.15);
  return Math.ceil(columnNeeds(readings, cols, mark, size, Math.floor(size)).reduce((a, b) => a + b, 0));
}

/** Each column's width at value size `s`: its mark, the gap after a pair and its widest value (in `size`'s grid). */
function columnNeeds(readings: readonly Reading[], cols: number, mark: number, size: number, s: number): number[] {
  const gap = Math.max(8, size * 0.6);
  const markW = mark + Math.max(3, mark * 0.18);
  return Array.from(
    { length: cols },
    (_, c) =>
      markW +
      gap +
      Math.max(0, ...readings.filter((_, i) => i % cols === c).map((r) => measure('condensed-bold', s, r.value))),
  );
}

/**
 * The columns' widths and one size for every value: the largest, down to 70 % of `size`, at which each value fits
 * whole with its unit ("52 km/h", not "52"), each column as wide as its widest value needs and the room left shared
 * out. Readings side by side read as one set, and a unit is worth more than a pixel of height. Where even 70 % is
 * too wide, equal columns at `size` (each value then shrinks, or drops its unit, on its own).
 */
function readingColumns(
  readings: readonly Reading[],
  width: number,
  cols: number,
  mark: number,
  size: number,
): { size: number; gap: number; x: number[]; w: number[] } {
  const gap = Math.max(8, size * 0.6);
  const at = (w: number[], s: number): { size: number; gap: number; x: number[]; w: number[] } => ({
    size: s,
    gap,
    w,
    x: w.map((_, c) => w.slice(0, c).reduce((a, b) => a + b, 0)),
  });
  for (let s = Math.floor(size); s >= Math.ceil(size * 0.7); s--) {
    const need = columnNeeds(readings, cols, mark, size, s);
    const spare = width - need.reduce((a, b) => a + b, 0);
    if (spare >= 0)
      return at(
        need.map((n) => n + spare / cols),
        Math.min(size, s),
      );
  }
  return at(
    Array.from({ length: cols }, () => width / cols),
    size,
  );
}

/**
 * The temperature: the number at up to `size` px (in its meaning's colour: freezing, cold, heat), the unit at a
 * bit under half of it, raised to the top of the digits. `baseline` is the number's. Returns the width used and the
 * number's (under the raised unit the line is free).
 */
/** The temperature's unit size, as a share of its number's. */
const UNIT_RATIO = 0.45;

/** The temperature as drawn: its number ("−4", "—") and its unit ("°C", "°", " K"; none without a number). */
export function temperatureParts(w: Weather): { number: string; unit: string } {
  const number = formatTempShort(w.temp).replace(/°$/, '');
  const u = w.temp_unit?.trim() ?? '';
  return {
    number,
    unit:
      number === MISSING ? '' : u.startsWith('°') ? u : /^[CF]$/i.test(u) ? `°${u.toUpperCase()}` : u ? ` ${u}` : '°',
  };
}

/** The width of the temperature's number and of number and unit at `size`, px (before drawTemperature shrinks it). */
export function temperatureWidths(w: Weather, size: number): { number: number; whole: number } {
  const { number, unit } = temperatureParts(w);
  const n = measure('bold', Math.round(size), number);
  return {
    number: n,
    whole: n + Math.round(size) * 0.04 + measure('bold', Math.round(Math.round(size) * UNIT_RATIO), unit),
  };
}

/** The temperature's size, px: `size`, or smaller where the number and its unit would be wider than `maxW`. */
export function temperatureFit(w: Weather, size: number, maxW: number): number {
  const { number, unit } = temperatureParts(w);
  let s = Math.round(size);
  while (s > size * 0.4 && measure('bold', s, number) + measure('bold', s * UNIT_RATIO, unit) > maxW) s--;
  return s;
}

export function drawTemperature(
  surface: Surface,
  w: Weather,
  x: number,
  baseline: number,
  size: number,
  maxW: number,
  report: LayoutReport,
): { width: number; size: number; numberWidth: number } {
  const sf = weatherSurface(surface);
  return sf.drawn.within('temperature', () => {
    const { number, unit } = temperatureParts(w);
    const unitRatio = UNIT_RATIO;
    const s = temperatureFit(w, size, maxW);
    const colour = colourOf(sf, temperatureMeaning(w.temp, w.temp_unit));
    const nw = drawLine(sf, { font: 'bold', size: s, text: number, x, baseline, colour });
    const us = Math.round(s * unitRatio);
    // 0.729 em: the top of the digits above the baseline, so the unit's top meets the number's.
    const unitX = x + nw + s * 0.04;
    const unitBase = baseline - s * 0.729 + us * 0.729;
    const uw = unit ? drawLine(sf, { font: 'bold', size: us, text: unit, x: unitX, baseline: unitBase, colour }) : 0;
    if (sf.old && sf.theme.faded === null) {
      // Old, on a panel without greys: the number outlined (TextLayer.hollow), its rim a quarter of a bold stem or less.
      // The digits' box alone: no descender below them, the unit (left solid: its strokes are too thin) after them.
      const digits = { x: x - s * 0.1, y: baseline - s * 0.8, w: nw + s * 0.12, h: s * 0.8 + 1 };
      sf.text.hollow(digits, sf.text.colourIndex(colour), Math.max(1, Math.round(s * 0.03)));
      sf.drawn.icon('hollow', colour);
    }
    // Number and unit are one item (ink-box.ts): recorded here, not by drawLine, so they are not kept apart.
    report.texts.push(`${number}${unit}`);
    const unitLine = { font: 'bold' as const, size: us, text: unit, x: unitX, baseline: Math.round(unitBase) };
    recordInk(report.inks, [
      { font: 'bold', size: s, text: number, x, baseline: Math.round(baseline) },
      ...(unit ? [unitLine] : []),
    ]);
    report.textBoxes.push({
      font: 'bold',
      size: s,
      text: number,
      x,
      baseline,
      box: lineRoom('bold', s, x, baseline, nw),
    });
    if (unit)
      report.textBoxes.push({ ...unitLine, baseline: unitBase, box: lineRoom('bold', us, unitX, unitBase, uw) });
    return { width: nw + uw, size: s, numberWidth: nw };
  });
}

/**
 * The feels-like temperature on one line in `maxW`, at `size`: in full ("Feels like −9°"), else short ("Feels −9°"),
 * else the short one cut. The figure the outfit is based on, at the readings' size on every panel. Returns the size.
 */
export function drawFeelsLike(
  surface: Surface,
  text: { full: string; short: string },
  x: number,
  baseline: number,
  size: number,
  maxW: number,
  report: LayoutReport,
): number {
  const sf = weatherSurface(surface);
  return sf.drawn.within('feels_like', () => {
    const chosen = measure('condensed-bold', size, text.full) <= maxW ? text.full : text.short;
    const line = fitLine('condensed-bold', chosen, maxW, size, size).lines[0];
    if (line)
      drawLine(sf, { font: 'condensed-bold', size, text: line.text, x, baseline, colour: sf.theme.ink, report });
    report.sizes.feelsLike = size;
    return size;
  });
}
