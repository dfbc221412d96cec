import { describe, expect, it } from 'vitest';
import { layoutFrame } from '../../src/render/frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { localeFor } from '../../src/i18n/locale.js';
import { sampleInput } from '../fixtures/samples.js';
import { extraInput } from '../fixtures/extra-samples.js';

/**
 * The small panels' alerts (small-alerts.ts): on a 4.2", every alert on the lines it needs, most severe first, the
 * reasoning given up before an alert is cut; on every small panel, an alert's ink the band's edge away from it.
 */

const lines = (f: { lines: { text: string }[] }): string => f.lines.map((l) => l.text).join(' ');

describe('alerts on a 4.2"', () => {
  it.each([
    ['waveshare-4in2', 0, 'en'],
    ['oepl-4in2-bwr', 0, 'nl'],
    ['waveshare-4in2', 0, 'it'],
    ['waveshare-4in2', 90, 'en'],
  ] as const)('%s at %i° (%s) shows both alerts whole, the flooding too', (panel, rotation, locale) => {
    const laid = layoutFrame(sampleInput('alert', 'Hallway', localeFor(locale)), loadPanel(panel), {
      rotation: rotation,
    });
    const alerts = laid.report.alerts;
    expect(alerts).toHaveLength(2);
    expect(alerts.every((a) => !a.truncated)).toBe(true);
    expect(lines(alerts[1]!)).toContain('Flooding possible in low-lying areas');
    expect(laid.report.outfit?.truncated).toBe(false);
  });

  it.each(['waveshare-4in2', 'oepl-4in2-bwr'])(
    '%s with five alerts cuts none it shows, and drops the reasoning first',
    (panel) => {
      const laid = layoutFrame(extraInput('alerts-5', 'Hallway'), loadPanel(panel), { rotation: 0 });
      const alerts = laid.report.alerts;
      expect(alerts.length).toBeGreaterThanOrEqual(2);
      expect(alerts.every((a) => !a.truncated)).toBe(true);
      expect(lines(alerts[0]!)).toBe('Extreme wind warning: gusts up to 120 km/h');
      // The others counted at the end of the last shown.
      expect(lines(alerts.at(-1)!)).toMatch(new RegExp(`\\+${5 - alerts.length}$`, 'u'));
      expect(laid.report.reasoning).toBeNull();
      expect(laid.report.outfit?.truncated).toBe(false);
    },
  );
});

describe('an alert band keeps its edge clear of the words', () => {
  it.each([
    ['waveshare-2in9', 0],
    ['waveshare-2in9', 90],
    ['waveshare-2in13', 0],
    ['waveshare-4in2', 0],
    ['oepl-2in9-bwr', 0],
  ] as const)('%s at %i°: a pixel of band at least below a descender ("warning")', (panel, rotation) => {
    for (const locale of ['en', 'es']) {
      const laid = layoutFrame(sampleInput('alert', 'Hallway', localeFor(locale)), loadPanel(panel), { rotation });
      // The first alert, a severe one, on its band.
      const shown = new Set(laid.report.alerts[0]!.lines.map((l) => l.text));
      const boxes = laid.report.textBoxes.filter((b) => shown.has(b.text));
      expect(boxes.length).toBeGreaterThan(0);
      for (const b of boxes) {
        const ink = laid.report.inks.find((i) => i.text === b.text && Math.abs(i.x - b.x) < 1);
        expect(ink, b.text).toBeDefined();
        expect(ink!.bottom, `${panel} ${locale} "${b.text}"`).toBeLessThanOrEqual(b.box.y + b.box.h - 1);
        expect(ink!.top).toBeGreaterThanOrEqual(b.box.y + 0.5);
      }
    }
  });
});
