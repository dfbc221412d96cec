import { describe, expect, it } from 'vitest';
import { drawFitted, firstBaseline } from '../../src/render/layout/blocks.js';
import { baseDirection, visualOrder } from '../../src/render/text/bidi.js';
import { drawText, measureEm, type FontId } from '../../src/render/text/fonts.js';
import { matchPalette } from '../../src/render/frame.js';
import { loadPanel, ppiOf } from '../../src/panels/panels.js';
import { createSurface } from '../../src/render/draw/surface.js';
import { fitText } from '../../src/render/text/text-fit.js';
import { TextLayer } from '../../src/render/text/text-layer.js';
import { typeScale } from '../../src/render/draw/type-scale.js';

/** Right-to-left text in display order: Hebrew reversed, digits and Latin inside it kept left to right. */

/** Draws `visual` one character at a time, left to right, so that nothing reorders it. */
function drawEach(l: TextLayer, id: FontId, visual: string, x: number, y = 30): void {
  for (const ch of visual) x += drawText(l, id, 24, ch, x, y, '#000000');
}

function layer(): TextLayer {
  return new TextLayer(400, 40, [
    [0, 0, 0],
    [255, 255, 255],
  ]);
}

describe('visualOrder', () => {
  it('reverses a Hebrew word and keeps Latin text as it is', () => {
    expect(visualOrder('שלום')).toBe('םולש');
    expect(visualOrder('Wear a coat')).toBe('Wear a coat');
  });

  it('keeps a number inside Hebrew left to right, sign and decimal point included', () => {
    expect(visualOrder('מעיל 12')).toBe('12 ליעמ');
    expect(visualOrder('טמפרטורה -4.5 מעלות')).toBe('תולעמ -4.5 הרוטרפמט');
    expect(visualOrder('בשעה 06:58')).toBe('06:58 העשב');
  });

  it('keeps a Latin word inside a Hebrew line, and a Hebrew word inside a Latin line, in its own order', () => {
    expect(visualOrder('מעיל Gore-Tex חם')).toBe('םח Gore-Tex ליעמ');
    expect(visualOrder('Take a מטריה today')).toBe('Take a הירטמ today');
    expect(visualOrder('Rain: גשם 80%')).toBe('Rain: 80% םשג');
    expect(visualOrder('גשם 4°C')).toBe('4°C םשג');
  });

  it('mirrors brackets inside right-to-left text', () => {
    expect(visualOrder('מעיל (חם)')).toBe('(םח) ליעמ');
  });

  it('keeps Hebrew points after their letter', () => {
    expect(visualOrder('שָׁלוֹם')).toBe('םוֹלשָׁ');
  });

  it('is what drawText draws: the last letter of a Hebrew word leftmost', () => {
    const id: FontId = 'regular';
    for (const [logical, visual] of [
      ['אב', 'בא'],
      ['מעיל 12', '12 ליעמ'],
    ] as const) {
      const a = layer();
      drawText(a, id, 24, logical, 10, 30, '#000000');
      const b = layer();
      drawEach(b, id, visual, 10);
      expect(Buffer.from(a.index).equals(Buffer.from(b.index)), logical).toBe(true);
    }
    expect(measureEm(id, 'מעיל 12')).toBe(measureEm(id, 'מעיל') + measureEm(id, ' 12'));
  });
});

describe('fitted text with right-to-left words', () => {
  it('draws a Hebrew line with its words in display order, as one line is drawn, against the right edge', () => {
    const panel = loadPanel('waveshare-7in5-v2');
    const palette = matchPalette(panel);
    const { surface } = createSurface(400, 60, panel, palette, 1, typeScale('wall', ppiOf(panel)));
    const fitted = fitText({ text: 'מעיל חם 12', font: 'regular', width: 380, height: 50, maxSize: 24, minSize: 24 });
    expect(fitted.lines.map((l) => l.text)).toEqual(['מעיל חם 12']);
    drawFitted(surface, fitted, 10, 0, '#000000');
    const whole = new TextLayer(400, 60, palette);
    // The line ends where the box of 380 px from x 10 ends: it starts its width before.
    const width = measureEm('regular', 'מעיל חם 12') * 24;
    drawEach(whole, 'regular', '12 םח ליעמ', 10 + 380 - width, firstBaseline(0, fitted));
    expect(Buffer.from(surface.text.index).equals(Buffer.from(whole.index))).toBe(true);
  });

  it('draws each line of an English paragraph left to right, also a line that starts with a Hebrew word', () => {
    expect(baseDirection('Wear a coat: שלום')).toBe('ltr');
    expect(baseDirection('12 שלום coat')).toBe('rtl');
    const panel = loadPanel('waveshare-7in5-v2');
    const palette = matchPalette(panel);
    const { surface } = createSurface(400, 80, panel, palette, 1, typeScale('wall', ppiOf(panel)));
    const fitted = fitText({
      text: 'Wear a warm coat today שלום coat',
      font: 'regular',
      width: 300,
      height: 70,
      maxSize: 24,
      minSize: 24,
    });
    expect(fitted.lines.map((l) => l.text)).toEqual(['Wear a warm coat today', 'שלום coat']);
    drawFitted(surface, fitted, 10, 0, '#000000');
    const second = new TextLayer(400, 80, palette);
    // Left to right, as the paragraph runs: the Hebrew word (reversed in itself) first, then "coat". A line resolved
    // on its own would start right to left and put "coat" first.
    const y = firstBaseline(0, fitted) + fitted.pitch;
    drawEach(second, 'regular', 'םולש coat', 10, y);
    const rows = (l: TextLayer): Buffer => Buffer.from(l.index.subarray((y - 20) * 400, (y + 8) * 400));
    expect(rows(surface.text).equals(rows(second))).toBe(true);
  });
});
