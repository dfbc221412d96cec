import { describe, expect, it } from 'vitest';
import { renderIndices } from '../../src/render/frame.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { crowded, HOSTILE, hostileInput } from './hostile.js';
import { SAMPLE_CASES, sampleInput } from '../fixtures/samples.js';

describe('layout gaps', () => {
  it('keeps the ink of different texts apart on every panel, rotation and sample', () => {
    const found: string[] = [];
    for (const id of listPanelIds()) {
      // 180 and 270 lay out as 0 and 90 (the same shape, turned).
      for (const rotation of [0, 90] as const) {
        const cases = [
          ...SAMPLE_CASES.map((c) => [c, sampleInput(c)] as const),
          ...Object.entries(HOSTILE).map(([c, rec]) => [c, hostileInput(rec)] as const),
        ];
        for (const [c, input] of cases) {
          const { report } = renderIndices(input, loadPanel(id), { rotation });
          for (const f of crowded(report)) found.push(`${id} ${rotation} ${c}: ${f}`);
        }
      }
    }
    expect(found).toEqual([]);
  }, 300_000);
});
