import { describe, expect, it } from 'vitest';
import { alertSeverity } from '../../src/domain/alert-severity.js';
import { frameAlerts } from '../../src/render/layout/format.js';
import { encodeFrame, renderIndices, type FrameInput } from '../../src/render/frame.js';
import { frameJson } from '../../src/render/frame-json.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { typeScale } from '../../src/render/draw/type-scale.js';
import type { InkBox } from '../../src/render/text/ink-box.js';
import { decodePng, type DecodedPng } from './decode.js';
import { ALERT, sampleInput } from '../fixtures/samples.js';

/**
 * Alerts at the wall's type scale: at least the readings' size on a wall panel (they were a fixed
 * 22 px, 5.6′ at 2 m on the 7.5"), the most severe first, and marked by severity: an extreme or severe one inverted
 * with a filled mark and bold, a moderate one (or of unknown severity) bold with a filled mark on paper, a minor one
 * (an advisory) plain, with an outlined mark.
 */

describe('how severe an alert is', () => {
  it.each([
    [{ event: 'Heat', severity: 'Extreme' }, 'extreme'],
    [{ event: 'Storm', severity: 'severe' }, 'severe'],
    [{ properties: { event: 'Flood', severity: 'Moderate' } }, 'moderate'],
    [{ headline: 'Frost', severity: 'Minor' }, 'minor'],
    // MeteoAlarm: awareness levels and colours.
    [{ event: 'Wind', awareness_level: '4; red; Extreme' }, 'extreme'],
    [{ event: 'Wind', level: 3 }, 'severe'],
    [{ event: 'Rain', level: 'yellow' }, 'moderate'],
    // No field: the words, as the NWS uses them.
    ['Extreme cold warning', 'extreme'],
    ['Winter storm warning', 'severe'],
    ['Flood watch', 'moderate'],
    ['Wind advisory', 'minor'],
    ['Special weather statement', 'minor'],
    ['Flooding possible in low-lying areas', 'unknown'],
    [{ x: 1 }, 'unknown'],
  ] as const)('%j is %s', (alert, severity) => {
    const text = typeof alert === 'string' ? alert : 'x';
    expect(alertSeverity(alert, text)).toBe(severity);
  });

  it('orders the alerts most severe first, an unknown one before a minor one, the service’s order among equals', () => {
    const alerts = frameAlerts([
      'Pollen advisory',
      'Flood watch',
      { event: 'Extreme heat warning', severity: 'Extreme' },
      'Something odd',
      'Gale warning',
      'Wind advisory',
      'gale warning',
    ]);
    expect(alerts.map((a) => [a.text, a.severity])).toEqual([
      ['Extreme heat warning', 'extreme'],
      ['Gale warning', 'severe'],
      ['Flood watch', 'moderate'],
      ['Something odd', 'unknown'],
      ['Pollen advisory', 'minor'],
      ['Wind advisory', 'minor'],
    ]);
  });
});

/** Three alerts in the service's order: an advisory, an extreme warning, a watch. */
const MIXED: FrameInput = {
  ...sampleInput('alert'),
  rec: {
    ...ALERT,
    weather: {
      ...ALERT.weather,
      alerts: ['Pollen advisory', { event: 'Extreme heat warning', severity: 'Extreme' }, 'Flood watch'],
    },
  },
};

const WALL = listPanelIds().filter(
  (id) => renderIndices(sampleInput('alert'), loadPanel(id), { rotation: 0 }).report.layout !== 'small',
);

/** The share of dark pixels (luminance below half) in a box of the decoded frame. */
function darkShare(png: DecodedPng, x0: number, y0: number, x1: number, y1: number): number {
  let dark = 0;
  let all = 0;
  for (let y = Math.max(0, Math.round(y0)); y < Math.min(png.height, Math.round(y1)); y++) {
    for (let x = Math.max(0, Math.round(x0)); x < Math.min(png.width, Math.round(x1)); x++) {
      const i = (y * png.width + x) * 4;
      const lum = 0.2126 * png.data[i]! + 0.7152 * png.data[i + 1]! + 0.0722 * png.data[i + 2]!;
      all++;
      if (lum < 128) dark++;
    }
  }
  return all ? dark / all : 0;
}

