import type { GarmentId } from '../../domain/garments.js';
import type { Pictogram } from './pictogram.js';
import { pixelArt } from './pixel-art.js';
import { SMALL_GARMENT_ART } from './small-garment-art.js';

/**
 * The garments as the small panels draw them (24-32 px, held at arm's length): drawn for the pixel grid rather
 * than scaled down from the wall drawings (large-garments.ts), whose ribbing, fringes and buttons would run into
 * blobs at 2 px pens. At 24 px one grid unit is one pixel, so every point is whole and every edge falls on a pixel
 * edge. Each drawing keeps the details that tell it apart (the coat's length, the jacket's open front and lapels,
 * the raincoat's hood and belt, the sweater's round neck and ribbed bands, the folded shirt's collar and buttons,
 * the boot's heel, the sandals' straps over a sole) and exaggerates them. The garments whose details are 1 px gaps
 * are pixel art (small-garment-art.ts): a 2 px pen grows a shape by a pixel each side and closes the gap that keeps
 * a sleeve off the body or two legs apart. The rest are paths: outlines 2 px, cuts 1 px, and no two cuts closer
 * than 3 px. garment-drawings.test.ts holds every two of them apart at every size a row draws.
 */

const cut = (d: string): Pictogram[number] => ({ d, stroke: 'paper', weight: 0.5 });
const solid = (d: string): Pictogram[number] => ({ d, fill: 'ink' });
const art = (g: keyof typeof SMALL_GARMENT_ART): Pictogram[number] => pixelArt(SMALL_GARMENT_ART[g]);

export const SMALL_GARMENTS: Readonly<Record<GarmentId, Pictogram>> = {
  coat: [art('coat')],
  jacket: [art('jacket')],
  raincoat: [art('raincoat')],
  sweater: [art('sweater')],
  tshirt: [solid('M9 4 L3 7 L5 12 L7 11 V20 H17 V11 L19 12 L21 7 L15 4 Q12 7 9 4 Z')],
  shirt: [art('shirt')],
  trousers: [art('trousers')],
  shorts: [solid('M5 6 H19 L20 17 H14 L12 11 L10 17 H4 Z'), cut('M5 9 H19')],
  'dress-or-skirt': [art('dress-or-skirt')],
  boots: [art('boots')],
  'closed-shoes': [solid('M2 18 V11 L7 10 L11 12 L16 13 Q21 14 22 18 V20 H2 Z'), cut('M2 17 H22')],
  sandals: [art('sandals')],
  // Both ends hang on one side, as a scarf is worn: two ends in the middle read as a figure at this size.
  scarf: [
    solid('M2 6 Q2 2 12 2 Q22 2 22 6 Q22 10 12 10 Q2 10 2 6 Z'),
    { d: 'M7 6 Q7 4 12 4 Q17 4 17 6 Q17 7 12 7 Q7 7 7 6 Z', fill: 'paper', stroke: 'none' },
    solid('M12 9 L11 20 H15 L16 9 Z M17 9 L19 18 H22 L20 8 Z'),
    { d: 'M12 20 V23 M14 20 V23 M20 18 V21', weight: 0.5 },
  ],
  gloves: [
    solid('M8 18 V10 Q8 3 13 3 Q18 3 18 10 V18 Z M8 16 L4 12 Q3 10 5 10 L8 12'),
    solid('M7 19 H19 V23 H7 Z'),
    cut('M7 19 H19'),
  ],
  'warm-hat': [solid('M5 15 Q5 7 12 7 Q19 7 19 15 Z M3 15 H21 V20 H3 Z'), solid('O12 4 2'), cut('M3 15 H21')],
  'sun-hat': [
    solid('M7 15 Q7 7 12 7 Q17 7 17 15 Z'),
    solid('M1 16 Q12 22 23 16 Q20 14 12 15 Q4 14 1 16 Z'),
    cut('M7 12 H17'),
  ],
  sunglasses: [
    { d: 'M2 9 H10 V12 Q10 17 6 17 Q2 17 2 12 Z M14 9 H22 V12 Q22 17 18 17 Q14 17 14 12 Z', fill: 'ink' },
    { d: 'M10 10 Q12 8 14 10 M2 9 L1 6 M22 9 L23 6' },
  ],
  umbrella: [
    solid('M1 12 Q1 3 12 3 Q23 3 23 12 Q20 10 17 12 Q14 10 12 12 Q9 10 7 12 Q4 10 1 12 Z'),
    { d: 'M12 3 V1 M12 12 V20 Q12 22 9 22' },
  ],
  sunscreen: [art('sunscreen')],
};
