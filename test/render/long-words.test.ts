import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type * as Fonts from '../../src/render/text/fonts.js';
import { ELLIPSIS, MAX_FIT_CHARS, fitText, type FitRequest } from '../../src/render/text/text-fit.js';
import { hostileWordArb, outfitEndingIn, type HostileWord } from '../property/hostile-words.js';
import { runs, timeout } from '../property/arbitraries.js';

/**
 * A word thousands of characters long: fitting it takes work in proportion to its length, and
 * its lines fit. The work is counted, not timed: the code units of every string fitting measures (fonts.ts's
 * measureEm, which every width of text-fit.ts comes from). Wall time is `npm run bench`'s.
 */

const counted = vi.hoisted(() => ({ units: 0 }));
vi.mock('../../src/render/text/fonts.js', async (importOriginal) => {
  const fonts = await importOriginal<typeof Fonts>();
  return {
    ...fonts,
    measureEm: (id: Parameters<typeof fonts.measureEm>[0], text: string): number => {
      counted.units += text.length;
      return fonts.measureEm(id, text);
    },
  };
});

/** An outfit box's request, as outfit-fit.ts makes it. */
const box = (text: string, width: number, height: number): FitRequest => ({
  text,
  font: 'condensed',
  width,
  height,
  maxSize: 40,
  minSize: 14,
  lineHeight: 1.15,
  lastLine: 'ink',
});
/**
 * One size and room for every line: one wrap, whatever the length (a search over sizes tries as many as it needs, and
 * a text that does not fit takes one more, and its last line an ellipsis).
 */
const oneWrap = (text: string, width: number): FitRequest => ({
  ...box(text, width, 1_000_000),
  maxSize: 16,
  minSize: 16,
});

function workOf(req: FitRequest): number {
  counted.units = 0;
  fitText(req);
  // Fitting any text measures some: none counted would mean the counting wrapper above is not the one in use.
  expect(counted.units).toBeGreaterThan(0);
  return counted.units;
}

/** Ten times the text may cost this many times ten times the work: fitting is linear, give or take its searches. */
const LINEAR_SLACK = 3;

describe('a word thousands of characters long', () => {
  it('is laid out in lines that fit the box, from the start of the text', { timeout: timeout(60_000) }, () => {
    fc.assert(
      fc.property(
        hostileWordArb,
        fc.integer({ min: 1_000, max: 20_000 }),
        fc.integer({ min: 100, max: 800 }),
        fc.integer({ min: 60, max: 600 }),
        (w, length, width, height) => {
          const f = fitText(box(outfitEndingIn(w, length), width, height));
          expect(f.lines.length).toBeGreaterThan(0);
          for (const line of f.lines) expect(line.width).toBeLessThanOrEqual(width + 1e-9);
          expect(f.lines[0]!.text.startsWith('Wear')).toBe(true);
        },
      ),
      { numRuns: runs(25) },
    );
  });

  // From 1,000 characters, not fewer: a word of a few hundred fits on a line or two and costs mostly what the rest of
  // the outfit costs, so a ratio taken from shorter words would measure the outfit, not the fitting. The example is
  // always tried first: narrow letters and an invisible control (i, U+2066) at the widest box.
  it(
    `of 4,000 characters (below the cut, ${MAX_FIT_CHARS}) costs at most ${4 * LINEAR_SLACK} times one of 1,000: linear, with slack ${LINEAR_SLACK} for its searches`,
    { timeout: timeout(60_000) },
    () => {
      fc.assert(
        fc.property(hostileWordArb, fc.integer({ min: 100, max: 800 }), (w: HostileWord, width) => {
          const small = workOf(oneWrap(outfitEndingIn(w, 1_000), width));
          const large = workOf(oneWrap(outfitEndingIn(w, 4_000), width));
          expect(large).toBeLessThanOrEqual(4 * LINEAR_SLACK * small);
        }),
        { numRuns: runs(10), endOnFailure: true, examples: [[{ pieces: ['i', '\u2066'], seed: 2147483627 }, 799]] },
      );
    },
  );

  it(
    `of 20,000 characters costs at most ${10 * LINEAR_SLACK} times one of 2,000: linear, with slack ${LINEAR_SLACK}`,
    { timeout: timeout(60_000) },
    () => {
      const w = { pieces: ['a', 'b', 'W', 'm', 'i'], seed: 41 };
      const small = workOf(oneWrap(outfitEndingIn(w, 2_000), 480));
      const large = workOf(oneWrap(outfitEndingIn(w, 20_000), 480));
      expect(large).toBeLessThanOrEqual(10 * LINEAR_SLACK * small);
    },
  );

  it(`is cut to ${MAX_FIT_CHARS} characters and an ellipsis before it is laid out, even where the box would hold more`, () => {
    const f = fitText({
      text: 'i'.repeat(MAX_FIT_CHARS * 2),
      font: 'condensed',
      width: 100_000,
      height: 1_000,
      maxSize: 10,
      minSize: 10,
    });
    const shown = f.lines.map((l) => l.text).join('');
    expect([...shown]).toHaveLength(MAX_FIT_CHARS + 1);
    expect(shown.endsWith(ELLIPSIS)).toBe(true);
    expect(f.truncated).toBe(true);
  });

  it('leaves a text of up to the cut as it was', () => {
    const text = 'i'.repeat(MAX_FIT_CHARS);
    const f = fitText({ text, font: 'condensed', width: 100_000, height: 1_000, maxSize: 10, minSize: 10 });
    expect(f.lines.map((l) => l.text).join('')).toBe(text);
    expect(f.truncated).toBe(false);
  });
});
