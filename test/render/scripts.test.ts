import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanText, drawText, font, measure, measureEm, type FontId } from '../../src/render/text/fonts.js';
import { useSystemFonts } from '../../src/render/text/font-stack.js';
import { DEFAULT_SYSTEM_FONTS, systemFontFiles } from '../../src/render/text/system-fonts.js';
import { TextLayer } from '../../src/render/text/text-layer.js';
import { fitText } from '../../src/render/text/text-fit.js';
import { renderFrame, renderIndices, type DetailedFrame } from '../../src/render/frame.js';
import { frameJson } from '../../src/render/frame-json.js';
import { loadPanel } from '../../src/panels/panels.js';
import { localeFor } from '../../src/i18n/locale.js';
import { NORMAL, sampleInput } from '../fixtures/samples.js';

/**
 * Every character accounted for: the hostile inputs of an outside probe draw with a real glyph from the font stack or,
 * where no font has one, a box; never the "?" glyph that the old fallback drew. Chinese, Japanese and Korean come
 * from a system font where one is installed (system-fonts.ts; `.ci/setup` installs fonts-wqy-microhei); where none
 * is, a text in them is said in words, never drawn as boxes. Right-to-left paragraphs end at their box's right edge.
 */

/** A folder without fonts, for the system font search: as on a machine with no CJK font package. */
const NO_FONTS = { dirs: [mkdtempSync(path.join(tmpdir(), 'outfit-no-fonts-'))] };

/** The system fonts for the tests of a describe block; the default again after (the fast tier shares modules). */
function withSystemFonts(opts: { dirs: readonly string[] }): void {
  beforeAll(() => useSystemFonts(opts));
  afterAll(() => useSystemFonts(DEFAULT_SYSTEM_FONTS));
}

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
/** Drawn from a system font where one is installed, else boxes. */
const CJK: Record<string, string> = {
  chinese: '雨衣',
  japanese: 'レインコート、傘は要りません。',
  korean: '우비',
};
/** Drawn as boxes whatever is installed: no font here has it (a system font is asked for CJK alone). */
const BOXED: Record<string, string> = {
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

  it.each(Object.entries(BOXED))('draws %s, which no font has, as boxes, never "?"', (_name, text) => {
    for (const ch of new Set(text)) {
      const pic = ink(id, ch);
      expect(pic).not.toBe(question);
      expect(isBox(pic), `U+${ch.codePointAt(0)!.toString(16)} ${ch}`).toBe(true);
      expect(font(id).glyph(ch)).toMatchObject({ missing: true, index: 0, source: 0 });
    }
  });
});

describe('Chinese, Japanese and Korean with a system font installed', () => {
  it('finds one in its Debian path (.ci/setup installs fonts-wqy-microhei)', () => {
    expect(systemFontFiles(DEFAULT_SYSTEM_FONTS), 'no CJK font in /usr/share/fonts: run .ci/setup').not.toEqual([]);
  });

  describe.each(IDS)('the %s font stack', (id) => {
    it.each(Object.entries(CJK))('draws %s with real glyphs from it, never a box', (_name, text) => {
      for (const ch of new Set(text)) {
        const g = font(id).glyph(ch);
        expect(g, `U+${ch.codePointAt(0)!.toString(16)} ${ch}`).toMatchObject({ missing: false, system: true });
        const pic = ink(id, ch);
        expect(pic, ch).not.toBe('');
        expect(isBox(pic), `U+${ch.codePointAt(0)!.toString(16)} ${ch} is a box`).toBe(false);
      }
    });

    it.each(Object.entries(BOXED))('still draws %s as boxes: no CJK font is asked for it', (_name, text) => {
      for (const ch of new Set(text)) expect(font(id).glyph(ch).missing).toBe(true);
    });
  });
});

