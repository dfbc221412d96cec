import type { GarmentId } from '../../domain/garments.js';
import type { Pictogram } from './pictogram.js';
import { pixelArt } from './pixel-art.js';

/**
 * The garments as the small panels draw them (24-32 px, held at arm's length): drawn for the pixel grid rather
 * than scaled down from the wall drawings (large-garments.ts), whose ribbing, fringes and buttons would run into
 * blobs at 2 px pens. At 24 px one grid unit is one pixel, so every point is whole and every edge falls on a pixel
 * edge. Each drawing keeps the details that tell it apart (the coat's length, the jacket's open front and lapels,
 * the raincoat's hood and belt, the sweater's round neck and ribbed bands, the shirt's collar and buttons) and
 * exaggerates them. The garments with sleeves, and the others that read alike at 24 px (the sweater as a
 * blob, the jacket as a dome, the raincoat as a bag, the sunscreen as a box), are pixel art (pixel-art.ts): a 2 px
 * pen grows a shape by a pixel each side and closes the 1 px gap that keeps a sleeve off the body. The rest are
 * paths: outlines 2 px, cuts 1 px, and no two cuts closer than 3 px. garment-drawings.test.ts holds every two of
 * them apart at 24 px.
 */

const cut = (d: string): Pictogram[number] => ({ d, stroke: 'paper', weight: 0.5 });
const solid = (d: string): Pictogram[number] => ({ d, fill: 'ink' });

