import { GARMENT_IDS, type GarmentId } from '../../domain/garments.js';
import { LARGE_GARMENTS } from './large-garments.js';
import type { Pictogram } from './pictogram.js';
import { SMALL_GARMENTS } from './small-garments.js';

/**
 * Each garment's pictograms, drawn in ink on every panel (a garment's meaning is the garment: colour-meaning.ts). Two
 * drawings a garment: one for the wall panels (large-garments.ts) and one made for 24-32 px on the small panels'
 * pixel grid (small-garments.ts), because a large drawing scaled down loses its details into blobs.
 */

export interface GarmentPictogram {
  /** The drawing for 40 px and up. */
  picto: Pictogram;
  /** The drawing for below SMALL_BELOW px; the same as `picto` where one drawing serves both. */
  small: Pictogram;
}

/** Below this size (px) a row draws the small drawings. */
export const SMALL_BELOW = 40;

/** The drawing of `g` for a pictogram `size` px square. */
export function drawingFor(g: GarmentPictogram, size: number): Pictogram {
  return size < SMALL_BELOW ? g.small : g.picto;
}

export const GARMENT_PICTOGRAMS: Readonly<Record<GarmentId, GarmentPictogram>> = Object.fromEntries(
  GARMENT_IDS.map((id) => [id, { picto: LARGE_GARMENTS[id], small: SMALL_GARMENTS[id] }]),
) as Record<GarmentId, GarmentPictogram>;

/** "Nothing extra needed": a tick in a circle, in ink as the garments are. */
const TICK: Pictogram = [{ d: 'O12 12 9.5' }, { d: 'M7 12.5 L10.5 16 L17 8.5', weight: 1.3 }];
export const NOTHING_EXTRA: GarmentPictogram = { picto: TICK, small: TICK };
