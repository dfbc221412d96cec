import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { measure } from '../../src/render/text/fonts.js';
import { ELLIPSIS, SHY, fitLine, fitText, largestFitting, splitWords } from '../../src/render/text/text-fit.js';
import { LONG_OUTFIT } from '../fixtures/samples.js';

const words = (s: string): string[] => s.split(/\s+/).filter(Boolean);

/**
 * The shown words, with the pieces of a word broken between lines put back together: a word wider than the line
 * (`wider`) is broken at any character (text-fit.ts, `wrap`), so its pieces stand as words of their own.
 */
function mergedWords(original: string, shown: string[], wider: (word: string) => boolean): string[] {
  const orig = words(original);
  const got = words(shown.join(' ').replace(ELLIPSIS, ''));
  const merged: string[] = [];
  let g = 0;
  for (const word of orig) {
    if (g >= got.length) break;
    let piece = got[g++]!;
    while (wider(word) && piece !== word && g < got.length && word.startsWith(piece + got[g]!)) piece += got[g++]!;
    merged.push(piece);
  }
  return merged;
}

/**
 * The shown text is the original's first words, whole, the last one perhaps losing trailing punctuation; or a piece
 * of the last one cut by the ellipsis, where it is a word wider than the line (broken between lines), or stands alone
 * on the last line (text-fit.ts, `withEllipsis`: "Thunderst…").
 */
function expectWholeWordPrefix(
  original: string,
  shown: string[],
  wider: (word: string) => boolean = () => false,
): void {
  const orig = words(original);
  const got = mergedWords(original, shown, wider);
  got.forEach((w, i) => {
    if (i < got.length - 1) expect(w).toBe(orig[i]);
    else expect(orig[i]!.startsWith(w)).toBe(true);
  });
  const last = got.length - 1;
  if (last < 0) return;
  const alone = !(shown.at(-1) ?? '').trim().includes(' ');
  const cut = (wider(orig[last]!) || alone) && orig[last]!.startsWith(got[last]!);
  if (!cut) expect(orig[last]!.replace(/[,;:.!?]+$/, '')).toBe(got[last]);
}

describe('fitText', () => {
  it('fits all of a 120-word outfit into 768x300 at 21 px or more', () => {
    expect(words(LONG_OUTFIT)).toHaveLength(120);
    const f = fitText({ text: LONG_OUTFIT, font: 'condensed', width: 768, height: 300, maxSize: 44, minSize: 21 });
    expect(f.truncated).toBe(false);
    expect(f.size).toBeGreaterThanOrEqual(21);
    expect(words(f.lines.map((l) => l.text).join(' '))).toEqual(words(LONG_OUTFIT));
    for (const l of f.lines) expect(l.width).toBeLessThanOrEqual(768);
  });

  it('shortens with an ellipsis after a whole word when even the smallest size does not fit', () => {
    const f = fitText({ text: LONG_OUTFIT, font: 'condensed', width: 190, height: 80, maxSize: 20, minSize: 12 });
    expect(f.truncated).toBe(true);
    expect(f.size).toBe(12);
    const last = f.lines[f.lines.length - 1]!;
    expect(last.text.endsWith(ELLIPSIS)).toBe(true);
    expectWholeWordPrefix(
      LONG_OUTFIT,
      f.lines.map((l) => l.text),
    );
    expect(f.height).toBeLessThanOrEqual(80);
  });

  it('keeps every line inside the box and every word whole (property)', () => {
    const word = fc.stringMatching(/^[A-Za-z]{1,12}[,.]?$/);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 80, max: 500 }),
        fc.integer({ min: 20, max: 300 }),
        (ws, width, height) => {
          const text = ws.join(' ');
          const f = fitText({ text, font: 'condensed', width, height, maxSize: 30, minSize: 10 });
          expect(f.height).toBeLessThanOrEqual(height);
          for (const l of f.lines) {
            expect(l.width).toBeLessThanOrEqual(width + 0.001);
            expect(
              measure('condensed', f.size, l.words[l.words.length - 1]!.text) + l.words[l.words.length - 1]!.x,
            ).toBeCloseTo(l.width, 6);
          }
          const wider = (w: string): boolean => measure('condensed', f.size, w) > width;
          if (!f.truncated)
            expect(
              mergedWords(
                text,
                f.lines.map((l) => l.text),
                wider,
              ),
            ).toEqual(words(text));
          else if (f.lines.length > 0 && f.lines.some((l) => l.text !== ELLIPSIS))
            expectWholeWordPrefix(
              text,
              f.lines.map((l) => l.text),
              wider,
            );
        },
      ),
      { numRuns: 120 },
    );
  });

  it('puts the ellipsis after the last whole word, never alone on a line after a broken word', () => {
    // Found by the property below (seed 967521694): "AAaaAaGMaWD" must be broken at 80 px, and its piece on the
    // last line had no room for "…" beside it, which then stood alone on that line.
    const f = fitText({
      text: 'a AaAA aaAAwaA, AAaaAaGMaWD a.',
      font: 'condensed',
      width: 80,
      height: 36,
      maxSize: 30,
      minSize: 10,
    });
    expect(f.truncated).toBe(true);
    // The broken word's last piece is cut with the ellipsis beside it (a lone "…" is never the outcome).
    expect(f.lines.map((l) => l.text)).toEqual(['a AaAA', 'aaAAwaA,', `AAaaAaGMaW${ELLIPSIS}`]);
  });

  it('keeps paragraphs and drops characters the fonts lack', () => {
    expect(splitWords('Coat 🧥 and\n\nscarf\u00a0today')).toEqual([
      ['Coat', 'and'],
      ['scarf', 'today'],
    ]);
  });

  it('fits one line by shrinking, then shortening', () => {
    const name = 'A display name thirty chars ok';
    expect(name).toHaveLength(30);
    const roomy = fitLine('bold', name, 1000, 24, 12);
    expect(roomy.size).toBe(24);
    const tight = fitLine('bold', name, 120, 24, 14);
    expect(tight.lines).toHaveLength(1);
    expect(tight.lines[0]!.text.endsWith(ELLIPSIS)).toBe(true);
    expect(tight.width).toBeLessThanOrEqual(120);
  });
});

