import type { GarmentId } from '../../domain/garments.js';
import type { Pictogram } from './pictogram.js';

/**
 * The garments as the wall panels draw them (40 px and up, 86 px at the row's full size on a 7.5"): solid
 * silhouettes on the 24x24 grid of picto-path.ts, with their telling details cut out in paper, because a filled
 * shape is what the eye picks out at 2 m and an outline of the same size is not. Each garment is told by its
 * shape alone, without a label:
 * - coat: down to the knee, lapels in a deep V; jacket: to the hip, a stand collar, a zip, slant pockets, cuffs and
 *   a waistband, its sleeves clear of the body at the cuff; raincoat: a hood with the face open, and drops beside
 *   it; sweater: no opening, ribbed hem and cuffs; t-shirt: short sleeves.
 * - the shirt folded, as it is sold: a collar round the neck with two white points, buttons, no sleeves. Worn, with
 *   sleeves, lapel-like collar points and a boxy body, it read as a blazer beside the jacket.
 * - boots: a cuff, laces, and a heel with the arch open before it; sandals from the side like the other shoes, but
 *   open: a sole and straps with the foot's room between them.
 * - the scarf wrapped: a loop and two fringed ends hanging on one side, as at 24 px (two ends in the middle made it
 *   a T-shirt's shoulders and body); gloves: a mitten with thumb and ribbed cuff.
 * Paper details are drawn at 0.7 of the pen: at 86 px a 4 px cut, 1.4′ at 2 m, which the eye still resolves.
 */

/** A detail cut out of a silhouette. */
const cut = (d: string, weight = 0.7): Pictogram[number] => ({ d, stroke: 'paper', weight });
/** A solid part. */
const solid = (d: string): Pictogram[number] => ({ d, fill: 'ink' });

const DROP = (x: number, y: number): string =>
  `M${x} ${y} Q${x + 1.7} ${y + 2.6} ${x + 1.7} ${y + 3.6} Q${x + 1.7} ${y + 5.3} ${x} ${y + 5.3} Q${x - 1.7} ${y + 5.3} ${x - 1.7} ${y + 3.6} Q${x - 1.7} ${y + 2.6} ${x} ${y} Z`;

