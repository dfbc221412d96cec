import type { GarmentId } from '../../domain/garments.js';
import type { Pictogram } from './pictogram.js';

/**
 * The garments as the small panels draw them (24-32 px, held at arm's length): drawn for the pixel grid rather
 * than scaled down from the wall drawings (large-garments.ts), whose ribbing, fringes and buttons would run into
 * blobs at 2 px pens. At 24 px one grid unit is one pixel, so every point is whole and every edge falls on a pixel
 * edge. Each drawing keeps the one detail that tells it apart (the coat's length and belt, the jacket's zip, the
 * raincoat's hood, the sweater's hem band, the shirt's collar) and exaggerates it: outlines are 2 px, cuts 1 px,
 * and no two cuts run closer than 3 px.
 */

const cut = (d: string): Pictogram[number] => ({ d, stroke: 'paper', weight: 0.5 });
const solid = (d: string): Pictogram[number] => ({ d, fill: 'ink' });

export const SMALL_GARMENTS: Readonly<Record<GarmentId, Pictogram>> = {
  coat: [solid('M8 2 L4 4 L2 16 L5 16 L6 11 L5 23 H19 L18 11 L19 16 L22 16 L20 4 L16 2 L12 8 Z'), cut('M12 9 V23')],
  jacket: [solid('M9 3 H15 V5 L20 7 L22 16 L19 16 L18 12 V18 H6 V12 L5 16 L2 16 L4 7 L9 5 Z'), cut('M12 4 V18')],
  raincoat: [
    solid('M12 3 Q8 3 8 8 L4 9 L2 17 L5 17 L6 13 V22 H18 V13 L19 17 L22 17 L20 9 L16 8 Q16 3 12 3 Z'),
    { d: 'M10 8 V6 Q10 5 12 5 Q14 5 14 6 V8 Z', fill: 'paper', stroke: 'none' },
    solid('M3 1 L4 3 V4 H2 V3 Z M21 1 L22 3 V4 H20 V3 Z'),
  ],
  sweater: [solid('M9 3 L4 5 L2 19 H5 L7 11 V21 H17 V11 L19 19 H22 L20 5 L15 3 Q12 6 9 3 Z'), cut('M7 18 H17')],
  tshirt: [solid('M9 4 L3 7 L5 12 L7 11 V20 H17 V11 L19 12 L21 7 L15 4 Q12 7 9 4 Z')],
  shirt: [
    solid('M9 3 L5 5 L3 16 L6 16 L7 10 V21 H17 V10 L18 16 L21 16 L19 5 L15 3 Z'),
    { d: 'M9 3 L12 5 L10 9 Z M15 3 L12 5 L14 9 Z', fill: 'paper', weight: 0.5 },
    { d: 'M11 12 H13 V14 H11 Z M11 17 H13 V19 H11 Z', fill: 'paper', stroke: 'none' },
  ],
  trousers: [solid('M6 2 H18 L20 22 H14 L12 10 L10 22 H4 Z'), cut('M6 5 H18')],
  shorts: [solid('M5 6 H19 L20 17 H14 L12 11 L10 17 H4 Z'), cut('M5 9 H19')],
  'dress-or-skirt': [solid('M8 7 H16 L17 10 L21 21 H3 L7 10 Z'), { d: 'M9 7 V2 M15 7 V2' }],
  boots: [solid('M5 2 H12 V13 L18 14 Q21 15 21 18 V21 H5 Z'), cut('M5 18 H21')],
  'closed-shoes': [solid('M2 18 V11 L7 10 L11 12 L16 13 Q21 14 22 18 V20 H2 Z'), cut('M2 17 H22')],
  sandals: [
    { d: 'M6 2 Q10 2 10 7 V19 Q10 22 6 22 Q3 22 3 19 V7 Q3 2 6 2 Z M18 2 Q21 2 21 7 V19 Q21 22 18 22 Q14 22 14 19 V7 Q14 2 18 2 Z' },
    { d: 'M3 8 H10 M3 15 H10 M14 8 H21 M14 15 H21', weight: 1.5 },
  ],
  // Both ends hang on one side, as a scarf is worn: two ends in the middle read as a figure at this size.
  scarf: [
    solid('M2 6 Q2 2 12 2 Q22 2 22 6 Q22 10 12 10 Q2 10 2 6 Z'),
    { d: 'M7 6 Q7 4 12 4 Q17 4 17 6 Q17 7 12 7 Q7 7 7 6 Z', fill: 'paper', stroke: 'none' },
    solid('M12 9 L11 20 H15 L16 9 Z M17 9 L19 18 H22 L20 8 Z'),
    { d: 'M12 20 V23 M14 20 V23 M20 18 V21', weight: 0.5 },
  ],
  gloves: [solid('M8 18 V10 Q8 3 13 3 Q18 3 18 10 V18 Z M8 16 L4 12 Q3 10 5 10 L8 12'), solid('M7 19 H19 V23 H7 Z'), cut('M7 19 H19')],
  'warm-hat': [solid('M5 15 Q5 7 12 7 Q19 7 19 15 Z M3 15 H21 V20 H3 Z'), solid('O12 4 2'), cut('M3 15 H21')],
  'sun-hat': [solid('M7 15 Q7 7 12 7 Q17 7 17 15 Z'), solid('M1 16 Q12 22 23 16 Q20 14 12 15 Q4 14 1 16 Z'), cut('M7 12 H17')],
  sunglasses: [
    { d: 'M2 9 H10 V12 Q10 17 6 17 Q2 17 2 12 Z M14 9 H22 V12 Q22 17 18 17 Q14 17 14 12 Z', fill: 'ink' },
    { d: 'M10 10 Q12 8 14 10 M2 9 L1 6 M22 9 L23 6' },
  ],
  umbrella: [solid('M1 12 Q1 3 12 3 Q23 3 23 12 Q20 10 17 12 Q14 10 12 12 Q9 10 7 12 Q4 10 1 12 Z'), { d: 'M12 3 V1 M12 12 V20 Q12 22 9 22' }],
  sunscreen: [solid('M7 9 H17 V21 Q17 22 16 22 H8 Q7 22 7 21 Z'), solid('M9 2 H15 V6 H9 Z'), { d: 'M10 14 H14 V17 H10 Z', fill: 'paper', stroke: 'none' }],
};
