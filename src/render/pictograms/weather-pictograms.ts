import type { Condition } from '../../domain/condition.js';
import { placed, type Pictogram } from './pictogram.js';

/**
 * Weather pictograms in the garments' line-art style (24x24 grid, picto-path.ts): one per condition of
 * src/domain/condition.ts, and the marks of the readings. Black line art (a cloud is white inside, so it hides what
 * it covers): a sky asks for no action. The parts filled with a meaning (the sun's disc, the UV mark's) are where
 * a tint puts a fill ink (pictogram.ts), as the UV mark's disc turns yellow at a high UV index on the 7.3" F.
 */

const SUN: Pictogram = [
  { d: 'O12 12 4.5', fill: 'sun' },
  {
    d: 'M12 1.5 V4.5 M12 19.5 V22.5 M1.5 12 H4.5 M19.5 12 H22.5 M4.6 4.6 L6.7 6.7 M17.3 17.3 L19.4 19.4 M4.6 19.4 L6.7 17.3 M17.3 6.7 L19.4 4.6',
  },
];

const MOON: Pictogram = [
  {
    d: 'M14 2.5 C8 2.5 3.5 7 3.5 12.5 C3.5 17.5 7.5 21.5 12.5 21.5 C16 21.5 19 19.5 20.5 16.5 C14.5 17.5 9.5 12.5 10.5 7 C11 5 12.5 3.5 14 2.5 Z',
    fill: 'paper',
  },
];

const CLOUD_PATH =
  'M7 19 H17 Q21.5 19 21.5 14.75 Q21.5 10.5 17.5 10.5 Q16.5 5.5 12 5.5 Q7.5 5.5 6.5 10 Q2.5 10.5 2.5 14.5 Q2.5 19 7 19 Z';
const CLOUD: Pictogram = [{ d: CLOUD_PATH, fill: 'paper' }];
/** The cloud raised and narrowed, leaving the bottom third for what falls from it. */
const HIGH_CLOUD = placed(CLOUD, 1.2, -3.8, 0.9);

const drops = (d: string, tint: 'rain' | 'snow' = 'rain'): Pictogram => [{ d, stroke: tint }];
const FLAKE = (x: number, y: number, r: number): string =>
  `M${x} ${y - r} V${y + r} M${x - r * 0.87} ${y - r / 2} L${x + r * 0.87} ${y + r / 2} M${x - r * 0.87} ${y + r / 2} L${x + r * 0.87} ${y - r / 2}`;

const WIND: Pictogram = [
  { d: 'M2.5 9 H14 Q17.5 9 17.5 5.75 Q17.5 2.5 14.5 3 M2.5 14 H18.5 Q22 14 22 17.25 Q22 20.5 18.5 20 M2.5 19 H11' },
];

/** A funnel cloud: a wide base narrowing to the ground, each line shorter and shifted as the funnel bends. */
const FUNNEL: Pictogram = [
  { d: 'M2.5 3.5 H21.5 M4.5 7.5 H19 M7 11.5 H16.5 M9 15.5 H14.5 M10.5 19 H13.5 M11.5 22 H12.5' },
];

const THERMOMETER: Pictogram = [
  { d: 'M10 14 V5 A12 5 2 180 360 V14 A12 17.5 3.5 -55 235 Z' },
  { d: 'O12 17.5 1.5 M12 17.5 V9', fill: 'ink' },
];

export const CONDITION_PICTOGRAMS: Readonly<Record<Condition, Pictogram>> = {
  'clear-day': SUN,
  'clear-night': MOON,
  'partly-day': [...placed(SUN, 0, 0, 0.62), ...placed(CLOUD, 3, 3.5, 0.88)],
  'partly-night': [...placed(MOON, 0, 0, 0.6), ...placed(CLOUD, 3, 3.5, 0.88)],
  cloudy: [...placed(CLOUD, 4.5, -1.5, 0.75), ...placed(CLOUD, 0, 2, 0.95)],
  fog: [...placed(CLOUD, 1.2, -4.5, 0.9), { d: 'M3 17.5 H17 M6 21 H21' }],
  drizzle: [...HIGH_CLOUD, ...drops('M8 17.5 V18.5 M12 19.5 V20.5 M16 17.5 V18.5 M10 22 V22.5 M14 22 V22.5')],
  rain: [...HIGH_CLOUD, ...drops('M8.5 16.5 L7 21.5 M12.5 16.5 L11 21.5 M16.5 16.5 L15 21.5')],
  thunder: [
    ...HIGH_CLOUD,
    ...drops('M7.5 16.5 L6.5 20 M18 16.5 L17 20'),
    { d: 'M12.5 12.5 L9 18.5 H12 L10.5 23.5 L15.5 16.5 H12.5 L14.5 12.5 Z', fill: 'sun' },
  ],
  snow: [...HIGH_CLOUD, { d: `${FLAKE(7.5, 19.5, 2.8)} ${FLAKE(16.5, 19.5, 2.8)}`, stroke: 'snow', weight: 0.75 }],
  sleet: [...HIGH_CLOUD, ...drops('M7.5 16.5 L6 21.5'), { d: FLAKE(15, 19.5, 2.8), stroke: 'snow', weight: 0.75 }],
  wind: WIND,
  storm: FUNNEL,
  unknown: THERMOMETER,
};

/** A drop falling, centred on (x, y), `r` wide at its round end and pointed 2.2 r above it. */
const TEAR = (x: number, y: number, r: number): string =>
  `M${x} ${y - 2.2 * r} Q${x + r} ${y - 0.8 * r} ${x + r} ${y} A${x} ${y} ${r} 0 180 Q${x - r} ${y - 0.8 * r} ${x} ${y - 2.2 * r} Z`;

/**
 * The marks of the readings. The rain chance is a cloud letting fall two drops: a reading, not advice. An open
 * umbrella beside "95 %" reads as "take one" even where the outfit says to leave it at home, so the umbrella is
 * only ever a garment (garment-pictograms.ts). Humidity is one drop, UV a sun; wind is an arrow (marks.ts).
 * Below 30 px the drops would close into an "8" under the cloud: there the mark is the rain's own cloud with
 * streaks, which holds its shape down to 12 px.
 */
export const RAIN_CHANCE_LARGE: Pictogram = [
  ...placed(CLOUD, 2.6, -4.3, 0.78),
  { d: `${TEAR(8, 19, 2.6)} ${TEAR(16, 19, 2.6)}`, fill: 'rain' },
];
export const DROP: Pictogram = [
  { d: 'M12 2.5 Q18 10 18 15 A12 15 6 0 180 Q6 10 12 2.5 Z' },
  { d: 'M9 15.5 Q9.5 18 12 18.5' },
];
export const UV_SUN: Pictogram = [
  { d: 'O12 12 5.5', fill: 'uv' },
  {
    d: 'M12 1.5 V3.5 M12 20.5 V22.5 M1.5 12 H3.5 M20.5 12 H22.5 M4.6 4.6 L6 6 M18 18 L19.4 19.4 M4.6 19.4 L6 18 M18 6 L19.4 4.6',
  },
];

/** The rain chance's mark for a square of `size` px (see RAIN_CHANCE_LARGE), and its name. */
export function rainChanceMark(size: number): { name: 'cloud-drops' | 'cloud-streaks'; picto: Pictogram } {
  return size < 30
    ? { name: 'cloud-streaks', picto: CONDITION_PICTOGRAMS.rain }
    : { name: 'cloud-drops', picto: RAIN_CHANCE_LARGE };
}
