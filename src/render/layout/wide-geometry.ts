import type { FrameContent } from './content.js';
import type { Surface } from '../draw/surface.js';

/**
 * The wall layout's geometry (layout-wide.ts): the numbers that set landscape and portrait apart, the side margin, and
 * the spacing a step of the room planner (wide-room.ts) keeps or closes up.
 */

/** Where the readings go: beside the current weather (landscape), or in a row of their own below it (portrait). */
export type ReadingsPlace =
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
export interface WideGeometry {
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

export const GEOMETRY: Record<WideGeometry['layout'], WideGeometry> = {
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
export const oldFrameAt = (sf: Surface): number => sf.scale.margin;

/** Side margin, units. */
export const MARGIN = 16;
/** The gaps a step's spacing leaves between the blocks, in units, and the readings' row height (portrait), px. */
export interface Spacing {
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
export function spacing(sf: Surface, g: WideGeometry, c: FrameContent, tight: boolean): Spacing {
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

/** The readings' size, px: the type scale's, or the geometry's smallest where that is larger. */
export const readingSizeOf = (sf: Surface, g: WideGeometry): number =>
  Math.max(sf.scale.reading, g.weather.readingMin * sf.unit);
