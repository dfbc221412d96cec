/**
 * Arabic letters joined: each letter becomes its isolated, final, initial or medial presentation form
 * (U+FE70–FEFF, and U+FB50–FDFF for the Persian/Urdu letters listed) from the letters around it, in logical
 * order, before visual reordering. Lam followed by alef becomes the lam-alef ligature. A form the font lacks
 * leaves the letter as it was. ZWJ joins, ZWNJ breaks a join; combining marks (harakat) are transparent.
 */

/** Right-joining letters (join to the letter before only) and dual-joining ones, in presentation-block order. */
const FE_LETTERS: readonly [number, 'R' | 'D'][] = [
  [0x0622, 'R'],
  [0x0623, 'R'],
  [0x0624, 'R'],
  [0x0625, 'R'],
  [0x0626, 'D'],
  [0x0627, 'R'],
  [0x0628, 'D'],
  [0x0629, 'R'],
  [0x062a, 'D'],
  [0x062b, 'D'],
  [0x062c, 'D'],
  [0x062d, 'D'],
  [0x062e, 'D'],
  [0x062f, 'R'],
  [0x0630, 'R'],
  [0x0631, 'R'],
  [0x0632, 'R'],
  [0x0633, 'D'],
  [0x0634, 'D'],
  [0x0635, 'D'],
  [0x0636, 'D'],
  [0x0637, 'D'],
  [0x0638, 'D'],
  [0x0639, 'D'],
  [0x063a, 'D'],
  [0x0641, 'D'],
  [0x0642, 'D'],
  [0x0643, 'D'],
  [0x0644, 'D'],
  [0x0645, 'D'],
  [0x0646, 'D'],
  [0x0647, 'D'],
  [0x0648, 'R'],
  [0x0649, 'R'],
  [0x064a, 'D'],
];

/** Letters outside the FE block: their first (isolated) form in U+FB50–FDFF. */
const FB_LETTERS: readonly [number, 'R' | 'D', number][] = [
  [0x067e, 'D', 0xfb56],
  [0x0686, 'D', 0xfb7a],
  [0x0698, 'R', 0xfb8a],
  [0x06a9, 'D', 0xfb8e],
  [0x06af, 'D', 0xfb92],
  [0x06cc, 'D', 0xfbfc],
];

interface Joining {
  type: 'R' | 'D';
  /** Isolated form; final is +1, initial +2, medial +3 (dual-joining only). */
  isolated: number;
}

const JOINING = new Map<number, Joining>();
{
  let at = 0xfe81;
  for (const [cp, type] of FE_LETTERS) {
    JOINING.set(cp, { type, isolated: at });
    at += type === 'D' ? 4 : 2;
  }
  for (const [cp, type, isolated] of FB_LETTERS) JOINING.set(cp, { type, isolated });
}

/** Lam-alef ligatures: isolated form (final +1) by the alef. */
const LAM_ALEF = new Map<number, number>([
  [0x0622, 0xfef5],
  [0x0623, 0xfef7],
  [0x0625, 0xfef9],
  [0x0627, 0xfefb],
]);

const LAM = 0x0644;
const TATWEEL = 0x0640;
const ZWJ = 0x200d;
const TRANSPARENT = /^[\p{Mn}\p{Me}]$/u;

/** How a character joins: 'D' dual, 'R' right only, 'C' join-causing (tatweel, ZWJ), 'T' transparent, 'U' none. */
function joinType(cp: number): 'D' | 'R' | 'C' | 'T' | 'U' {
  const j = JOINING.get(cp);
  if (j) return j.type;
  if (cp === TATWEEL || cp === ZWJ) return 'C';
  if (TRANSPARENT.test(String.fromCodePoint(cp))) return 'T';
  return 'U';
}

/** The text with Arabic letters in joined presentation forms where `has` says the font has them. */
export function shapeArabic(text: string, has: (codePoint: number) => boolean): string {
  if (!/[\u0600-\u06FF]/.test(text)) return text;
  const cps = Array.from(text, (c) => c.codePointAt(0)!);
  const types = cps.map(joinType);
  const neighbour = (i: number, step: 1 | -1): number => {
    let k = i + step;
    while (k >= 0 && k < cps.length && types[k] === 'T') k += step;
    return k;
  };
  const out: number[] = [];
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i]!;
    const j = JOINING.get(cp);
    if (!j) {
      out.push(cp);
      continue;
    }
    const p = neighbour(i, -1);
    const joinsBefore = p >= 0 && (types[p] === 'D' || types[p] === 'C');
    let n = neighbour(i, 1);
    // Lam then alef: one ligature, which joins only before it.
    const alef = cp === LAM && n < cps.length ? LAM_ALEF.get(cps[n]!) : undefined;
    if (alef !== undefined && has(alef + (joinsBefore ? 1 : 0))) {
      out.push(alef + (joinsBefore ? 1 : 0));
      // Marks between lam and alef stay, after the ligature.
      for (let k = i + 1; k < n; k++) out.push(cps[k]!);
      i = n;
      continue;
    }
    const joinsAfter = j.type === 'D' && n < cps.length && (types[n] === 'D' || types[n] === 'R' || types[n] === 'C');
    const form = j.type === 'D' && joinsBefore && joinsAfter ? 3 : joinsAfter ? 2 : joinsBefore ? 1 : 0;
    n = j.isolated + form;
    out.push(has(n) ? n : cp);
  }
  return String.fromCodePoint(...out);
}
