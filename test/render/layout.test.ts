import { describe, expect, it } from 'vitest';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { chooseLayout, renderFrame, renderIndices, type FrameInput } from '../../src/render/frame.js';
import { listPanelIds, loadPanel, ppiOf } from '../../src/panels/panels.js';
import { ELLIPSIS } from '../../src/render/text/text-fit.js';
import { capArcMinutes } from '../../src/render/draw/type-scale.js';
import { decodePng, offPalette } from './decode.js';
import { FORTY, LONG, NORMAL, SAMPLE_NOW, sampleInput, SHORT } from '../fixtures/samples.js';

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

  it('keeps 10- and 40-word outfits whole at 10′ of arc or more at 2 m on 800x480, the short one grown up to 0.75 of the temperature', () => {
    for (const rotation of [0, 90] as const) {
      const forty = renderIndices(input(FORTY), wide, { rotation }).report;
      expect(words(FORTY.outfit)).toHaveLength(40);
      expect(forty.outfit?.truncated).toBe(false);
      expect(forty.outfitRest).toBeNull();
      expect(words(forty.outfit!.lines.map((l) => l.text).join(' '))).toEqual(words(FORTY.outfit));
      expect(capArcMinutes(forty.outfit!.size, 124.4, 2000)).toBeGreaterThanOrEqual(10);
      const short = renderIndices(input(SHORT), wide, { rotation }).report;
      // Grown well past the scale's 40 px, as far as its capitals stay clearly below the temperature's (hierarchy.test.ts).
      expect(short.outfit!.size).toBeGreaterThanOrEqual(50);
      expect(short.outfit!.size).toBeLessThanOrEqual(short.sizes.temperature! * 0.75);
    }
  });

  it('keeps the first sentence of a 120-word outfit at 10′ or more, and cuts the rest at a sentence end', () => {
    const { report } = renderIndices(input(LONG), wide, { rotation: 0 });
    const first = LONG.outfit.slice(0, LONG.outfit.indexOf('.') + 1);
    const lead = report.outfit!.lines.map((l) => l.text).join(' ');
    expect(lead.startsWith(first)).toBe(true);
    expect(capArcMinutes(report.outfit!.size, 124.4, 2000)).toBeGreaterThanOrEqual(10);
    const lines = [...report.outfit!.lines, ...(report.outfitRest?.lines ?? [])].map((l) => l.text);
    expect(report.outfit!.truncated || report.outfitRest?.truncated).toBe(true);
    // Whole sentences, the outfit's first ones, and no ellipsis: what is left out is left out whole.
    const shown = words(lines.join(' '));
    expect(shown.length).toBeGreaterThan(words(first).length);
    expect(shown).toEqual(words(LONG.outfit).slice(0, shown.length));
    expect(lines[lines.length - 1]!).toMatch(/\.$/);
    expect(lines.join(' ')).not.toContain(ELLIPSIS);
  });

  it('cuts the outfit on small panels at a sentence end, or after a whole word in a first sentence too long', () => {
    // The 4.2" too: it had the room for all 120 words at 11-12 px, but keeps the first sentence large as the wall
    // panels do, and the rest is cut (layout-room.test.ts).
    const first = words(LONG.outfit.slice(0, LONG.outfit.indexOf('.') + 1));
    for (const id of ['waveshare-4in2', 'waveshare-2in9', 'waveshare-2in13']) {
      const { report } = renderIndices(input(LONG), loadPanel(id), { rotation: 0 });
      const lines = [...report.outfit!.lines, ...(report.outfitRest?.lines ?? [])].map((l) => l.text);
      expect(report.outfit!.truncated || report.outfitRest?.truncated, id).toBe(true);
      const last = lines[lines.length - 1]!;
      const shown = words(lines.join(' ').replace(ELLIPSIS, ''));
      const orig = words(LONG.outfit);
      shown.slice(0, -1).forEach((w, i) => expect(w, id).toBe(orig[i]));
      if (last.endsWith(ELLIPSIS)) {
        // Inside the first sentence only, after a whole word.
        expect(shown.length, id).toBeLessThan(first.length);
        expect(orig[shown.length - 1]!.replace(/[,.;:]$/, ''), id).toBe(shown[shown.length - 1]);
      } else {
        expect(last, id).toMatch(/\.$/);
        expect(shown[shown.length - 1], id).toBe(orig[shown.length - 1]);
      }
    }
  });

  it('shows the reasoning where space allows', () => {
    expect(renderIndices(input(SHORT), wide, { rotation: 0 }).report.reasoning).not.toBeNull();
    expect(renderIndices(input(LONG), wide, { rotation: 0 }).report.reasoning).toBeNull();
  });

  it('shows °F and mph as the response gives them', () => {
    const rec = {
      ...NORMAL,
      weather: {
        ...NORMAL.weather,
        temp: 71.6,
        feels_like: 69.8,
        temp_unit: '°F',
        wind_speed: 9.3,
        wind_speed_unit: 'mph',
      },
    };
    for (const id of ['waveshare-7in5-v2', 'waveshare-2in9', 'kindle-paperwhite']) {
      const texts = renderIndices(input(rec), loadPanel(id), { rotation: 0 }).report.texts.join(' | ');
      expect(texts).toContain('72°F');
      expect(texts).toContain('9 mph');
    }
  });

  it('shows alerts of any shape prominently, and nothing when there are none', () => {
    const rec = {
      ...NORMAL,
      weather: {
        ...NORMAL.weather,
        alerts: ['Ice', { headline: 'Gale' }, { properties: { event: 'Flood' } }, { x: 1 }],
      },
    };
    const { report } = renderIndices(input(rec), wide, { rotation: 0 });
    // One line an alert, two on 800x480, and the count of the others.
    expect(report.alerts.map((a) => a.lines.map((l) => l.text).join(' '))).toEqual(['Ice', 'Gale (+2 more)']);
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
      expect(
        report.texts.some(
          (t) => t === name || (t.endsWith(ELLIPSIS) && name.startsWith(t.slice(0, -1).replace(/[ ,]+$/, ''))),
        ),
      ).toBe(true);
    }
  });

  it('keeps the last outfit on error screens, and words the error', async () => {
    const since = new Date('2026-01-31T05:00:00.000Z');
    const statuses: FrameInput['status'][] = [
      { kind: 'key_rejected', message: 'Invalid API key' },
      { kind: 'budget_exhausted', until: new Date('2026-02-01T00:00:00.000Z') },
      { kind: 'unreachable', since, message: 'ECONNREFUSED', retryAt: new Date('2026-01-31T06:12:00.000Z') },
      {
        kind: 'service_error',
        problem: 'error',
        since,
        message: 'POST /recweather: HTTP 502: Bad Gateway',
        retryAt: null,
      },
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
        // Plain words and what happens next; the service's message and the HTTP detail stay off the glass.
        if (status.kind === 'key_rejected')
          expect(all).toContain('The service refused the API key see the status page');
        if (status.kind === 'budget_exhausted') expect(all).toContain('Sun 1 Feb 01:00');
        if (status.kind === 'unreachable')
          expect(all).toContain('No connection to the outfit service since 06:00 · trying again at 07:12');
        if (status.kind === 'service_error')
          expect(all).toContain('Outfit service error since 06:00 · see the status page');
        expect(all).not.toMatch(/Invalid API key|ECONNREFUSED|HTTP 502/);
        const frame = await renderFrame(input(null, { status }), panel, { rotation: 0 });
        expect(offPalette(decodePng(frame.png), panel)).toEqual([]);
      }
    }
  });

  it('shows an outfit out of date from 2 m: a badge with its age of at least 10′ of arc, the outfit framed as old, the time never hidden by an error', () => {
    const old = { ...NORMAL, fetched_at: '2026-01-31T03:30:00.000Z' };
    const failed: FrameInput['status'] = {
      kind: 'service_error',
      problem: 'error',
      since: SAMPLE_NOW,
      message: 'HTTP 502',
      retryAt: new Date('2026-01-31T06:57:00.000Z'),
    };
    for (const id of listPanelIds()) {
      const panel = loadPanel(id);
      for (const rotation of [0, 90] as const) {
        for (const status of [{ kind: 'stale', since: SAMPLE_NOW } as const, failed]) {
          const { report } = renderIndices(input(old, { status, stale: true }), panel, { rotation });
          const where = `${id} at ${rotation}°, ${status.kind}`;
          expect(report.badge?.text, where).toBe('3 h old');
          expect(report.markedOld, where).toBe(true);
          expect(report.texts, where).toContain('3 h old');
          // Wall panels are read from 2 m, small ones at arm's length (type-scale.ts): the badge's capitals at least
          // 10′ of arc there.
          const distance = report.layout === 'small' ? 500 : 2000;
          expect(capArcMinutes(report.badge!.size, ppiOf(panel), distance), where).toBeGreaterThanOrEqual(10);
          if (status.kind === 'service_error')
            expect(report.texts.join(' ').replace(/\s+/g, ' '), where).toMatch(
              /Outfit service error · trying again at 07:57|Service error · retry at 07:57/,
            );
        }
        // Current: no badge, no frame; an error band keeps the outfit's time.
        const fresh = renderIndices(input(NORMAL, { status: failed }), panel, { rotation }).report;
        expect(fresh.badge, id).toBeNull();
        expect(fresh.markedOld, id).toBe(false);
        expect(
          fresh.texts.some((t) => t.includes('07:30')),
          `${id} at ${rotation}°: the outfit's time beside the error`,
        ).toBe(true);
      }
    }
  });

  it('renders every panel at every rotation, each dither, within the palette', async () => {
    for (const id of listPanelIds()) {
      const panel = loadPanel(id);
      for (const rotation of [0, 90, 180, 270] as const) {
        const frame = await renderFrame(sampleInput('alert'), panel, {
          rotation,
          dither: rotation === 180 ? 'atkinson' : rotation === 270 ? 'ordered' : undefined,
        });
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
    const later = await renderFrame(input({ ...NORMAL, fetched_at: '2026-01-31T07:00:00.000Z' }), wide, {
      rotation: 0,
    });
    expect(later.hash).not.toBe(a.hash);
  });
});
