import { describe, expect, it } from 'vitest';
import { cleanText, drawText, font, measureEm, type FontId } from '../../src/render/text/fonts.js';
import { TextLayer } from '../../src/render/text/text-layer.js';

/**
 * Every character accounted for: the hostile inputs of an outside probe draw with a real glyph from the font stack or,
 * where no bundled font has one, a box; never the "?" glyph that the old fallback drew.
 */

const SIZE = 24;
const IDS: FontId[] = ['regular', 'bold', 'condensed', 'condensed-bold'];

/** The ink of `text` drawn alone, as a string of rows ('#' ink, '.' none), trimmed to its ink's box. */
function ink(id: FontId, text: string, size = SIZE): string {
  const w = Math.ceil(measureEm(id, text) * size) + 2 * size;
  const layer = new TextLayer(w, 2 * size, [
    [0, 0, 0],
    [255, 255, 255],
  ]);
  drawText(layer, id, size, text, size, Math.round(size * 1.4), '#000000');
  const rows: string[] = [];
  for (let y = 0; y < layer.height; y++) {
    let row = '';
    for (let x = 0; x < w; x++) row += layer.index[y * w + x] === 0 ? '#' : '.';
    rows.push(row);
  }
  const inked = rows.map((r, y) => (r.includes('#') ? y : -1)).filter((y) => y >= 0);
  if (inked.length === 0) return '';
  const cols = rows.reduce((m, r) => Math.min(m, r.indexOf('#') < 0 ? Infinity : r.indexOf('#')), Infinity);
  const last = rows.reduce((m, r) => Math.max(m, r.lastIndexOf('#')), -1);
  return rows
    .slice(inked[0], inked[inked.length - 1]! + 1)
    .map((r) => r.slice(cols, last + 1))
    .join('\n');
}

/** A hollow rectangle: ink all round its edge, none inside. */
function isBox(pic: string): boolean {
  const rows = pic.split('\n');
  if (rows.length < 6 || rows[0]!.length < 6) return false;
  const inner = rows.slice(2, -2).map((r) => r.slice(2, -2));
  return (
    /^#+$/.test(rows[0]!) &&
    /^#+$/.test(rows[rows.length - 1]!) &&
    rows.every((r) => r.startsWith('#') && r.endsWith('#')) &&
    inner.every((r) => !r.includes('#'))
  );
}

const DRAWN: Record<string, string> = {
  thai: 'เสื้อกันฝน',
  symbols: '✅ ⛅ ☀ ☁ ☂ ☔ ❄ ✓ ✔ ° ± × → ↗ € £ ¥ …',
  hebrew: 'מעיל גשם',
  arabic: 'معطف واق من المطر',
  greek: 'Ζεστό παλτό',
  cyrillic: 'Тёплая куртка',
  polish: 'Zażółć gęślą jaźń',
  czech: 'Příliš žluťoučký kůň',
  vietnamese: 'Áo khoác ấm, trời mưa nhẹ',
  decomposed: 'Cafe\u0301 e\u0302\u0301 n\u0303',
};
const BOXED: Record<string, string> = {
  chinese: '雨衣',
  japanese: 'レインコート',
  korean: '우비',
  devanagari: 'बरसाती',
};

describe.each(IDS)('the %s font stack', (id) => {
  const question = ink(id, '?');
  const questionGlyph = font(id).glyph('?').key;

  it.each(Object.entries(DRAWN))('draws %s with real glyphs, none of them "?" or a box', (_name, text) => {
    for (const ch of new Set(cleanText(text).normalize('NFC'))) {
      if (ch === ' ') continue;
      const pic = ink(id, ch);
      expect(pic, `U+${ch.codePointAt(0)!.toString(16)} ${ch}`).not.toBe(question);
      expect(isBox(pic), `U+${ch.codePointAt(0)!.toString(16)} ${ch} is a box`).toBe(false);
      expect(font(id).glyph(ch).missing).toBe(false);
      expect(font(id).glyph(ch).key).not.toBe(questionGlyph);
    }
  });

  it.each(Object.entries(BOXED))('draws %s, which no bundled font has, as boxes, never "?"', (_name, text) => {
    for (const ch of new Set(text)) {
      const pic = ink(id, ch);
      expect(pic).not.toBe(question);
      expect(isBox(pic), `U+${ch.codePointAt(0)!.toString(16)} ${ch}`).toBe(true);
      expect(font(id).glyph(ch)).toMatchObject({ missing: true, index: 0, source: 0 });
    }
  });
});

describe('characters that are not drawn as themselves', () => {
  it('draws a decomposed é exactly as the precomposed one', () => {
    expect(ink('regular', 'Cafe\u0301')).toBe(ink('regular', 'Café'));
    expect(measureEm('regular', 'Cafe\u0301')).toBe(measureEm('regular', 'Café'));
    // Vietnamese stacks two marks: NFC composes both.
    expect(ink('bold', 'Vie\u0323\u0302t')).toBe(ink('bold', 'Việt'));
  });

  it('centres a combining mark that has no precomposed letter over its base, taking no width', () => {
    const base = ink('regular', 'x', 48).split('\n');
    const marked = ink('regular', 'x\u0301', 48).split('\n');
    expect(measureEm('regular', 'x\u0301')).toBe(measureEm('regular', 'x'));
    // The mark sits above the x and within its width.
    expect(marked.length).toBeGreaterThan(base.length);
    expect(marked[marked.length - 1]).toBe(base[base.length - 1]);
    expect(marked[0]!.length).toBe(base[0]!.length);
  });

  it('raises a mark above clear of a capital, and a Thai tone mark clear of the vowel above its letter', () => {
    for (const [base, marked] of [
      ['X', 'X\u0301'],
      ['Q', 'Q\u0307'],
    ]) {
      const plain = ink('regular', base!, 48).split('\n');
      const rows = ink('regular', marked!, 48).split('\n');
      // The letter's rows are unchanged at the bottom; at least one empty row separates it from the mark above.
      expect(rows.slice(-plain.length).join('\n').replaceAll('#', '')).toBe(plain.join('\n').replaceAll('#', ''));
      expect(rows[rows.length - plain.length - 1]).toMatch(/^\.+$/);
    }
    // ที่: tho thahan, sara ii, mai ek; the tone mark stands above the vowel, not on it.
    const vowel = ink('regular', 'ที', 48).split('\n').length;
    const both = ink('regular', 'ที่', 48).split('\n').length;
    expect(both).toBeGreaterThan(vowel + 2);
  });

  it('draws a soft hyphen as nothing, taking no width', () => {
    expect(measureEm('regular', 'rain\u00adcoat')).toBe(measureEm('regular', 'raincoat'));
    expect(ink('regular', 'rain\u00adcoat')).toBe(ink('regular', 'raincoat'));
    expect(cleanText('rain\u00adcoat')).toBe('rain\u00adcoat');
  });

  it('draws zero-width joiner, non-joiner, space and direction marks as nothing', () => {
    for (const z of ['\u200c', '\u200d', '\u200b', '\u200e', '\u2060', '\ufeff']) {
      expect(measureEm('condensed', `ab${z}cd`)).toBe(measureEm('condensed', 'abcd'));
      expect(ink('condensed', `ab${z}cd`)).toBe(ink('condensed', 'abcd'));
    }
  });

  it('still draws a real question mark', () => {
    expect(ink('regular', '?')).not.toBe('');
    expect(isBox(ink('regular', '?'))).toBe(false);
  });
});
