import { describe, expect, it } from 'vitest';
import type { FontId } from '../../src/render/text/fonts.js';
import {
  PHRASES,
  charAccuracy,
  freetypeLines,
  ocrLines,
  oursLine,
  stemWidth,
  wordAndLetterGaps,
  type LineBitmap,
} from '../gallery/small-text-compare.js';

/**
 * Small text read by a reader that is not our code: tesseract reads words easily misread at small sizes, and lines of the kind a frame sets small, drawn by our rasteriser and by FreeType's hinted 1-bit
 * rendering of the same DejaVu files at the same sizes (test/tools/freetype-mono.py), each enlarged 4x. Ours
 * must read at least as well, size band by size band. Then, in our code alone: word gaps clearly wider than
 * the gaps inside words, and one stem weight a face across the small sizes. Both tools are Debian's, installed by
 * `.ci/setup --tests`; without them these tests fail, saying what is missing.
 */

const FONTS: FontId[] = ['regular', 'bold', 'condensed', 'condensed-bold'];
/** FreeType is asked for whole px (Pillow's sizes are); the layouts' own small sizes are checked in pure TS below. */
const SIZES = [9, 10, 11, 12, 13, 14, 15, 16];
/** The sizes the layouts draw below 17 px (small-text.test.ts), fractional ones included. */
const LAYOUT_SIZES = [9, 10, 11, 12, 12.375, 13, 14, 15, 15.23, 16];
/** Pairs of neighbouring sizes, read together (tesseract's reading of one short word is noisy). */
const BANDS: [number, number][] = [
  [9, 10],
  [11, 12],
  [13, 14],
  [15, 16],
];
/**
 * How much worse than FreeType's a band may read: one character in a hundred, for tesseract's own drift between
 * Debian's versions. At 15-16 px the two read alike (0.945 and 0.946 on tesseract 5.3); below, ours reads better.
 */
const TOLERANCE = 0.01;

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Each face and size's phrases' character accuracy as tesseract reads them, ours and FreeType's: one tesseract
 * run for all of ours and one for all of FreeType's (loading its model is most of a run).
 */
function readAll(): { font: FontId; size: number; ours: number[]; freetype: number[] }[] {
  const cases = FONTS.flatMap((font) => SIZES.map((size) => ({ font, size })));
  const ours = ocrLines(cases.flatMap(({ font, size }) => PHRASES.map((p) => oursLine(font, size, p))));
  const freetype = ocrLines(cases.flatMap(({ font, size }) => freetypeLines(font, size, PHRASES).lines));
  const accuracy = (read: string[], k: number): number[] =>
    PHRASES.map((p, i) => charAccuracy(p, read[k * PHRASES.length + i]!));
  return cases.map((c, k) => ({ ...c, ours: accuracy(ours, k), freetype: accuracy(freetype, k) }));
}

/** The phrase's narrowest word gap and widest gap inside a word, in our rendering. */
function gaps(font: FontId, size: number, phrase: string): { word: number; letter: number } {
  const words = phrase.split(' ');
  const prefixes: LineBitmap[] = words
    .slice(0, -1)
    .map((_, k) => oursLine(font, size, words.slice(0, k + 1).join(' ')));
  const g = wordAndLetterGaps(oursLine(font, size, phrase), prefixes);
  return { word: Math.min(...g.word), letter: g.letter };
}

describe('small text, read by tesseract beside FreeType', () => {
  it('reads ours at least as well as FreeType hinted 1-bit, size band by size band (all four faces)', () => {
    const table: string[] = [];
    const bands = BANDS.map(() => ({ ours: [] as number[], freetype: [] as number[] }));
    for (const r of readAll()) {
      const band = bands[BANDS.findIndex(([a, b]) => r.size >= a && r.size <= b)]!;
      band.ours.push(...r.ours);
      band.freetype.push(...r.freetype);
      table.push(`${r.font} ${r.size}px: ours ${mean(r.ours).toFixed(3)}, FreeType ${mean(r.freetype).toFixed(3)}`);
    }
    const worse = BANDS.flatMap(([a, b], i) => {
      const [ours, ft] = [mean(bands[i]!.ours), mean(bands[i]!.freetype)];
      return ours < ft - TOLERANCE ? [`${a}-${b} px: ours ${ours.toFixed(3)} < FreeType ${ft.toFixed(3)}`] : [];
    });
    expect(worse, table.join('\n')).toEqual([]);
  }, 180_000);

  it("reads words whose strokes run together (warm, and, half-sleeve…) whole, at least as often as FreeType's (regular face, 9-16 px)", () => {
    // Misreadings these invite: "warm" as "wam", "and" as "ard", "f" as "l", "half-sleeve" without its hyphen,
    // "rain and" as one word.
    const words = ['warm', 'and', 'Hallway', 'Light', 'overall', 'rain and', 'half-sleeve', 'feels like'];
    const ours = ocrLines(SIZES.flatMap((size) => words.map((w) => oursLine('regular', size, w))));
    const freetype = ocrLines(SIZES.flatMap((size) => freetypeLines('regular', size, words).lines));
    const missed = (read: string[]): string[] =>
      SIZES.flatMap((size, k) =>
        words.flatMap((w, i) =>
          read[k * words.length + i]!.toLowerCase() === w.toLowerCase()
            ? []
            : [`${size}px "${w}" read "${read[k * words.length + i]}"`],
        ),
      );
    const [o, f] = [missed(ours), missed(freetype)];
    expect(o.length, `ours missed:\n${o.join('\n')}\nFreeType's missed:\n${f.join('\n')}`).toBeLessThanOrEqual(
      f.length,
    );
  }, 120_000);
});

describe('small text, measured', () => {
  it('sets word gaps at least 2 px wider than the widest gap inside a word, at every face and size', () => {
    const bad: string[] = [];
    for (const font of FONTS) {
      for (const size of LAYOUT_SIZES) {
        for (const phrase of PHRASES.filter((p) => p.includes(' '))) {
          const g = gaps(font, size, phrase);
          if (g.word < g.letter + 2)
            bad.push(`${font} ${size}px "${phrase}": word gap ${g.word} px, letter gap up to ${g.letter} px`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('gives each face one stem weight across the small sizes (l, i, n, m, h, u)', () => {
    for (const font of FONTS) {
      const widths = new Map<number, number[]>();
      for (const size of LAYOUT_SIZES) {
        widths.set(
          size,
          ['l', 'i', 'n', 'm', 'h', 'u'].map((ch) => stemWidth(oursLine(font, size, ch), 3)),
        );
      }
      const all = new Set([...widths.values()].flat());
      expect([...all], `${font}: ${[...widths].map(([s, w]) => `${s}px ${w.join('')}`).join(', ')}`).toHaveLength(1);
    }
  });
});
