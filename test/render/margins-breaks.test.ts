import { describe, expect, it } from 'vitest';
import { layoutFrame, renderIndices, type DetailedFrame } from '../../src/render/frame.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { BUILT_IN_LOCALES, localeFor } from '../../src/i18n/locale.js';
import { measure } from '../../src/render/text/fonts.js';
import type { FittedText } from '../../src/render/text/text-fit.js';
import type { Box } from '../../src/render/draw/box.js';
import { SAMPLE_CASES } from '../fixtures/samples.js';
import { ALL_CASES, caseInput, isSmallView, ROTATIONS, type FrameCase } from './frame-cases.js';

/**
 * Margins and breaks, over every panel, both ways round, and every case the frame checks draw. Margins by the pixels
 * (in English: the layout's geometry is the same in every language): no ink nearer the panel's edge than the frame's
 * margin, but a band's fill that runs off the edge, and none nearer a rule or the old outfit's dashed frame. Breaks
 * by the layout report, in every locale: no line of a block is a lone time, number or short word, ends with a
 * separator or a word of two letters, or starts with a time or number, where moving one word down would mend it.
 */

/** The frame's margin, px: 1′ of arc where the panel is read, never below 3 px (type-scale.ts says why). */
function marginOf(d: DetailedFrame): number {
  const mm = Math.tan((1 / 60) * (Math.PI / 180)) * d.scale.distanceMm;
  return Math.max(3, Math.round((mm * d.scale.ppi) / 25.4));
}

/** Clear pixels between (x, y) and box `r` (-1: inside it). */
const gap = (x: number, y: number, r: Box): number =>
  Math.max(r.x - x - 1, x - (r.x + r.w), r.y - y - 1, y - (r.y + r.h));

/** Ink too near the edge (not a fill running off it across the margin) or too near a rule, as "what x,y", the first few. */
function crowded(d: DetailedFrame, paper: number, M: number): string[] {
  const { width: W, height: H, indices } = d;
  const ink = (x: number, y: number): boolean => indices[y * W + x] !== paper;
  const out: string[] = [];
  // Whether the row or column from the edge to the margin is all ink: a band that runs off the edge.
  const runsOff = (x: number, y: number, side: 'left' | 'top' | 'right' | 'bottom'): boolean => {
    for (let k = 0; k < M; k++) {
      const [xx, yy] =
        side === 'left' ? [k, y] : side === 'right' ? [W - 1 - k, y] : side === 'top' ? [x, k] : [x, H - 1 - k];
      if (!ink(xx, yy)) return false;
    }
    return true;
  };
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (y >= M && y < H - M && x === M) x = W - M;
      if (!ink(x, y)) continue;
      const near = [
        [x, 'left'],
        [y, 'top'],
        [W - 1 - x, 'right'],
        [H - 1 - y, 'bottom'],
      ] as const;
      for (const [e, side] of near)
        if (e < M && !runsOff(x, y, side) && out.length < 5) out.push(`ink ${e} px from the ${side} edge at ${x},${y}`);
    }
  }
  const rules = d.drawn.rules;
  const inRule = (x: number, y: number): boolean => rules.some((r) => gap(x, y, r) < 0);
  for (const r of rules) {
    for (let y = Math.max(0, Math.floor(r.y) - M); y < Math.min(H, Math.ceil(r.y + r.h) + M); y++)
      for (let x = Math.max(0, Math.floor(r.x) - M); x < Math.min(W, Math.ceil(r.x + r.w) + M); x++) {
        if (!ink(x, y) || inRule(x, y)) continue;
        const g = gap(x, y, r);
        if (g < M && out.length < 10) out.push(`ink ${g} px from the rule ${JSON.stringify(r)} at ${x},${y}`);
      }
  }
  return out;
}