describe('alerts on the wall panels', () => {
  it.each(WALL)('%s: at the readings’ size at least, one a line, the most severe first', (id) => {
    const panel = loadPanel(id);
    for (const rotation of [0, 90] as const) {
      const d = renderIndices(MIXED, panel, { rotation });
      const where = `${id} at ${rotation}°`;
      const lines = d.report.alerts.map((a) => a.lines.map((l) => l.text).join(' '));
      // Landscape two lines, portrait three: the extreme one first, the advisory last or counted.
      expect(lines[0], where).toBe('Extreme heat warning');
      expect(lines[1], where).toMatch(/^Flood watch/);
      expect(lines.join(' '), where).toMatch(d.report.layout === 'portrait' ? /Pollen advisory$/ : /\(\+1 more\)$/);
      const json = frameJson(d, panel, rotation, '');
      expect(json.sizes.alert!.px, where).toBeGreaterThanOrEqual(d.report.sizes.reading!);
      expect(json.sizes.alert!.px, where).toBeGreaterThanOrEqual(typeScale('wall', d.scale.ppi).reading);
      expect(json.sizes.alert!.arc_minutes, where).toBeGreaterThanOrEqual(7.7);
      // Bold for a warning and a watch, regular for an advisory.
      expect(
        d.report.alerts.map((a) => a.font),
        where,
      ).toEqual(
        d.report.layout === 'portrait'
          ? ['condensed-bold', 'condensed-bold', 'condensed']
          : ['condensed-bold', 'condensed-bold'],
      );
    }
  });

  it('inverts an extreme warning, leaves a watch and an advisory on paper, and marks the advisory with an outline (7.5")', () => {
    const panel = loadPanel('waveshare-7in5-v2');
    const d = renderIndices(MIXED, panel, { rotation: 90 });
    const png = decodePng(encodeFrame(panel, 90, d).png);
    const ink = (text: string): InkBox => d.report.inks.find((i) => i.text === text)!;
    const size = d.report.sizes.alert!;
    const mark = (i: InkBox): number => darkShare(png, i.x - 8 - size * 1.05, i.top - 2, i.x - 8, i.bottom + 2);
    // The strip just above the letters: the band's ground, or paper.
    const band = (i: InkBox): number => darkShare(png, i.x, i.top - 4, i.right, i.top - 1);
    const extreme = ink('Extreme heat warning');
    const watch = ink('Flood watch');
    const advisory = ink('Pollen advisory');
    expect(band(extreme)).toBeGreaterThan(0.9);
    expect(band(watch)).toBeLessThan(0.1);
    expect(band(advisory)).toBeLessThan(0.1);
    // The filled mark is dark, the outlined one much less so.
    expect(mark(watch)).toBeGreaterThan(0.3);
    expect(mark(advisory)).toBeLessThan(mark(watch) * 0.7);
  });

  it('puts the most severe first on the small panels too, marked by its severity', () => {
    for (const id of ['waveshare-2in13', 'waveshare-2in9', 'waveshare-4in2']) {
      const d = renderIndices(MIXED, loadPanel(id), { rotation: 0 });
      const shown = d.report.alerts.map((a) => a.lines.map((l) => l.text).join(' '));
      expect(shown[0], id).toMatch(/^Extreme heat/);
      // The others counted after the last shown; a 4.2" has the room for all three, in order of severity.
      if (shown.length < 3) expect(shown.at(-1), id).toMatch(new RegExp(`\\+${3 - shown.length}$`, 'u'));
      if (id === 'waveshare-4in2') expect(shown).toEqual(['Extreme heat warning', 'Flood watch', 'Pollen advisory']);
    }
  });
});
