import type { Meaning } from '../draw/colour-meaning.js';
import type { GarmentId } from '../../domain/garments.js';
import type { Pictogram } from './pictogram.js';

/**
 * One pictogram a garment, on the 24x24 grid of picto-path.ts, and the meaning whose colour it is drawn in on
 * colour panels (cold-weather wear blue, rain wear blue, sun protection orange; the rest black). Shapes are
 * chosen to stay apart at 2 m: long coat vs short jacket vs hooded raincoat, collar and buttons for the shirt.
 */

export interface GarmentPictogram {
  picto: Pictogram;
  meaning: Meaning | null;
}

const UMBRELLA: Pictogram = [
  { d: 'M2 12 Q2 3 12 3 Q22 3 22 12 Q19.5 10 17 12 Q14.5 10 12 12 Q9.5 10 7 12 Q4.5 10 2 12 Z', fill: 'rain' },
  { d: 'M12 3 V2 M12 12 V19.5 Q12 22 9.5 21.5' },
];

export const GARMENT_PICTOGRAMS: Readonly<Record<GarmentId, GarmentPictogram>> = {
  coat: {
    meaning: 'cold',
    picto: [
      { d: 'M8 2 L4.5 4 L2.5 13 L5 14 L6 10 V22 H18 V10 L19 14 L21.5 13 L19.5 4 L16 2 L12 7 Z' },
      { d: 'M12 7 V22 M6 15 H18' },
    ],
  },
  jacket: {
    meaning: null,
    picto: [
      { d: 'M8 4 L4.5 6 L2.5 14 L5 15 L6 11 V19 H18 V11 L19 15 L21.5 14 L19.5 6 L16 4 L12 8 Z' },
      { d: 'M12 8 V19 M6 17 H18' },
    ],
  },
  raincoat: {
    meaning: 'rain',
    picto: [
      { d: 'M8.5 6 Q8.5 1.5 12 1.5 Q15.5 1.5 15.5 6' },
      { d: 'M8.5 5 L5 6.5 L2.5 15 L5 16 L6 12 V22 H18 V12 L19 16 L21.5 15 L19 6.5 L15.5 5 L12 8 Z' },
      { d: 'M12 8 V22' },
    ],
  },
  sweater: {
    meaning: null,
    picto: [
      { d: 'M8.5 3 L4.5 5 L2 17 H5 L6.5 10 V21 H17.5 V10 L19 17 H22 L19.5 5 L15.5 3 Q12 6 8.5 3 Z' },
      { d: 'M6.5 18.5 H17.5 M2.5 14.5 H5.5 M18.5 14.5 H21.5' },
    ],
  },
  tshirt: {
    meaning: null,
    picto: [{ d: 'M8.5 4 L3 7 L5 11.5 L7 10.5 V20 H17 V10.5 L19 11.5 L21 7 L15.5 4 Q12 7.5 8.5 4 Z' }],
  },
  shirt: {
    meaning: null,
    picto: [
      { d: 'M8.5 3 L4.5 5 L2.5 15 L5 15.5 L6.5 10 V21 H17.5 V10 L19 15.5 L21.5 15 L19.5 5 L15.5 3 Z' },
      { d: 'M8.5 3 L10 7.5 L12 5 L14 7.5 L15.5 3 M12 5 V21' },
      { d: 'O12 11 0.5 O12 15 0.5 O12 19 0.5', fill: 'ink' },
    ],
  },
  trousers: {
    meaning: null,
    picto: [{ d: 'M6 2 H18 L19.5 22 H14 L12 9 L10 22 H4.5 Z' }, { d: 'M6 5 H18' }],
  },
  shorts: {
    meaning: null,
    picto: [{ d: 'M5 5 H19 L20.5 17 H14 L12 10.5 L10 17 H3.5 Z' }, { d: 'M5 8 H19' }],
  },
  'dress-or-skirt': {
    meaning: null,
    picto: [{ d: 'M9 2 V6 L7 10 L3.5 21.5 H20.5 L17 10 L15 6 V2 M9 6 H15 M7 10 H17' }],
  },
  boots: {
    meaning: null,
    picto: [{ d: 'M5 2 H12 V13 L18.5 14.5 Q21.5 15.5 21.5 18.5 V21.5 H5 Z' }, { d: 'M5 18.5 H21.5 M5 6 H12' }],
  },
  'closed-shoes': {
    meaning: null,
    picto: [
      { d: 'M2 18 V11 L7 10 L10.5 12.5 L16 13.5 Q21.5 14.5 22 18 V20 H2 Z' },
      { d: 'M2 17 H22 M8.5 11.5 L10 14.5 M11 13 L12.5 15' },
    ],
  },
  sandals: {
    meaning: null,
    picto: [
      { d: 'M2.5 18 Q2.5 16 5 16 H19.5 Q22 16 22 18 V19.5 H2.5 Z' },
      { d: 'M6 16 Q7 9 10.5 16 M12 16 L15 10.5 L18 16' },
    ],
  },
  scarf: {
    meaning: 'cold',
    picto: [
      { d: 'M5.5 3 H18.5 V9 Q12 11.5 5.5 9 Z' },
      { d: 'M12 10.5 L13.5 20 H18.5 L16.5 10 M14 20 V22.5 M16 20 V22.5 M18 20 V22.5' },
    ],
  },
  gloves: {
    meaning: 'cold',
    picto: [
      { d: 'M8 21 V10.5 Q8 4 13 4 Q18 4 18 10 V21 Z' },
      { d: 'M8 15 L5.5 11.5 Q3.5 10 3.5 12.5 Q4 15 8 18.5 M8 18 H18' },
    ],
  },
  'warm-hat': {
    meaning: 'cold',
    picto: [
      { d: 'M4.5 16 Q4.5 7 12 7 Q19.5 7 19.5 16' },
      { d: 'M3 16 H21 V20.5 H3 Z' },
      { d: 'O12 4.5 2.5' },
    ],
  },
  'sun-hat': {
    meaning: 'uv',
    picto: [
      { d: 'M7 15 Q7 7.5 12 7.5 Q17 7.5 17 15' },
      { d: 'M1.5 16 Q12 21.5 22.5 16 Q20 14 7 15 Q3 15 1.5 16 Z M7 12.5 H17' },
    ],
  },
  sunglasses: {
    meaning: 'uv',
    picto: [
      { d: 'M2.5 10 H10.5 V13 Q10.5 17 6.5 17 Q2.5 17 2.5 13 Z M13.5 10 H21.5 V13 Q21.5 17 17.5 17 Q13.5 17 13.5 13 Z', fill: 'ink', stroke: 'none' },
      { d: 'M10.5 11 Q12 9.5 13.5 11 M2.5 10 L1 7.5 M21.5 10 L23 7.5' },
    ],
  },
  umbrella: { meaning: 'rain', picto: UMBRELLA },
  sunscreen: {
    meaning: 'uv',
    picto: [
      { d: 'M7.5 8.5 H16.5 V20.5 Q16.5 22 15 22 H9 Q7.5 22 7.5 20.5 Z' },
      { d: 'M9.5 3 H14.5 V8.5 H9.5 Z' },
      { d: 'O12 15 2.5', fill: 'uv' },
    ],
  },
};

/** "Nothing extra needed": a tick in a circle, green where the panel has green. */
export const NOTHING_EXTRA: GarmentPictogram = { meaning: 'ok', picto: [{ d: 'O12 12 9.5' }, { d: 'M7 12.5 L10.5 16 L17 8.5', weight: 1.3 }] };

/** The umbrella alone, for the rain-chance reading. */
export { UMBRELLA };

