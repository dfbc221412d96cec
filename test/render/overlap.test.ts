import { describe, expect, it } from 'vitest';
import { layoutFrame } from '../../src/render/frame.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { crowded } from './hostile.js';
import { SAMPLE_CASES, sampleInput } from '../fixtures/samples.js';

/** The sample cases (hostile.test.ts checks the same of the hostile inputs, on the frames it draws for its own checks). */
describe('layout gaps', () => {
  it('keeps the ink of different texts apart on every panel, rotation and sample', () => {
    const found: string[] = [];
    for (const id of listPanelIds()) {
      // 180 and 270 lay out as 0 and 90 (the same shape, turned).
      for (const rotation of [0, 90] as const) {
        for (const c of SAMPLE_CASES) {
          const { report } = layoutFrame(sampleInput(c), loadPanel(id), { rotation });
          for (const f of crowded(report)) found.push(`${id} ${rotation} ${c}: ${f}`);
        }
      }
    }
    expect(found).toEqual([]);
  }, 300_000);
});
