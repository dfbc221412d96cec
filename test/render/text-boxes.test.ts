import { describe, expect, it } from 'vitest';
import { matchPalette, layoutFrame } from '../../src/render/frame.js';
import { listPanelIds, loadPanel, type PanelProfile } from '../../src/panels/panels.js';
import { BUILT_IN_LOCALES, localeFor } from '../../src/i18n/locale.js';
import { drawText } from '../../src/render/text/fonts.js';
import { TextLayer } from '../../src/render/text/text-layer.js';
import type { TextBox } from '../../src/render/draw/text-box.js';
import { ALL_CASES, BADGE_CASES, caseInput, isSmallView, ROTATIONS, type FrameCase } from './frame-cases.js';
import { SAMPLE_CASES } from '../fixtures/samples.js';

/**
 * No text is clipped. Each text a frame draws is drawn again alone, exactly as the frame drew it,
 * on a layer reaching an em beyond its room; every ink pixel must lie inside the room the layout gave it (its
 * font's ascent to descent on paper, the fill of a badge or band: text-box.ts) and inside the frame.
 */

/**
 * The cases a wall panel is checked with in the `i`th locale, to keep the check fast (all of them take a minute):
 * the badge's two, whose band is the fullest (badge, time, status), the screen without an outfit, and one sample case in turn, so that the locales
 * together cover every case. Small panels get every case in every locale.
 */
const wideCases = (i: number): readonly FrameCase[] => [
  ...BADGE_CASES,
  'no-outfit',
  SAMPLE_CASES[i % SAMPLE_CASES.length]!,
];

/** Ink pixels of `t` outside its room or the frame (`W` x `H`), as "x,y" of the first few. */
function inkOutside(t: TextBox, panel: PanelProfile, W: number, H: number): string[] {
  // The service's texts are the same in every locale: each placement is drawn once.
  const key = [panel.id, W, H, t.font, t.size, t.text, t.x, t.baseline, t.box.x, t.box.y, t.box.w, t.box.h].join('|');
  let out = checked.get(key);
  if (out === undefined) checked.set(key, (out = drawnOutside(t, panel, W, H)));
  return out;
}

const checked = new Map<string, string[]>();

function drawnOutside(t: TextBox, panel: PanelProfile, W: number, H: number): string[] {
  // No glyph reaches an em beyond its line's room (the room has the font's ascent and descent, and slack across).
  const m = Math.ceil(t.size);
  const ox = Math.floor(t.box.x) - m;
  const oy = Math.floor(t.box.y) - m;
  const lw = Math.ceil(t.box.w) + 2 * m + 2;
  const lh = Math.ceil(t.box.h) + 2 * m + 2;
  const layer = new TextLayer(lw, lh, matchPalette(panel));
  drawText(layer, t.font, t.size, t.text, t.x - ox, t.baseline - oy, '#000000');
  const out: string[] = [];
  const [x0, y0] = [Math.max(0, Math.floor(t.box.x + 1e-6)), Math.max(0, Math.floor(t.box.y + 1e-6))];
  const [x1, y1] = [Math.min(W, Math.ceil(t.box.x + t.box.w - 1e-6)), Math.min(H, Math.ceil(t.box.y + t.box.h - 1e-6))];
  // Only the layer outside the room can hold ink out of place: rows above and below it whole, and the columns either
  // side of it in the rows between.
  const inside = (fx: number, fy: number): boolean => fx >= x0 && fx < x1 && fy >= y0 && fy < y1;
  for (let y = 0; y < lh; y++) {
    const fy = y + oy;
    const rowInside = fy >= y0 && fy < y1;
    const skipFrom = rowInside ? Math.max(0, x0 - ox) : lw;
    const skipTo = rowInside ? Math.min(lw, x1 - ox) : lw;
    for (let x = 0; x < lw; x++) {
      if (x === skipFrom && skipTo > skipFrom) x = skipTo;
      if (x >= lw) break;
      if (layer.index[y * lw + x] === 255) continue;
      const fx = x + ox;
      if (!inside(fx, fy)) out.push(`${fx},${fy}`);
    }
  }
  return out;
}

describe('drawn text', () => {
  it('keeps every ink pixel inside its room and the frame, on every panel, either way round, in every locale', () => {
    const found: string[] = [];
    for (const id of listPanelIds()) {
      const panel = loadPanel(id);
      for (const rotation of ROTATIONS) {
        const small = isSmallView(panel, rotation);
        BUILT_IN_LOCALES.forEach((code, i) => {
          const locale = localeFor(code);
          for (const c of small ? ALL_CASES : wideCases(i)) {
            const d = layoutFrame(caseInput(c, locale), panel, { rotation });
            for (const t of d.report.textBoxes) {
              const out = inkOutside(t, panel, d.width, d.height);
              if (out.length > 0)
                found.push(
                  `${id} ${rotation}° ${code} ${c} "${t.text}" ${t.size.toFixed(1)}px: ${out.length} px outside, first ${out[0]} (room ${[t.box.x, t.box.y, t.box.w, t.box.h].map((v) => v.toFixed(1)).join(' ')})`,
                );
            }
          }
        });
      }
    }
    expect(found).toEqual([]);
  }, 120_000);
});