/** A word without the punctuation around it. */
const bare = (w: string): string => w.replace(/^[("'«„“‘¿¡]+|[)"'»“”’.,;:!?…]+$/gu, '');
const isTime = (w: string): boolean => /^\d{1,2}[:.h]\d{2}$/u.test(bare(w));
const isNumber = (w: string): boolean => /^[+\-−]?\d+(?:[.,]\d+)*\D{0,2}$/u.test(bare(w));
const isSeparator = (w: string): boolean => /^[·•|–—]$/u.test(w);
/** One or two letters, no punctuation: "a", "No", "à". */
const leans = (w: string): boolean => /^\p{L}{1,2}$/u.test(w);
/** A line of one word that says nothing alone: a time, a number, a separator, a word of at most 7 letters. */
const lone = (words: string[]): boolean =>
  words.length === 1 && (isTime(words[0]!) || isNumber(words[0]!) || [...bare(words[0]!)].length <= 7);

/**
 * The bad breaks of a block, where moving the last word of the line before down mends them within the block's
 * widest line and leaves no lone line behind: "line / line".
 */
function badBreaks(b: FittedText): string[] {
  const lines = b.lines.map((l) => l.text.split(' ').filter(Boolean));
  const out: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1]!;
    const line = lines[i]!;
    const last = prev[prev.length - 1]!;
    const first = line[0]!;
    if (line.some((w) => w.includes('…')) || last.endsWith('-') || prev.length < 2) continue;
    const bad =
      lone(line) ||
      isSeparator(last) ||
      leans(last) ||
      ((isTime(first) || isNumber(first)) && !/[.,;:!?…]$/u.test(last));
    if (!bad) continue;
    // The word moved must not itself be bound to the one before it (a time, a number, a number's unit, after "a" or
    // "·"): moving it alone would break another pair.
    const before = prev[prev.length - 2]!;
    if (isTime(last) || isNumber(last) || isNumber(before) || isSeparator(before) || leans(before)) continue;
    if (measure(b.font, b.size, `${last} ${line.join(' ')}`) > b.width) continue;
    if (lone(prev.slice(0, -1))) continue;
    out.push(`${prev.join(' ')} / ${line.join(' ')}`);
  }
  return out;
}

describe('margins', () => {
  it('keeps all ink the frame’s margin from the panel’s edges and from every rule, on every panel and case', () => {
    const found: string[] = [];
    for (const id of listPanelIds()) {
      const panel = loadPanel(id);
      const paper = panel.palette.findIndex((e) => e.rgb === '#ffffff');
      for (const rotation of ROTATIONS) {
        for (const c of ALL_CASES) {
          const d = renderIndices(caseInput(c, localeFor('en')), panel, { rotation });
          const M = marginOf(d);
          expect(d.scale.margin, id).toBe(M);
          // The old outfit's dashed frame counts as rules (its sides): text keeps the margin from it too.
          if (d.report.markedOld) expect(d.drawn.rules.length, `${id} ${c}`).toBeGreaterThanOrEqual(3);
          for (const f of crowded(d, paper, M)) found.push(`${id} ${rotation}° ${c} (margin ${M}): ${f}`);
        }
      }
    }
    expect(found).toEqual([]);
  }, 120_000);
});

/**
 * One panel of each geometry: a layout depends on the view's size and pixel density alone (the palette only
 * colours it), so panels that share them (the four 7.5" ones, the OpenEPaperLink tags and the Waveshare panels they
 * copy) share their lines.
 */
function geometries(): string[] {
  const seen = new Map<string, string>();
  for (const id of listPanelIds()) {
    const p = loadPanel(id);
    const key = `${p.width}x${p.height}@${p.ppi}`;
    if (!seen.has(key)) seen.set(key, id);
  }
  return [...seen.values()];
}

/**
 * The cases a panel's layout is checked with in a locale, to keep the check within a minute: every case in English
 * and on the small panels; on the wall panels, in the other locales, the cases with a block of the locale's own
 * words (the screen without an outfit, the headline of an old one, an error's) and one more sample case in turn, so
 * that the locales together cover every case.
 */
function casesFor(small: boolean, i: number): readonly FrameCase[] {
  if (small || i === 0) return ALL_CASES;
  return ['no-outfit', 'old', 'error', SAMPLE_CASES[i % SAMPLE_CASES.length]!];
}

describe('breaks', () => {
  it('leaves no lone time, number or short word, and breaks no bound words, where a better break exists', () => {
    expect(BUILT_IN_LOCALES[0]).toBe('en');
    const found = new Set<string>();
    for (const id of geometries()) {
      const panel = loadPanel(id);
      for (const rotation of ROTATIONS) {
        BUILT_IN_LOCALES.forEach((code, i) => {
          const locale = localeFor(code);
          for (const c of casesFor(isSmallView(panel, rotation), i)) {
            const { report } = layoutFrame(caseInput(c, locale), panel, { rotation });
            for (const b of report.blocks)
              for (const bad of badBreaks(b)) found.add(`${id} ${rotation}° ${code} ${c}: ${bad}`);
          }
        });
      }
    }
    expect([...found]).toEqual([]);
  }, 120_000);
});