describe('line breaking', () => {
  const URL = 'https://weather.example.com/outfits/berlin?units=metric&lang=en';
  const texts = (f: { lines: { text: string }[] }): string[] => f.lines.map((l) => l.text);

  it('breaks a long URL at / . ? & = instead of shrinking the whole text', () => {
    expect(URL.length).toBeGreaterThanOrEqual(60);
    const text = `Wear a warm coat and boots; details at ${URL} today.`;
    const f = fitText({ text, font: 'condensed', width: 768, height: 400, maxSize: 110, minSize: 30, lineHeight: 1.1 });
    expect(f.truncated).toBe(false);
    expect(f.size).toBeGreaterThan(45);
    expect(f.midWord).toBe(false);
    // Nothing lost, and each line that ends inside the URL ends at one of its break points.
    expect(texts(f).join('').replaceAll(' ', '')).toBe(text.replaceAll(' ', ''));
    expect(texts(f).length).toBeGreaterThan(2);
    for (const l of f.lines) {
      const last = l.words[l.words.length - 1]!.text;
      if (!words(text).includes(last)) expect(last).toMatch(/[/.?&=]$/);
    }
    for (const l of f.lines) expect(l.width).toBeLessThanOrEqual(768);
  });

  it('cuts a token without break points anywhere, at the size the other words get', () => {
    const token = 'x'.repeat(70);
    const alone = fitText({
      text: 'Wear a warm coat',
      font: 'condensed',
      width: 400,
      height: 2000,
      maxSize: 60,
      minSize: 20,
    });
    const f = fitText({
      text: `Wear a warm coat ${token}`,
      font: 'condensed',
      width: 400,
      height: 2000,
      maxSize: 60,
      minSize: 20,
    });
    expect(f.truncated).toBe(false);
    expect(f.size).toBe(alone.size);
    expect(f.midWord).toBe(true);
    expect(texts(f).join('').replaceAll(' ', '')).toBe(`Wearawarmcoat${token}`);
  });

  it('keeps an ordinary word whole by shrinking when a smaller size holds it', () => {
    const f = fitText({
      text: 'Regenwahrscheinlichkeit hoch',
      font: 'condensed',
      width: 200,
      height: 400,
      maxSize: 40,
      minSize: 10,
    });
    expect(f.midWord).toBe(false);
    expect(texts(f)[0]).toBe('Regenwahrscheinlichkeit');
  });

  it('breaks at a soft hyphen with a "-" at the line end, and draws the soft hyphen nowhere', () => {
    const text = `Wear a water${SHY}proof jacket and a super${SHY}cali${SHY}fragilistic hat`;
    const f = fitText({ text, font: 'condensed', width: 150, height: 300, maxSize: 20, minSize: 20 });
    expect(texts(f)).toEqual(['Wear a water-', 'proof jacket and', 'a supercali-', 'fragilistic hat']);
    const roomy = fitText({ text, font: 'condensed', width: 2000, height: 300, maxSize: 20, minSize: 20 });
    expect(texts(roomy)).toEqual(['Wear a waterproof jacket and a supercalifragilistic hat']);
    for (const l of [...f.lines, ...roomy.lines]) expect(l.text).not.toContain(SHY);
  });

  it('cuts a lone word that does not fit mid-word with an ellipsis, never "…" alone', () => {
    const line = fitLine('condensed', 'Thunderstormswithhail', 60, 20, 17);
    expect(line.truncated).toBe(true);
    expect(line.lines[0]!.text).toMatch(new RegExp(`^Thun[a-z]*${ELLIPSIS}$`));
    expect(line.width).toBeLessThanOrEqual(60);
    const block = fitText({
      text: 'Thunderstormswithhailandmore',
      font: 'condensed',
      width: 60,
      height: 20,
      maxSize: 17,
      minSize: 17,
    });
    expect(texts(block)).toHaveLength(1);
    expect(texts(block)[0]).not.toBe(ELLIPSIS);
  });

  it('keeps every line inside the box and loses no character of URLs and soft-hyphenated words (property)', () => {
    const token = fc.stringMatching(/^[a-z]{1,30}([/.?&=_\u00ad-][a-z]{1,30}){0,4}$/);
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 12 }), fc.integer({ min: 60, max: 400 }), (ws, width) => {
        const text = ws.join(' ');
        const f = fitText({ text, font: 'condensed', width, height: 10_000, maxSize: 30, minSize: 10 });
        expect(f.truncated).toBe(false);
        for (const l of f.lines) {
          expect(l.width).toBeLessThanOrEqual(width + 0.001);
          expect(l.text).not.toContain(SHY);
        }
        // Nothing lost (hyphens aside: a soft hyphen that breaks a line is drawn as one).
        const strip = (t: string): string => t.replace(/[\s\u00ad-]/g, '');
        expect(strip(f.lines.map((l) => l.text).join(''))).toBe(strip(text));
        expect(f.lines.filter((l) => l.text.endsWith('-')).length).toBeLessThanOrEqual(
          (text.match(/[\u00ad-]/g) ?? []).length,
        );
      }),
      { numRuns: 150 },
    );
  });
});

