import { describe, expect, it } from 'vitest';
import { renderIndices } from '../../src/render/frame.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { sampleInput } from '../gallery/samples.js';

/** Layouts that use their space (issue 22, item 5): units and alert titles kept where the frame has the room. */

const ROTATIONS = [0, 90] as const;

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
});
