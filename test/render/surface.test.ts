import { describe, expect, it } from 'vitest';
import { matchPalette, renderIndices } from '../../src/render/frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { createSurface, releaseSurface } from '../../src/render/draw/surface.js';
import { typeScale } from '../../src/render/draw/type-scale.js';
import { sampleInput } from '../fixtures/samples.js';

describe('the canvases between frames', () => {
  const panel = loadPanel('waveshare-7in5-v2');
  const make = (): ReturnType<typeof createSurface> =>
    createSurface(800, 480, panel, matchPalette(panel), 1, typeScale('wall', 124.4));

  it('hold one pixel column after a frame, and the frame size again, blank, at the next', () => {
    const first = make();
    first.surface.crisp.fillStyle = 'rgb(0,0,0)';
    first.surface.crisp.fillRect(0, 0, 800, 480);
    releaseSurface(first);
    expect([first.crispCanvas.width, first.toneCanvas.width]).toEqual([1, 1]);
    const next = make();
    // The same canvases (kept per size), at full size, with nothing of the last frame on them.
    expect(next.crispCanvas).toBe(first.crispCanvas);
    expect([next.crispCanvas.width, next.crispCanvas.height, next.toneCanvas.width]).toEqual([800, 480, 800]);
    const crisp = next.crispCanvas.getContext('2d').getImageData(0, 0, 800, 480).data;
    expect(crisp.some((v) => v !== 0)).toBe(false);
  });

  it('are released by every render, which draws the same frame again after it', () => {
    // The pool's canvases for 800x480, which the renders below draw on.
    const pooled = make();
    const a = renderIndices(sampleInput('normal'), panel, { rotation: 0 });
    expect([pooled.crispCanvas.width, pooled.toneCanvas.width]).toEqual([1, 1]);
    const b = renderIndices(sampleInput('normal'), panel, { rotation: 0 });
    expect(Buffer.from(b.indices).equals(Buffer.from(a.indices))).toBe(true);
    expect(a.indices.some((v) => v !== a.indices[0])).toBe(true);
  });
});
