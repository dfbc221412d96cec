import { describe, expect, it } from 'vitest';
import { shapeArabic } from '../../src/render/text/arabic-shaping.js';
import { visualOrder } from '../../src/render/text/bidi.js';
import { drawText, font } from '../../src/render/text/fonts.js';
import { TextLayer } from '../../src/render/text/text-layer.js';

/** Arabic joined: letters in their isolated, initial, medial and final presentation forms. */

const has = (cp: number): boolean => font('regular').has(cp);
const hex = (s: string): string[] => [...s].map((c) => c.codePointAt(0)!.toString(16).toUpperCase());

describe('shapeArabic', () => {
  it('gives initial, medial and final forms in a word', () => {
    // بيت: beh initial, yeh medial, teh final.
    expect(hex(shapeArabic('بيت', has))).toEqual(['FE91', 'FEF4', 'FE96']);
  });

  it('joins lam and alef into the ligature, and a letter after a right-joining one starts afresh', () => {
    // سلام: seen initial, lam-alef final, meem isolated (alef does not join what follows).
    expect(hex(shapeArabic('سلام', has))).toEqual(['FEB3', 'FEFC', 'FEE1']);
    expect(hex(shapeArabic('لا', has))).toEqual(['FEFB']);
  });

  it('treats harakat as transparent and keeps them', () => {
    expect(hex(shapeArabic('بَت', has))).toEqual(['FE91', '64E', 'FE96']);
  });

  it('breaks a join at ZWNJ and makes one at ZWJ', () => {
    expect(hex(shapeArabic('ب\u200cت', has))).toEqual(['FE8F', '200C', 'FE95']);
    expect(hex(shapeArabic('ب\u200d', has))).toEqual(['FE91', '200D']);
  });

  it('joins Persian letters from the FB50 block', () => {
    // پیک: peh initial, farsi yeh medial, keheh final.
    expect(hex(shapeArabic('پیک', has))).toEqual(['FB58', 'FBFF', 'FB8F']);
  });

  it('leaves a letter alone when the font lacks its form, and other text untouched', () => {
    expect(shapeArabic('بيت', () => false)).toBe('بيت');
    expect(shapeArabic('Wear a coat', has)).toBe('Wear a coat');
  });
});

describe('drawing Arabic', () => {
  it('draws the joined forms right to left', () => {
    const draw = (text: string): Buffer => {
      const layer = new TextLayer(300, 40, [
        [0, 0, 0],
        [255, 255, 255],
      ]);
      drawText(layer, 'regular', 24, text, 10, 30, '#000000');
      return Buffer.from(layer.index);
    };
    // One character at a time: nothing to join or reorder, so this is the order and forms as given.
    const each = (visual: string): Buffer => {
      const layer = new TextLayer(300, 40, [
        [0, 0, 0],
        [255, 255, 255],
      ]);
      let x = 10;
      for (const ch of visual) x += drawText(layer, 'regular', 24, ch, x, 30, '#000000');
      return Buffer.from(layer.index);
    };
    expect(draw('بيت').equals(each('\ufe96\ufef4\ufe91'))).toBe(true);
    expect(draw('بيت').equals(each('بيت'))).toBe(false);
    // A number inside Arabic keeps its order: "rain 5 mm" with the words joined and right to left.
    expect(hex(visualOrder(shapeArabic('مطر 15 مم', has)))).toEqual([
      'FEE2',
      'FEE3',
      '20',
      '31',
      '35',
      '20',
      'FEAE',
      'FEC4',
      'FEE3',
    ]);
  });
});
