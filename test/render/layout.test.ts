import { describe, expect, it } from 'vitest';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { chooseLayout, renderFrame, renderIndices, type FrameInput } from '../../src/render/frame.js';
import { listPanelIds, loadPanel } from '../../src/render/panels.js';
import { LONG, NORMAL, SAMPLE_NOW, sampleInput } from '../../src/render/samples.js';
import { OUTFIT_MIN_UNITS } from '../../src/render/layout-wide.js';
import { ELLIPSIS } from '../../src/render/text-fit.js';
import { decodePng, offPalette } from './decode.js';

const wide = loadPanel('waveshare-7in5-v2');
const input = (rec: StoredRecommendation | null, over: Partial<FrameInput> = {}): FrameInput => ({
  rec,
  displayName: 'Hallway',
  timezone: 'Europe/Berlin',
  status: { kind: 'ok' },
  now: SAMPLE_NOW,
  ...over,
});
const words = (s: string): string[] => s.split(/\s+/).filter(Boolean);

describe('layouts', () => {
  it('is chosen from the shape of the frame as seen', () => {
    expect(chooseLayout(800, 480, true)).toBe('landscape');
    expect(chooseLayout(480, 800, true)).toBe('portrait');
    expect(chooseLayout(1072, 1448, true)).toBe('portrait');
    expect(chooseLayout(296, 128, true)).toBe('small');
    expect(chooseLayout(400, 300, true)).toBe('small');
    expect(chooseLayout(800, 480, false)).toBe('error');
  });

  it('fits all 120 words on 800x480 at a size readable at 2 m', () => {
    for (const rotation of [0, 90] as const) {
      const { report } = renderIndices(input(LONG), wide, { rotation });
      expect(report.outfit?.truncated).toBe(false);
      expect(report.outfit?.size).toBeGreaterThanOrEqual(OUTFIT_MIN_UNITS);
      expect(words(report.outfit!.lines.map((l) => l.text).join(' '))).toEqual(words(LONG.outfit));
      // 21 px of DejaVu on a 124 dpi panel: capitals 3.1 mm high, 5.4 arc minutes at 2 m (20/20 vision resolves 5)
      const capMm = (report.outfit!.size * 0.729 * 25.4) / 124.4;
      expect(capMm).toBeGreaterThan(2.9);
    }
  });

  it('shortens the outfit on small panels with an ellipsis after a whole word', () => {
    for (const id of ['waveshare-2in9', 'waveshare-2in13', 'waveshare-4in2']) {
      const { report } = renderIndices(input(LONG), loadPanel(id), { rotation: 0 });
      const lines = report.outfit!.lines.map((l) => l.text);
      expect(report.outfit!.truncated).toBe(true);
      expect(lines[lines.length - 1]!.endsWith(ELLIPSIS)).toBe(true);
      const shown = words(lines.join(' ').replace(ELLIPSIS, ''));
      const orig = words(LONG.outfit);
      shown.slice(0, -1).forEach((w, i) => expect(w).toBe(orig[i]));
      expect(orig[shown.length - 1]!.replace(/[,.;:]$/, '')).toBe(shown[shown.length - 1]);
    }
  });

  it('shows the reasoning where space allows', () => {
    expect(renderIndices(input(NORMAL), wide, { rotation: 0 }).report.reasoning).not.toBeNull();
    expect(renderIndices(input(LONG), wide, { rotation: 0 }).report.reasoning).toBeNull();
  });

  it('shows °F and mph as the response gives them', () => {
    const rec = { ...NORMAL, weather: { ...NORMAL.weather, temp: 71.6, feels_like: 69.8, temp_unit: '°F', wind_speed: 9.3, wind_speed_unit: 'mph' } };
    for (const id of ['waveshare-7in5-v2', 'waveshare-2in9', 'kindle-paperwhite']) {
      const texts = renderIndices(input(rec), loadPanel(id), { rotation: 0 }).report.texts.join(' | ');
      expect(texts).toContain('72°F');
      expect(texts).toContain('9 mph');
    }
  });

  it('shows alerts of any shape prominently, and nothing when there are none', () => {
    const rec = { ...NORMAL, weather: { ...NORMAL.weather, alerts: ['Ice', { headline: 'Gale' }, { properties: { event: 'Flood' } }, { x: 1 }] } };
    const { report } = renderIndices(input(rec), wide, { rotation: 0 });
    expect(report.alerts).toHaveLength(1);
    const text = report.alerts[0]!.lines.map((l) => l.text).join(' ');
    expect(text).toContain('Ice · Gale');
    expect(renderIndices(input(NORMAL), wide, { rotation: 0 }).report.alerts).toHaveLength(0);
    const small = renderIndices(input(rec), loadPanel('waveshare-2in9'), { rotation: 0 }).report;
    expect(small.alerts[0]!.lines[0]!.text).toContain('Ice');
  });

  it('fits a 30-character name and gender-specific text on every panel', () => {
    const name = 'Guest room, second floor (her)';
    expect(name).toHaveLength(30);
    const rec = { ...NORMAL, gender: 'non-binary, prefers layered fit' };
    for (const id of listPanelIds()) {
      const { report } = renderIndices(input(rec, { displayName: name }), loadPanel(id), { rotation: 0 });
      expect(report.texts.some((t) => t === name || (t.endsWith(ELLIPSIS) && name.startsWith(t.slice(0, -1).replace(/[ ,]+$/, ''))))).toBe(true);
    }
  });

  it('keeps the last outfit on error screens, and words the error', async () => {
    const since = new Date('2026-01-31T05:00:00.000Z');
    const statuses: FrameInput['status'][] = [
      { kind: 'key_rejected', message: 'Invalid API key' },
      { kind: 'budget_exhausted', until: new Date('2026-02-01T00:00:00.000Z') },
      { kind: 'unreachable', since, message: 'ECONNREFUSED' },
      { kind: 'stale', since },
    ];
    for (const status of statuses) {
      for (const id of ['waveshare-7in5-v2', 'waveshare-2in13', 'kindle-paperwhite']) {
        const panel = loadPanel(id);
        const withRec = renderIndices(input(NORMAL, { status }), panel, { rotation: 0 }).report;
        expect(withRec.layout).not.toBe('error');
        expect(withRec.outfit).not.toBeNull();
        const without = renderIndices(input(null, { status }), panel, { rotation: 0 }).report;
        expect(without.layout).toBe('error');
        const all = without.texts.join(' ');
        if (status.kind === 'key_rejected') expect(all).toContain('Invalid API key');
        if (status.kind === 'budget_exhausted') expect(all).toContain('Sun 1 Feb 01:00');
        if (status.kind === 'unreachable') expect(all).toContain('ECONNREFUSED');
        const frame = await renderFrame(input(null, { status }), panel, { rotation: 0 });
        expect(offPalette(decodePng(frame.png), panel)).toEqual([]);
      }
    }
  });

  it('renders every panel at every rotation, each dither, within the palette', async () => {
    for (const id of listPanelIds()) {
      const panel = loadPanel(id);
      for (const rotation of [0, 90, 180, 270] as const) {
        const frame = await renderFrame(sampleInput('alert'), panel, { rotation, dither: rotation === 180 ? 'atkinson' : rotation === 270 ? 'ordered' : undefined });
        const turned = rotation % 180 !== 0;
        expect([frame.width, frame.height]).toEqual(turned ? [panel.height, panel.width] : [panel.width, panel.height]);
        expect(offPalette(decodePng(frame.png), panel)).toEqual([]);
      }
    }
  });

  it('gives the same bytes for the same input, and other bytes for another time', async () => {
    const a = await renderFrame(sampleInput('normal'), wide, { rotation: 0 });
    const b = await renderFrame(sampleInput('normal'), wide, { rotation: 0 });
    expect(b.png.equals(a.png)).toBe(true);
    expect(b.hash).toBe(a.hash);
    const later = await renderFrame(input({ ...NORMAL, fetched_at: '2026-01-31T07:00:00.000Z' }), wide, { rotation: 0 });
    expect(later.hash).not.toBe(a.hash);
  });
});