export const LARGE_GARMENTS: Readonly<Record<GarmentId, Pictogram>> = {
  coat: [
    solid('M8 1.5 L4 3.5 L2 15.5 L4.8 16 L6.2 10.5 L5 22.5 H19 L17.8 10.5 L19.2 16 L22 15.5 L20 3.5 L16 1.5 L12 8 Z'),
    cut('M8.6 2.4 L10.4 10 L12 8.6 M15.4 2.4 L13.6 10 L12 8.6 M12 9 V22.5'),
    cut('M7.2 16.2 H9.6 M14.4 16.2 H16.8', 0.6),
  ],
  jacket: [
    solid(
      'M8.2 5.6 L8.6 3.2 H15.4 L15.8 5.6 L19.4 6.8 L22.6 18 H19.6 L17.4 11.5 L17.2 19 H6.8 L6.6 11.5 L4.4 18 H1.4 L4.6 6.8 Z',
    ),
    cut('M12 3.6 V19 M7 16.4 H17 M1.8 15.6 H5 M19 15.6 H22.2'),
    cut('M8.6 14 L9.8 11 M15.4 14 L14.2 11', 0.5),
  ],
  raincoat: [
    solid(
      'M12 1.5 Q6.6 1.5 6.6 8.5 L4.2 9.5 L2.2 17.5 L4.8 18 L6.2 13 L5.8 22.5 H18.2 L17.8 13 L19.2 18 L21.8 17.5 L19.8 9.5 L17.4 8.5 Q17.4 1.5 12 1.5 Z',
    ),
    { d: 'M9.2 8 Q9.2 4 12 4 Q14.8 4 14.8 8 Q14.8 11 12 11 Q9.2 11 9.2 8 Z', fill: 'paper', stroke: 'none' },
    cut('M12 12.6 V22.5'),
    solid(DROP(2.4, 1.2)),
    solid(DROP(21.6, 1.2)),
  ],
  sweater: [
    solid('M8.5 3 L4 5 L1.5 19.5 H5.5 L6.5 11 V21.5 H17.5 V11 L18.5 19.5 H22.5 L20 5 L15.5 3 Q12 6.5 8.5 3 Z'),
    cut('M6.5 18.6 H17.5 M1.9 17 H5.8 M18.2 17 H22.1'),
    cut('M9 19 V21.5 M12 19 V21.5 M15 19 V21.5', 0.5),
  ],
  tshirt: [solid('M8.5 4 L3 7 L5 11.5 L7 10.5 V20 H17 V10.5 L19 11.5 L21 7 L15.5 4 Q12 7.5 8.5 4 Z')],
  shirt: [
    solid('M4.5 7 Q4.5 4.5 7 4 L9 3 H15 L17 4 Q19.5 4.5 19.5 7 V18.5 Q19.5 20 18 20 H6 Q4.5 20 4.5 18.5 Z'),
    solid('M7.8 5 Q7.8 1.2 12 1.2 Q16.2 1.2 16.2 5 Z'),
    { d: 'M9.6 4.2 Q9.6 2.8 12 2.8 Q14.4 2.8 14.4 4.2 Q14.4 5 12 5 Q9.6 5 9.6 4.2 Z', fill: 'paper', stroke: 'none' },
    { d: 'M11.4 6.6 L7.8 4.4 L8.8 10.2 Z M12.6 6.6 L16.2 4.4 L15.2 10.2 Z', fill: 'paper', stroke: 'none' },
    { d: 'O12 12.4 0.95 O12 15.6 0.95 O12 18.8 0.95', fill: 'paper', stroke: 'none' },
  ],
  trousers: [solid('M6 2 H18 L19.5 22.5 H14 L12 9.5 L10 22.5 H4.5 Z'), cut('M6.2 5 H17.8 M12 5.5 V8', 0.6)],
  shorts: [solid('M5 5 H19 L20.5 17 H14 L12 10.5 L10 17 H3.5 Z'), cut('M5.2 8 H18.8', 0.6)],
  'dress-or-skirt': [
    solid('M8.5 6.5 H15.5 L16.5 10 L20.5 21.5 H3.5 L7.5 10 Z'),
    { d: 'M9.3 6.5 L9.8 2 M14.7 6.5 L14.2 2' },
    cut('M7.8 10 H16.2', 0.6),
  ],
  boots: [
    solid('M4.5 1.5 H13.5 V4.5 H13 V12.5 L18.5 14 Q22 15 22 18.5 V20 H10.5 V22.5 H5 V4.5 H4.5 Z'),
    cut('M5.5 18.2 H21.4 M5 5 H13', 0.6),
    cut('M10 8 H12.6 M10 11 H12.6', 0.5),
  ],
  'closed-shoes': [
    solid('M2 18.5 V11 L7 10 L10.5 12.5 L16 13.5 Q21.5 14.5 22 18.5 V20 H2 Z'),
    cut('M2.5 17.4 H21.5', 0.6),
    cut('M9 12.2 L10 14.8 M11.6 13.1 L12.4 15.3', 0.5),
  ],
  // From the side, as the other shoes are: a thick sole, and the straps over an open foot (heel strap, one across
  // the instep to the ankle, one over the toes), solid like the rest. Outlined soles seen from above read as
  // footprints among the solid pictograms.
  sandals: [
    solid('M1.5 17 H20.5 Q23 17 23 19.2 Q23 21.5 20.5 21.5 H3.5 Q1.5 21.5 1.5 19.5 Z'),
    { d: 'M3.4 17 Q3 8.6 7.4 8.6 Q9.6 8.6 10.4 11.5 L12.6 17', weight: 1.4 },
    solid('M15.4 17 Q16 12.6 19 12.6 Q22 12.6 22.6 17 Z'),
    cut('M2.4 19.4 H22.2', 0.5),
  ],
  scarf: [
    solid('M3.5 3.5 Q12 9 20.5 3.5 V8 Q12 13.5 3.5 8 Z'),
    solid('M12.6 10.6 L11.4 20.5 H16 L16.4 10 Z'),
    solid('M16.8 9.4 L18.4 18.5 H22.6 L20.2 8 Z'),
    cut('M12.6 11.2 Q15 11.6 16.8 10.2', 0.6),
    { d: 'M12.2 20.5 V23 M13.9 20.5 V23 M15.6 20.5 V23 M19.2 18.5 V21 M20.9 18.5 V21 M22.4 18.5 V21', weight: 0.5 },
  ],
  gloves: [
    solid('M7.5 19 V10 Q7.5 3 13 3 Q18.5 3 18.5 10 V19 Z'),
    solid('M7.6 17 L3.6 12.6 Q2.6 11.2 3.8 10.2 Q4.9 9.4 6 10.4 L7.6 12'),
    solid('M7 19 H19 V23 H7 Z'),
    cut('M7.2 19.1 H18.8 M7.9 12.6 V16.4', 0.6),
    cut('M10 20.4 V22.4 M13 20.4 V22.4 M16 20.4 V22.4', 0.5),
  ],
  'warm-hat': [
    solid('M4.5 15.5 Q4.5 6.5 12 6.5 Q19.5 6.5 19.5 15.5 Z'),
    solid('M3 15.5 H21 V20.5 H3 Z'),
    solid('O12 4 2.4'),
    cut('M3.5 15.5 H20.5', 0.6),
    cut('M7 17 V19 M10.3 17 V19 M13.7 17 V19 M17 17 V19', 0.5),
  ],
  'sun-hat': [
    solid('M7 15 Q7 7 12 7 Q17 7 17 15 Z'),
    solid('M1.5 16 Q12 21.5 22.5 16 Q20 14 12 14.5 Q4 14 1.5 16 Z'),
    cut('M7.4 12.4 H16.6', 0.6),
  ],
  sunglasses: [
    {
      d: 'M2.5 9.5 H10.5 V12.5 Q10.5 17 6.5 17 Q2.5 17 2.5 12.5 Z M13.5 9.5 H21.5 V12.5 Q21.5 17 17.5 17 Q13.5 17 13.5 12.5 Z',
      fill: 'ink',
    },
    { d: 'M10.5 10.5 Q12 9 13.5 10.5 M2.5 9.5 L1 7 M21.5 9.5 L23 7' },
  ],
  umbrella: [
    solid(
      'M1.5 12.5 Q1.5 3 12 3 Q22.5 3 22.5 12.5 Q19.8 10.4 17.2 12.5 Q14.6 10.4 12 12.5 Q9.4 10.4 6.8 12.5 Q4.2 10.4 1.5 12.5 Z',
    ),
    { d: 'M12 3 V1.5 M12 12.5 V19.5 Q12 22.3 9.3 21.8' },
  ],
  sunscreen: [
    solid('M7.5 9 H16.5 V20.5 Q16.5 22 15 22 H9 Q7.5 22 7.5 20.5 Z'),
    solid('M9.5 2.5 H14.5 V6.8 H9.5 Z'),
    // Its stroke in ink, on the ink bottle: a yellow disc on the 7-colour panel meets ink, never paper.
    { d: 'O12 15.5 3', fill: 'uv', weight: 0.6 },
  ],
};
