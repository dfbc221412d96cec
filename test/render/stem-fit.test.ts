import { describe, expect, it } from 'vitest';
import { barMap, stemMap, stemsOf, type StemFit } from '../../src/render/text/stem-fit.js';

/** A face with 90-unit stems at 1000 units per em, drawn 1 px wide once grown by a quarter pixel a side. */
const FIT: StemFit = { stemUnits: 90, barUnits: 80, barWeight: 1, flatten: 0, weight: 1, grow: 0.25 };
/** 13 px text: a stem is 1.17 px as designed. */
const SCALE = 13 / 1000;

/** The px each stem covers once mapped and grown by `grow` a side: [left, right]. */
const covered = (map: (x: number) => number, stems: [number, number][], grow: number): [number, number][] =>
  stems.map(([l, r]) => [map(l) - grow, map(r) + grow]);

describe('stemMap', () => {
  // The stems of an n and an m, the pen at fractional positions as a line of text puts it.
  const n: [number, number][] = [
    [80, 170],
    [430, 520],
  ];
  const m: [number, number][] = [
    [80, 170],
    [400, 490],
    [720, 810],
  ];

  for (const dx of [0, 0.3, 0.5, 0.77]) {
    it(`puts every stem of an n and an m on whole pixels, all the face's weight wide (pen at ${dx})`, () => {
      for (const stems of [n, m]) {
        for (const [left, right] of covered(stemMap(stems, SCALE, dx, FIT), stems, FIT.grow)) {
          expect(left, `stem edge at ${left}`).toBeCloseTo(Math.round(left), 9);
          expect(right - left).toBeCloseTo(FIT.weight, 9);
        }
      }
    });
  }

  it("keeps an m's counters one whole-pixel width, and at least a pixel of ground between stems", () => {
    for (const dx of [0, 0.25, 0.5, 0.75]) {
      const px = covered(stemMap(m, SCALE, dx, FIT), m, FIT.grow);
      const counters = px.slice(1).map(([l], i) => l - px[i]![1]);
      expect(counters[0], `pen at ${dx}`).toBeCloseTo(counters[1]!, 9);
      for (const c of counters) {
        expect(c).toBeCloseTo(Math.round(c), 9);
        expect(c).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it('moves the outline between and beside the stems with them, never folding it over', () => {
    const map = stemMap(m, SCALE, 0.4, FIT);
    let last = -Infinity;
    for (let x = -100; x <= 1000; x += 5) {
      expect(map(x), `at ${x}`).toBeGreaterThan(last);
      last = map(x);
    }
  });
});

describe('stemsOf', () => {
  it("finds the two stems of an n's outline (straight edges a stem's width apart), left to right", () => {
    // An n as TrueType draws it: one clockwise contour, y up; the arch straight-cornered.
    const M = (x: number, y: number) => ({ type: 'M' as const, x, y });
    const L = (x: number, y: number) => ({ type: 'L' as const, x, y });
    const outline = [
      M(80, 0),
      L(80, 500),
      L(520, 500),
      L(520, 0),
      L(430, 0),
      L(430, 420),
      L(170, 420),
      L(170, 0),
      L(80, 0),
    ];
    expect(stemsOf(outline, 1000, FIT.stemUnits)).toEqual([
      [80, 170],
      [430, 520],
    ]);
  });
});

describe('barMap', () => {
  it('puts the baseline and x-height on their pixels and a bar between them on whole rows', () => {
    // Zones: baseline 0 at px 10, x-height 520 at px 3 (y down). A hyphen-like bar from 230 to 310 units.
    const zones: [number, number][] = [
      [0, 10],
      [520, 3],
    ];
    const map = barMap([[230, 310]], zones, SCALE, FIT);
    expect(map(0)).toBe(10);
    expect(map(520)).toBe(3);
    const [top, bottom] = [map(310), map(230)];
    expect(top).toBe(Math.round(top));
    expect(bottom - top).toBe(FIT.barWeight);
  });
});
