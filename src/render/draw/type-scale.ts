/**
 * The type scale: text sizes from how far away a frame is read and how dense its panel's pixels are, so that a
 * word is as legible on a 300 ppi Kindle as on a 124 ppi 7.5" panel. What the eye resolves is the height of the
 * capitals (DejaVu: 0.729 em); normal sight resolves about 5 arc minutes, comfortable reading needs about 15.
 * Sizes here are the font's em in px. Layouts take the minimums from the scale and the maximums from their boxes.
 */

/** Capital height of the DejaVu faces, in em. */
const CAP_HEIGHT_EM = 0.729;

/** Wall panels (7.5", TRMNL, Inkplate, Kindle) are read in passing from 2 m; small ones (4.2" and below) at arm's length. */
export type Viewing = 'wall' | 'hand';

export const VIEWING_DISTANCE_MM: Readonly<Record<Viewing, number>> = { wall: 2000, hand: 500 };

/** Arc minutes that each role's capitals subtend at the viewing distance. */
export interface ArcScale {
  /** The outfit is never below this (the first sentence of a long outfit included). */
  outfit: number;
  /** The rest of an outfit too long for `outfit`: shrunk down to this, then cut. */
  outfitRest: number;
  /** Values of the readings (rain chance, wind, UV, humidity). */
  reading: number;
  /** The temperature's number. */
  temperature: number;
  /** The reasoning, when it is shown at all. */
  reasoning: number;
}

const ARC_SCALES: Readonly<Record<Viewing, ArcScale>> = {
  wall: { outfit: 10, outfitRest: 6, reading: 7.7, temperature: 16, reasoning: 5 },
  hand: { outfit: 12, outfitRest: 10, reading: 10, temperature: 24, reasoning: 9 },
};

/**
 * Arc minutes that a garment pictogram (its whole square) subtends at the viewing distance: what to wear is the
 * frame's focal point, so the row is drawn larger than anything but the temperature (30′ is 86 px on a 124 ppi
 * 7.5" seen from 2 m). A row of more garments than fit at this size shrinks, down to the layout's minimum.
 */
const PICTOGRAM_ARC: Readonly<Record<Viewing, number>> = { wall: 30, hand: 30 };

/**
 * The frame's margin, arc minutes at the viewing distance: the least clear space between any ink and the panel's edge
 * or a rule (a line that divides the frame, the dashed frame of an old outfit). The 1′ that normal sight resolves, so
 * the gap is seen as one from where the panel is read (7 px on the Kindle from 2 m, 5 px on the TRMNL X).
 */
const MARGIN_ARC = 1;
/**
 * The margin is never below this many px (the 7.5" and the small panels): a line a pixel or two from a letter reads
 * as one of its strokes (a dash beside a word as "|"), and a panel's outermost rows may lie under its bezel.
 */
const MARGIN_MIN_PX = 3;

/** Never below this many px, whatever the arithmetic says: our 1-bit glyphs need the pixels. */
const MIN_TEXT_PX = 11;

/** Arc minutes subtended by a length of `px` on a `ppi` panel seen from `distanceMm`. */
export function arcMinutes(px: number, ppi: number, distanceMm: number): number {
  return (Math.atan((px * 25.4) / ppi / distanceMm) * 180 * 60) / Math.PI;
}

/** Arc minutes subtended by the capitals of text `sizePx` high on a `ppi` panel seen from `distanceMm`. */
export function capArcMinutes(sizePx: number, ppi: number, distanceMm: number): number {
  return arcMinutes(sizePx * CAP_HEIGHT_EM, ppi, distanceMm);
}

/** The length, px (fractional), that subtends `minutes` on a `ppi` panel seen from `distanceMm`: arcMinutes' inverse. */
function pxForArc(minutes: number, ppi: number, distanceMm: number): number {
  const mm = Math.tan((minutes / 60) * (Math.PI / 180)) * distanceMm;
  return (mm * ppi) / 25.4;
}

/** The smallest whole px size whose capitals subtend at least `minutes` (never below MIN_TEXT_PX). */
export function sizeForArc(minutes: number, ppi: number, distanceMm: number): number {
  return Math.max(MIN_TEXT_PX, Math.ceil(pxForArc(minutes, ppi, distanceMm) / CAP_HEIGHT_EM - 1e-9));
}

/** Sizes in px for one panel and viewing. */
export interface TypeScale {
  viewing: Viewing;
  distanceMm: number;
  ppi: number;
  outfit: number;
  outfitRest: number;
  reading: number;
  temperature: number;
  reasoning: number;
  /** A garment pictogram's side, px (PICTOGRAM_ARC). */
  pictogram: number;
  /** The frame's margin, px (MARGIN_ARC, at least MARGIN_MIN_PX): no ink nearer the panel's edge or a rule. */
  margin: number;
}

export function typeScale(viewing: Viewing, ppi: number): TypeScale {
  const d = VIEWING_DISTANCE_MM[viewing];
  const arc = ARC_SCALES[viewing];
  const px = (m: number): number => sizeForArc(m, ppi, d);
  return {
    viewing,
    distanceMm: d,
    ppi,
    outfit: px(arc.outfit),
    outfitRest: px(arc.outfitRest),
    reading: px(arc.reading),
    temperature: px(arc.temperature),
    reasoning: px(arc.reasoning),
    pictogram: Math.ceil(pxForArc(PICTOGRAM_ARC[viewing], ppi, d) - 1e-9),
    margin: Math.max(MARGIN_MIN_PX, Math.round(pxForArc(MARGIN_ARC, ppi, d))),
  };
}