describe('the size search', () => {
  it('finds the largest size that fits, as counting down from the largest would, in a few tries', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 70 }),
        (min, span, threshold) => {
          const max = min + span;
          const tried: number[] = [];
          const got = largestFitting(min, max, (size) => {
            tried.push(size);
            return size <= threshold ? `fit at ${size}` : null;
          });
          let expected: number | null = null;
          for (let size = max; size >= min && expected === null; size--) if (size <= threshold) expected = size;
          expect(got).toEqual(expected === null ? null : { size: expected, fit: `fit at ${expected}` });
          expect(tried.length).toBeLessThanOrEqual(2 + Math.ceil(Math.log2(span + 1)));
          expect(tried.every((s) => Number.isInteger(s) && s >= min && s <= max)).toBe(true);
        },
      ),
    );
  });

  it('gives the size at which a larger one no longer fits', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('warm', 'coat', 'scarf', 'umbrella', 'gloves', 'trainers', 'layers'), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.integer({ min: 120, max: 700 }),
        fc.integer({ min: 40, max: 300 }),
        (ws, width, height) => {
          const text = ws.join(' ');
          const got = fitText({ text, font: 'condensed', width, height, maxSize: 60, minSize: 10 });
          if (got.truncated || got.size === 60) return;
          // One size larger, tried on its own: it must not fit whole, or only by cutting a word mid-word (which
          // fitting does only at the smallest size).
          const larger = fitText({
            text,
            font: 'condensed',
            width,
            height,
            maxSize: got.size + 1,
            minSize: got.size + 1,
          });
          expect(larger.truncated || (larger.midWord && !got.midWord)).toBe(true);
        },
      ),
    );
  });
});