describe('Chinese, Japanese and Korean with no system font', () => {
  withSystemFonts(NO_FONTS);

  it.each(IDS)('draws them as boxes in the %s font stack, never "?"', (id) => {
    const question = ink(id, '?');
    for (const text of Object.values(CJK)) {
      for (const ch of new Set(text)) {
        if (!/\p{L}/u.test(ch)) continue;
        const pic = ink(id, ch);
        expect(pic).not.toBe(question);
        expect(isBox(pic), `U+${ch.codePointAt(0)!.toString(16)} ${ch}`).toBe(true);
        expect(font(id).glyph(ch)).toMatchObject({ missing: true, index: 0, source: 0 });
      }
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

describe('a frame whose outfit is in Japanese', () => {
  const OUTFIT = '暖かいウールのコートに厚手のセーター、ジーンズと防水ブーツを合わせてください。傘は要りません。';
  const REASONING = '気温は4℃、体感温度は1℃です。';
  const ALERT = '強風注意報：午後は突風のおそれ';
  const panel = loadPanel('waveshare-7in5-v2');
  const draw = (locale = 'en'): DetailedFrame =>
    renderIndices(
      {
        ...sampleInput('normal', 'Hallway', localeFor(locale)),
        rec: { ...NORMAL, outfit: OUTFIT, reasoning: REASONING, weather: { ...NORMAL.weather, alerts: [ALERT] } },
      },
      panel,
      { rotation: 0 },
    );
  /** Ink pixels of the frame inside each of the outfit's lines, as drawn (its pen's advance, ascent to descent). */
  const inkPerLine = (d: DetailedFrame): number[] =>
    d.report.outfit!.lines.map((line) => {
      const t = d.report.textBoxes.find((b) => b.text.endsWith(line.text))!;
      const w = measure(t.font, t.size, t.text);
      let n = 0;
      for (let y = Math.round(t.baseline - t.size); y < t.baseline + t.size * 0.25; y++)
        for (let x = Math.round(t.x); x < t.x + w; x++) if (d.indices[y * d.width + x] === 0) n++;
      return n;
    });

  describe('with a system font', () => {
    it("draws it with the font's glyphs: every character of it, no box anywhere", () => {
      const d = draw();
      expect(d.report.missingGlyphs).toEqual([]);
      expect(d.report.missingScripts).toEqual([]);
      expect(d.report.outfit!.lines.map((l) => l.text).join('')).toBe(OUTFIT);
      expect(d.report.alerts[0]!.lines[0]!.text).toBe(ALERT);
      for (const ch of new Set(OUTFIT)) expect(isBox(ink('condensed', ch, d.report.outfit!.size)), ch).toBe(false);
      // Ink inside every line's glyphs, a good share of its area (a box's outline alone is a few per cent).
      for (const [i, n] of inkPerLine(d).entries()) {
        const t = d.report.outfit!;
        expect(n, `line ${i}`).toBeGreaterThan(t.lines[i]!.width * t.size * 0.12);
      }
      expect(frameJson(d, panel, 0, 'x')).toMatchObject({ missing_glyphs: [], missing_scripts: [] });
    });

    it('breaks its lines between characters, never before closing punctuation or after an opening bracket', () => {
      const outfit = draw().report.outfit!;
      expect(outfit.lines.length).toBeGreaterThan(1);
      // Break points between the characters: none of it is cut as a word too long for its line.
      expect(outfit.midWord).toBe(false);
      expect(outfit.truncated).toBe(false);
      for (const l of outfit.lines.slice(1))
        expect(l.text, 'a line starting with closing punctuation').not.toMatch(/^[、。ー」]/u);
      // Five full-width characters a line: "。" does not start the second, nor "「" end one.
      const fit = (text: string): string[] =>
        fitText({ text, font: 'condensed', width: 50, height: 100, maxSize: 10, minSize: 10 }).lines.map((l) => l.text);
      expect(fit('あいうえお。かき')).toEqual(['あいうえ', 'お。かき']);
      expect(fit('あいうえ「おか」')).toEqual(['あいうえ', '「おか」']);
    });
  });

  describe('with no font for it', () => {
    withSystemFonts(NO_FONTS);

    it("says so in words in the display's language, names the script, and draws no box", async () => {
      const d = draw();
      expect(d.report.missingGlyphs).toEqual([]);
      expect(d.report.outfit!.lines.map((l) => l.text).join(' ')).toBe(
        'This outfit is in a script this display has no font for (Japanese)',
      );
      // The reasoning, in the same script, is left out; the alert keeps its band and says what it is.
      expect(d.report.reasoning).toBeNull();
      expect(d.report.alerts[0]!.lines[0]!.text).toMatch(/^Weather alert in Japanese/);
      expect(frameJson(d, panel, 0, 'x').missing_scripts).toEqual([
        { script: 'Japanese', code: 'Jpan', elements: ['outfit', 'reasoning', 'alerts'] },
      ]);
      const de = draw('de');
      expect(de.report.outfit!.lines.map((l) => l.text).join(' ')).toBe(
        'Dieses Outfit ist in einer Schrift, für die diese Anzeige keine Schriftart hat (Japanisch)',
      );
      // The daemon's frame draws, and carries the script for the warning (W_SCRIPT_NO_FONT).
      const frame = await renderFrame(
        { ...sampleInput('normal'), rec: { ...NORMAL, outfit: OUTFIT } },
        loadPanel('waveshare-2in13'),
        { rotation: 0 },
      );
      expect(frame.png.length).toBeGreaterThan(0);
      expect(frame.missingGlyphs).toEqual([]);
      expect(frame.missingScripts).toEqual([{ code: 'Jpan', name: 'Japanese', elements: ['outfit'] }]);
    });

    it('names Chinese and Korean as such, and a script no font is sought for by its own name', () => {
      const outfit = (text: string): string =>
        renderIndices({ ...sampleInput('normal'), rec: { ...NORMAL, outfit: text } }, panel, { rotation: 0 })
          .report.outfit!.lines.map((l) => l.text)
          .join(' ');
      expect(outfit('穿雨衣')).toMatch(/\(Chinese\)$/);
      expect(outfit('우비를 입으세요')).toMatch(/\(Korean\)$/);
      expect(outfit('बरसाती पहनें')).toMatch(/\(Devanagari\)$/);
    });
  });
});

describe('a right-to-left outfit', () => {
  const HEBREW =
    'לבשו מעיל צמר חם מעל סוודר סרוג עבה, עם ג׳ינס כהה ומגפי עור עמידים למים. הוסיפו צעיף וכפפות דקות להליכה היום.';
  const ARABIC = 'ارتدِ معطفًا صوفيًا دافئًا فوق كنزة محبوكة سميكة، مع جينز داكن وحذاء جلدي مقاوم للماء. أضف وشاحًا اليوم.';

  /** The outfit's lines as drawn: each line's left (its pen) and right edge, px; the box's left and right edges. */
  function outfitLines(outfit: string, panelId: string, rotation: 0 | 90) {
    const d = renderIndices({ ...sampleInput('normal'), rec: { ...NORMAL, outfit } }, loadPanel(panelId), { rotation });
    const block = d.report.outfit!;
    // Each line's ink box (ink-box.ts): its pen's left, and its designed advance to the right.
    const drawn = block.lines.map((line) => {
      const at = d.report.inks.find((i) => i.text === line.text)!;
      return { left: at.x, right: at.right, text: line.text };
    });
    return { d, block, drawn };
  }

  const TEXTS = { Hebrew: HEBREW, Arabic: ARABIC };
  it.each([
    ['Hebrew', 'waveshare-7in5-v2', 0],
    ['Arabic', 'waveshare-7in5-v2', 0],
    ['Hebrew', 'kindle-paperwhite', 0],
    ['Arabic', 'waveshare-2in9', 0],
    ['Hebrew', 'trmnl', 90],
  ] as const)('in %s ends every line at the right edge of its box (%s at %i°)', (script, panelId, rotation) => {
    const text = TEXTS[script];
    const english = outfitLines(NORMAL.outfit, panelId, rotation);
    const boxLeft = Math.min(...english.drawn.map((l) => l.left));
    const boxRight = boxLeft + english.block.boxWidth!;
    const { d, block, drawn } = outfitLines(text, panelId, rotation);
    expect(drawn.length).toBeGreaterThan(1);
    for (const l of drawn) expect(l.right, l.text).toBeCloseTo(boxRight, 0);
    // The last, shortest line starts well inside the box: the lines are not merely all full.
    expect(drawn[drawn.length - 1]!.left).toBeGreaterThan(boxLeft + block.size);
    // And its ink, as seen: the rightmost ink of each line's rows ends near the edge, never past it.
    for (const [i, l] of drawn.entries()) {
      const t = d.report.textBoxes.find((b) => b.text.endsWith(l.text))!;
      let rightmost = -1;
      for (let y = Math.round(t.baseline - block.size * 0.7); y < t.baseline; y++)
        for (let x = Math.round(l.left); x < d.width; x++)
          if (d.indices[y * d.width + x] === 0) rightmost = Math.max(rightmost, x);
      expect(rightmost, `line ${i}`).toBeGreaterThan(boxRight - 0.3 * block.size);
      expect(rightmost, `line ${i}`).toBeLessThan(boxRight + 2);
    }
  });

  it('keeps a left-to-right outfit at the left of its box', () => {
    const { drawn } = outfitLines(NORMAL.outfit, 'waveshare-7in5-v2', 0);
    expect(new Set(drawn.map((l) => Math.round(l.left))).size).toBe(1);
  });
});
