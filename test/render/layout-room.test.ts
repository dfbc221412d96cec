import { describe, expect, it } from 'vitest';
import { chooseLayout, renderIndices, viewSize, type DetailedFrame } from '../../src/render/frame.js';
import { frameContent } from '../../src/render/layout/content.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { drawText } from '../../src/render/text/fonts.js';
import { TextLayer } from '../../src/render/text/text-layer.js';
import { ELLIPSIS } from '../../src/render/text/text-fit.js';
import { LONG_OUTFIT, SAMPLE_CASES, sampleInput } from '../fixtures/samples.js';

/**
 * Layouts that use their space: units and alert titles kept where the frame has the room, no
 * text cut while a line is free, a long outfit's first sentence set apart, the condition whole, missing glyphs
 * drawn as boxes.
 */

const ROTATIONS = [0, 90] as const;

/**
 * Rows without ink below the outfit's last line, across the block's width, down to the frame's edge or the next ink
 * (the dashed frame of an old outfit); and the rows one more line of the last block would need: its pitch, the
 * descenders (0.24 em) and a pixel of margin. The last line's ink box is the outline's, descenders included.
 */
function roomBelowOutfit(d: DetailedFrame, paper: number): { free: number; need: number } {
  const block = d.report.outfitRest ?? d.report.outfit!;
  const last = block.lines[block.lines.length - 1]!;
  const ink = [...d.report.inks].reverse().find((i) => i.text === last.text && i.size === block.size)!;
  const x0 = Math.floor(ink.x);
  const x1 = Math.ceil(ink.x + block.width);
  let free = 0;
  for (let y = Math.ceil(ink.bottom); y < d.height; y++, free++) {
    let blank = true;
    for (let x = x0; x < x1 && blank; x++) blank = d.indices[y * d.width + x] === paper;
    if (!blank) break;
  }
  return { free, need: block.pitch + 0.24 * block.size + 1 };
}

describe('room for what the frame says', () => {
  it('keeps every reading’s unit, landscape and portrait, on every panel ("52 km/h", not "52")', () => {
    for (const id of listPanelIds()) {
      for (const rotation of ROTATIONS) {
        const { report } = renderIndices(sampleInput('alert'), loadPanel(id), { rotation });
        const where = `${id} at ${rotation}°`;
        expect(report.texts, where).toContain('52 km/h');
        expect(report.texts, where).toContain('95%');
        expect(report.texts, where).toContain('UV 1');
      }
    }
  });

  it('gives an upright small panel’s alert title two lines rather than cutting it', () => {
    for (const id of ['waveshare-2in9', 'waveshare-2in13']) {
      const { report } = renderIndices(sampleInput('alert'), loadPanel(id), { rotation: 90 });
      const alert = report.alerts[0]!;
      expect(alert.truncated, id).toBe(false);
      expect(alert.lines.map((l) => l.text).join(' '), id).toBe('Severe storm warning +1');
    }
    // Across, the band keeps one line (the height is the scarce thing there), and the count stays when it is cut.
    const { report } = renderIndices(sampleInput('alert'), loadPanel('waveshare-2in13'), { rotation: 0 });
    expect(report.alerts[0]!.lines).toHaveLength(1);
    expect(report.alerts[0]!.lines[0]!.text).toMatch(/\+1$/);
  });

  it('cuts no small panel’s outfit inside a sentence while a line is free below it, either way round', () => {
    const found: string[] = [];
    let small = 0;
    for (const id of listPanelIds()) {
      const panel = loadPanel(id);
      const paper = panel.palette.findIndex((e) => e.rgb === '#ffffff');
      for (const rotation of ROTATIONS) {
        const { width, height } = viewSize(panel, rotation);
        for (const c of SAMPLE_CASES) {
          // The layout a frame gets, as renderIndices chooses it: only the small ones are drawn here.
          const content = frameContent(sampleInput(c));
          if (chooseLayout(width, height, content.outfit !== null && content.weather !== null) !== 'small') continue;
          const d = renderIndices(sampleInput(c), panel, { rotation });
          expect(d.report.layout).toBe('small');
          small++;
          const cut = d.report.outfit!.truncated || (d.report.outfitRest?.truncated ?? false);
          if (!cut) continue;
          // Cut at a sentence end, whole sentences are left out (outfit-fit.ts): the room below may be less than the
          // next one needs. Cut inside a sentence (the first, too long alone), only where no line is free.
          const block = d.report.outfitRest ?? d.report.outfit!;
          const last = block.lines[block.lines.length - 1]!.text;
          if (!last.endsWith(ELLIPSIS)) {
            expect(last, `${id} at ${rotation}° ${c}`).toMatch(/[.!?;]$/);
            continue;
          }
          const { free, need } = roomBelowOutfit(d, paper);
          if (free >= need)
            found.push(`${id} at ${rotation}° ${c}: ${free} rows free, a line needs ${need.toFixed(1)}`);
        }
      }
    }
    expect(small).toBeGreaterThanOrEqual(5 * SAMPLE_CASES.length);
    expect(found).toEqual([]);
  }, 120_000);

  it('sets a long outfit’s first sentence apart on the 4.2", larger than the rest, as the wall panels do', () => {
    const first = LONG_OUTFIT.slice(0, LONG_OUTFIT.indexOf('.') + 1);
    for (const rotation of ROTATIONS) {
      const d = renderIndices(sampleInput('long'), loadPanel('waveshare-4in2'), { rotation });
      const { outfit, outfitRest, sizes } = d.report;
      const where = `at ${rotation}°`;
      expect(outfit!.truncated, where).toBe(false);
      expect(outfit!.lines.map((l) => l.text).join(' '), where).toBe(first);
      expect(outfitRest, where).not.toBeNull();
      expect(sizes.outfit!, where).toBeGreaterThanOrEqual(1.5 * d.scale.outfitRest);
      expect(sizes.outfit!, where).toBeGreaterThan(sizes.outfitRest!);
    }
  });

  it('gives the 7.5"’s condition text its room: whole, and never below the scale’s smallest text', () => {
    for (const id of ['waveshare-7in5-v2', 'trmnl']) {
      for (const rotation of ROTATIONS) {
        for (const c of ['normal', 'alert', 'long', 'breeze'] as const) {
          // "breeze": "Clear and…", a long description beside the readings, which give it their spare width.
          const base = sampleInput(c === 'breeze' ? 'normal' : c);
          const input =
            c === 'breeze'
              ? {
                  ...base,
                  rec: {
                    ...base.rec!,
                    weather: { ...base.rec!.weather, description: 'Clear and sunny with a light breeze' },
                  },
                }
              : base;
          const d = renderIndices(input, loadPanel(id), { rotation });
          const description = input.rec!.weather.description!;
          const where = `${id} at ${rotation}° ${c}`;
          const lines = d.report.inks.filter((i) => i.text.includes(description));
          expect(lines, where).toHaveLength(1);
          expect(lines[0]!.text, where).not.toContain(ELLIPSIS);
          expect(lines[0]!.size, where).toBeGreaterThanOrEqual(d.scale.reasoning);
          const feels = d.report.inks.find((i) => i.text.startsWith('Feels like'));
          expect(feels?.size, where).toBeGreaterThanOrEqual(d.scale.reasoning);
        }
      }
    }
  });
});

