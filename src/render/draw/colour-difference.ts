/**
 * How far apart two inks look as colours: CIEDE2000 (ΔE00) in CIELAB under D65, the CIE's measure of perceived
 * colour difference. Contrast (ink-contrast.ts) says whether an ink reads as a line beside black and paper; this says
 * whether two inks read as two meanings. On the 7.3" F the measured red (#9c484b) and orange (#b16a49) are 10 apart:
 * brick beside tan, one meaning to the eye. Colour for meaning (colour-meaning.ts) gives two meanings two inks only
 * where they are at least MEANING_MIN_DELTA_E apart.
 *
 * Written here, not taken from a library: the formula is 40 lines and fixed by the CIE, and the colour libraries
 * on npm bring whole colour-space toolkits for it. The test checks it against Sharma, Wu and Dalal's published pairs.
 */

type Rgb = readonly [number, number, number];
type Lab = readonly [number, number, number];

/** Least ΔE00 between the inks of two meanings: below it, two meanings would be one colour on the glass. */
export const MEANING_MIN_DELTA_E = 30;

/** sRGB (0-255) to CIELAB, D65 white. */
export function labOf([r, g, b]: Rgb): Lab {
  const lin = (c: number): number => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const [R, G, B] = [lin(r), lin(g), lin(b)];
  const x = (0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / 0.95047;
  const y = 0.2126729 * R + 0.7151522 * G + 0.072175 * B;
  const z = (0.0193339 * R + 0.119192 * G + 0.9503041 * B) / 1.08883;
  const f = (t: number): number => (t > (6 / 29) ** 3 ? Math.cbrt(t) : t / (3 * (6 / 29) ** 2) + 4 / 29);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

const rad = (deg: number): number => (deg * Math.PI) / 180;
const deg = (r: number): number => {
  const d = (r * 180) / Math.PI;
  return d < 0 ? d + 360 : d;
};

/** CIEDE2000 colour difference of two CIELAB colours (kL = kC = kH = 1). */
export function deltaE2000([L1, a1, b1]: Lab, [L2, a2, b2]: Lab): number {
  const C1 = Math.hypot(a1, b1);
  const C2 = Math.hypot(a2, b2);
  const Cm = (C1 + C2) / 2;
  const G = 0.5 * (1 - Math.sqrt(Cm ** 7 / (Cm ** 7 + 25 ** 7)));
  const a1p = (1 + G) * a1;
  const a2p = (1 + G) * a2;
  const C1p = Math.hypot(a1p, b1);
  const C2p = Math.hypot(a2p, b2);
  const h1p = C1p === 0 ? 0 : deg(Math.atan2(b1, a1p));
  const h2p = C2p === 0 ? 0 : deg(Math.atan2(b2, a2p));
  const dLp = L2 - L1;
  const dCp = C2p - C1p;
  let dhp = 0;
  if (C1p * C2p !== 0) {
    dhp = h2p - h1p;
    if (dhp > 180) dhp -= 360;
    else if (dhp < -180) dhp += 360;
  }
  const dHp = 2 * Math.sqrt(C1p * C2p) * Math.sin(rad(dhp / 2));
  const Lpm = (L1 + L2) / 2;
  const Cpm = (C1p + C2p) / 2;
  let hpm = h1p + h2p;
  if (C1p * C2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hpm = (h1p + h2p) / 2;
    else hpm = h1p + h2p < 360 ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2;
  }
  const T =
    1 -
    0.17 * Math.cos(rad(hpm - 30)) +
    0.24 * Math.cos(rad(2 * hpm)) +
    0.32 * Math.cos(rad(3 * hpm + 6)) -
    0.2 * Math.cos(rad(4 * hpm - 63));
  const dTheta = 30 * Math.exp(-(((hpm - 275) / 25) ** 2));
  const Rc = 2 * Math.sqrt(Cpm ** 7 / (Cpm ** 7 + 25 ** 7));
  const Sl = 1 + (0.015 * (Lpm - 50) ** 2) / Math.sqrt(20 + (Lpm - 50) ** 2);
  const Sc = 1 + 0.045 * Cpm;
  const Sh = 1 + 0.015 * Cpm * T;
  const Rt = -Math.sin(rad(2 * dTheta)) * Rc;
  return Math.sqrt((dLp / Sl) ** 2 + (dCp / Sc) ** 2 + (dHp / Sh) ** 2 + Rt * (dCp / Sc) * (dHp / Sh));
}

/** ΔE00 of two sRGB colours. */
export function inkDistance(a: Rgb, b: Rgb): number {
  return deltaE2000(labOf(a), labOf(b));
}