export const SMALL_GARMENTS: Readonly<Record<GarmentId, Pictogram>> = {
  coat: [solid('M8 2 L4 4 L2 16 L5 16 L6 11 L5 23 H19 L18 11 L19 16 L22 16 L20 4 L16 2 L12 8 Z'), cut('M12 9 V23')],
  // To the hip with a straight hem and a waistband; open down the front (the zip), the lapels cut out of the chest
  // beside the V of the neck, and sleeves clear of the body: square, where the old round one read as a dome.
  jacket: [
    pixelArt([
      '',
      '',
      '.....###.......###......',
      '...###.##.....##.###....',
      '.######.##...##.######..',
      '.#######.#...#.#######..',
      '.########.#.#.########..',
      '###.######...######.###.',
      '###.#######.#######.###.',
      '###.#######.#######.###.',
      '###.#######.#######.###.',
      '###.#######.#######.###.',
      '###.#######.#######.###.',
      '###.#######.#######.###.',
      '###.#######.#######.###.',
      '###.#######.#######.###.',
      '###.................###.',
      '###.#######.#######.###.',
      '###.#######.#######.###.',
    ]),
  ],
  // A hood round an open face, a belt, and a hem below the knee that flares: the old hood on a short body read as
  // a bag and its handle. Drops either side of the hood say rain.
  raincoat: [
    pixelArt([
      '.#...................#..',
      '.#.......#####.......#..',
      '###....#########....###.',
      '###...###.....###...###.',
      '.#....##.......##....#..',
      '......##.......##.......',
      '......###.....###.......',
      '....###############.....',
      '..###################...',
      '.###.#############.###..',
      '.###.#############.###..',
      '.###.#############.###..',
      '.###...............###..',
      '.###.#############.###..',
      '.###...............###..',
      '.###.#############.###..',
      '....###############.....',
      '....###############.....',
      '...#################....',
      '...#################....',
      '...#################....',
      '..###################...',
      '..###################...',
    ]),
  ],
  // Pixel art (pixel-art.ts): a 1 px gap keeps each sleeve off the body, which a 2 px pen would close into a blob.
  // A round neck and no opening; the cuffs and the hem band set off by a 1 px line, the band ribbed.
  sweater: [
    pixelArt([
      '',
      '',
      '.....####.....####......',
      '....#####.....#####.....',
      '...#######...#######....',
      '..###################...',
      '.####.###########.####..',
      '.###..###########..###..',
      '.###..###########..###..',
      '.###..###########..###..',
      '###...###########...###.',
      '###...###########...###.',
      '###...###########...###.',
      '###...###########...###.',
      '###...###########...###.',
      '###...###########...###.',
      '......###########.......',
      '###...###########...###.',
      '###...###########...###.',
      '',
      '.......#.##.##.#........',
      '.......#.##.##.#........',
      '.......#.##.##.#........',
    ]),
  ],
  tshirt: [solid('M9 4 L3 7 L5 12 L7 11 V20 H17 V11 L19 12 L21 7 L15 4 Q12 7 9 4 Z')],
  // White collar points either side of the placket, buttons down it, long sleeves clear of the body with cuffs,
  // and the rounded tails of the hem.
  shirt: [
    pixelArt([
      '',
      '',
      '.....#####...#####......',
      '....###....#....###.....',
      '...#####...#...#####....',
      '..#######..#..#######...',
      '.#########.#.#########..',
      '.###.#############.###..',
      '.###.#############.###..',
      '.###.######.######.###..',
      '.###.#############.###..',
      '.###.#############.###..',
      '.###.######.######.###..',
      '.###.#############.###..',
      '.###.#############.###..',
      '.....######.######......',
      '.###.#############.###..',
      '.###.#############.###..',
      '.....######.######......',
      '.....#############......',
      '......###########.......',
      '.......#########........',
    ]),
  ],
  // A waistband, and two legs apart from the crotch down: with a 2 px pen the legs closed into a block.
  trousers: [
    pixelArt([
      '',
      '.....#############......',
      '.....#############......',
      '',
      '.....#############......',
      '.....#############......',
      '.....#############......',
      '.....#############......',
      '.....######.######......',
      '.....#####...#####......',
      '.....#####...#####......',
      '.....#####...#####......',
      '....######...######.....',
      '....######...######.....',
      '....######...######.....',
      '....######...######.....',
      '....######...######.....',
      '....#####.....#####.....',
      '....#####.....#####.....',
      '....#####.....#####.....',
      '....#####.....#####.....',
      '....#####.....#####.....',
      '....#####.....#####.....',
    ]),
  ],
  shorts: [solid('M5 6 H19 L20 17 H14 L12 11 L10 17 H4 Z'), cut('M5 9 H19')],
  // Straps, a fitted bodice, a narrow waist and a skirt that flares: a waist is what a hat or trousers lack.
  'dress-or-skirt': [
    pixelArt([
      '',
      '........#.....#.........',
      '........#.....#.........',
      '........#.....#.........',
      '.......#########........',
      '.......#########........',
      '.......#########........',
      '.......#########........',
      '........#######.........',
      '........#######.........',
      '.......#########........',
      '.......#########........',
      '......###########.......',
      '......###########.......',
      '.....#############......',
      '.....#############......',
      '....###############.....',
      '....###############.....',
      '...#################....',
      '...#################....',
      '..###################...',
      '..###################...',
    ]),
  ],
  boots: [solid('M5 2 H12 V13 L18 14 Q21 15 21 18 V21 H5 Z'), cut('M5 18 H21')],
  'closed-shoes': [solid('M2 18 V11 L7 10 L11 12 L16 13 Q21 14 22 18 V20 H2 Z'), cut('M2 17 H22')],
  sandals: [
    {
      d: 'M6 2 Q10 2 10 7 V19 Q10 22 6 22 Q3 22 3 19 V7 Q3 2 6 2 Z M18 2 Q21 2 21 7 V19 Q21 22 18 22 Q14 22 14 19 V7 Q14 2 18 2 Z',
    },
    { d: 'M3 8 H10 M3 15 H10 M14 8 H21 M14 15 H21', weight: 1.5 },
  ],
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
  // A tube standing on its cap, its sealed end crimped across the top, a sun cut out of it: the bottle and label
  // before read as a box.
  sunscreen: [
    pixelArt([
      '',
      '.....#.#.#.#.#.#.#......',
      '.....#############......',
      '',
      '......###########.......',
      '......###########.......',
      '......#####.#####.......',
      '......###.###.###.......',
      '......####...####.......',
      '......##.#...#.##.......',
      '......####...####.......',
      '......###.###.###.......',
      '......#####.#####.......',
      '......###########.......',
      '......###########.......',
      '.......#########........',
      '........#######.........',
      '........#######.........',
      '',
      '.......#########........',
      '.......#########........',
      '.......#########........',
      '.......#########........',
    ]),
  ],
};