describe('missing glyphs', () => {
  /** Runs of columns with ink in the layer: glyphs that keep apart are runs of their own. */
  const inkedRuns = (layer: TextLayer): number => {
    let runs = 0;
    let inRun = false;
    for (let x = 0; x < layer.width; x++) {
      let ink = false;
      for (let y = 0; y < layer.height && !ink; y++) ink = layer.index[y * layer.width + x] === 0;
      if (ink && !inRun) runs++;
      inRun = ink;
    }
    return runs;
  };
  const layerWith = (text: string, size: number, font: 'condensed' | 'condensed-bold'): TextLayer => {
    const layer = new TextLayer(Math.ceil(size * 4) + 8, Math.ceil(size * 2), [
      [0, 0, 0],
      [255, 255, 255],
    ]);
    drawText(layer, font, size, text, 2, Math.round(size * 1.2), '#000000');
    return layer;
  };

  it('draws a box with all four edges around a hollow at every size, the 2.13"’s 9 px too', () => {
    for (const font of ['condensed', 'condensed-bold'] as const) {
      for (let size = 8; size <= 40; size++) {
        const layer = layerWith('⌸', size, font);
        const at = (x: number, y: number): boolean => layer.index[y * layer.width + x] === 0;
        const xs: number[] = [];
        const ys: number[] = [];
        for (let y = 0; y < layer.height; y++) {
          for (let x = 0; x < layer.width; x++) {
            if (at(x, y)) {
              xs.push(x);
              ys.push(y);
            }
          }
        }
        const [left, right, top, bottom] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
        const where = `${font} ${size} px`;
        for (let x = left; x <= right; x++)
          expect(at(x, top) && at(x, bottom), `${where}: top and bottom at x ${x}`).toBe(true);
        for (let y = top; y <= bottom; y++) expect(at(left, y) && at(right, y), `${where}: sides at y ${y}`).toBe(true);
        expect(at((left + right) >> 1, (top + bottom) >> 1), `${where}: hollow`).toBe(false);
      }
    }
  });

  it('keeps a gap between boxes side by side, and between a box and the letters of the outfit’s face', () => {
    // Glyphs are spaced by their ink (fonts.ts), boxes among them. In the bold that spacing lets glyphs touch below
    // 10 px ("xn" too: it takes the bold's thickening off the designed gap), so the bold is checked from there.
    for (let size = 8; size <= 40; size++) {
      expect(inkedRuns(layerWith('x⌸⌹⍁x', size, 'condensed')), `condensed ${size} px`).toBe(5);
      if (size >= 10) expect(inkedRuns(layerWith('⌸⌹⍁', size, 'condensed-bold')), `condensed-bold ${size} px`).toBe(3);
    }
  });
});
