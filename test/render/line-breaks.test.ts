import { describe, expect, it } from 'vitest';
import { measure } from '../../src/render/text/fonts.js';
import { fitText, type FittedText } from '../../src/render/text/text-fit.js';
import { bindings, isLoneLine } from '../../src/render/text/break-rules.js';
import { layoutFrame } from '../../src/render/frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { extraInput } from '../fixtures/extra-samples.js';

/**
 * The break rules (break-rules.ts) as text-fit.ts applies them: bound words kept together and lone lines mended, in
 * no more lines than the plain greedy wrap takes, so the sizes the fit chooses by line counts do not change.
 */

const SIZE = 20;
const lines = (f: FittedText): string[] => f.lines.map((l) => l.text);
/** One size, as many lines as it takes, in a box `width` px wide. */
const fit = (text: string, width: number, height = 1000): FittedText =>
  fitText({ text, font: 'condensed', width, height, maxSize: SIZE, minSize: SIZE, lineHeight: 1.2 });
/** The width of `text` on one line, px. */
const w = (text: string): number => measure('condensed', SIZE, text);

describe('bound words', () => {
  it('binds a time or number to the word before it, a unit to its number, "·" and short words to the next', () => {
    expect(bindings(['nytt', 'försök', '08:12'])).toEqual([false, true]);
    expect(bindings(['up', 'to', '85', 'km/h'])).toEqual([true, true, true]);
    expect(bindings(['Ingen', 'anslutning', '·', 'nytt'])).toEqual([false, false, true]);
    expect(bindings(['over', 'a', 'thick'])).toEqual([false, true]);
    // A sentence's end binds nothing to what follows it.
    expect(bindings(['boots.', 'Add', 'a', 'scarf'])).toEqual([false, false, true]);
    expect(isLoneLine(['08:12'])).toBe(true);
    expect(isLoneLine(['today.'])).toBe(true);
    expect(isLoneLine(['waterproof'])).toBe(false);
    expect(isLoneLine(['at', '08:12'])).toBe(false);
  });

  it('never leaves a time alone on a line ("nytt försök / 08:12" on a 2.13")', () => {
    const text = 'Ingen anslutning · nytt försök 08:12';
    // Room for all but the time on the first line: the greedy wrap would put "08:12" alone on the second.
    const f = fit(text, Math.ceil(w('Ingen anslutning · nytt försök')) + 1);
    expect(lines(f)).toEqual(['Ingen anslutning · nytt', 'försök 08:12']);
  });

  it('never ends a line with a separator or a word of two letters where the next line has room', () => {
    const text = 'last one from 4 days ago · No connection';
    const f = fit(text, Math.ceil(w('last one from 4 days ago · No')) + 1);
    expect(lines(f)).toEqual(['last one from 4 days ago', '· No connection']);
  });

  it('ends no paragraph on a line of one word where the line before can give it one ("needed today.")', () => {
    const text = 'an umbrella is not needed today.';
    const f = fit(text, Math.ceil(w('an umbrella is not needed')) + 1);
    expect(lines(f)).toEqual(['an umbrella is not', 'needed today.']);
  });

  it('takes no line more for a bound pair: the plain break stays where binding would need one', () => {
    // "a" bound to "thickly" would push "a thickly knit" down and "sweater" to a third line: the plain two stay.
    const text = 'Wear a coat over a thickly knit sweater';
    const width = Math.ceil(w('thickly knit sweater')) + 1;
    expect(w('Wear a coat over a')).toBeLessThanOrEqual(width);
    expect(w('a thickly knit sweater')).toBeGreaterThan(width);
    expect(lines(fit(text, width))).toEqual(['Wear a coat over a', 'thickly knit sweater']);
    // And the fit's size, chosen by the plain wrap's count, is the largest at which two lines hold it.
    const two = { text, font: 'condensed' as const, width, height: 2 * Math.round(SIZE * 1.2), lineHeight: 1.2 };
    const sized = fitText({ ...two, maxSize: 40, minSize: 10 });
    expect(sized.size).toBe(SIZE);
    expect(sized.truncated).toBe(false);
  });

  it('mends no line past the last one a cut text shows, and shows no word less for it', () => {
    const text = 'Add a scarf and light gloves for the walk; an umbrella is not needed today.';
    const width = Math.ceil(w('Add a scarf and light gloves')) + 1;
    const cut = fitText({
      text,
      font: 'condensed',
      width,
      height: 2 * Math.round(SIZE * 1.2),
      maxSize: SIZE,
      minSize: SIZE,
      lineHeight: 1.2,
    });
    expect(cut.truncated).toBe(true);
    expect(lines(cut)[0]).toBe('Add a scarf and light gloves');
  });
});

describe('a number and its unit, a lone last line', () => {
  it('binds a unit to its number through its punctuation ("4 °C;")', () => {
    expect(bindings(['like', '4', '°C;', 'the'])).toEqual([true, true, false]);
    const text = 'Storm gusts with 9 °C that feels like 4 °C; the coast may flood.';
    const f = fit(text, Math.ceil(w('Storm gusts with 9 °C that feels like 4')) + 1);
    expect(lines(f).some((l) => /\d$/u.test(l))).toBe(false);
    expect(lines(f).some((l) => l.startsWith('°C'))).toBe(false);
  });

  it('gives way on a short word\'s lean rather than leave a word alone on a last line ("Stay in if you / can.")', () => {
    const f = fit('Stay in if you can.', Math.ceil(w('Stay in if you')) + 1);
    expect(f.lines).toHaveLength(2);
    expect(lines(f).at(-1)).not.toBe('can.');
    expect(f.lines.every((l) => l.width <= Math.ceil(w('Stay in if you')) + 1)).toBe(true);
  });

  it.each(['kindle-paperwhite', 'waveshare-4in2', 'inkplate-10', 'waveshare-7in5-v2', 'trmnl'])(
    'Japanese on %s: no "1 / °C", no last line of a kana and "。"',
    (panel) => {
      const laid = layoutFrame(extraInput('japanese', 'Hallway'), loadPanel(panel), { rotation: 0 });
      const blocks = laid.report.blocks.filter((b) => /[\u3040-\u30ff]/u.test(b.lines.map((l) => l.text).join('')));
      expect(blocks.length).toBeGreaterThan(0);
      for (const b of blocks) {
        const ls = b.lines.map((l) => l.text);
        expect(ls.filter((l) => /\d$/u.test(l))).toEqual([]);
        expect(ls.filter((l) => l.startsWith('°'))).toEqual([]);
        if (ls.length > 1) expect([...ls.at(-1)!].length).toBeGreaterThanOrEqual(4);
      }
    },
  );
});
