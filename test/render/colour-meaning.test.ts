import { describe, expect, it } from 'vitest';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { renderIndices, type FrameInput } from '../../src/render/frame.js';
import { loadPanel, type PanelProfile } from '../../src/panels/panels.js';
import { NORMAL, SAMPLE_NOW } from '../gallery/samples.js';

/** Colour with meaning, and marks in exact inks: counted in the frames' palette indices. */

const input = (rec: StoredRecommendation): FrameInput => ({ rec, displayName: 'Hallway', timezone: 'Europe/Berlin', status: { kind: 'ok' }, now: SAMPLE_NOW });
const mild = { ...NORMAL.weather, temp: 15, feels_like: 14, rain_chance_pct: 10, uv_index: 2, description: 'Partly cloudy', alerts: [] };
const withWeather = (w: Partial<StoredRecommendation['weather']>): StoredRecommendation => ({ ...NORMAL, weather: { ...mild, ...w } });

function count(panel: PanelProfile, rec: StoredRecommendation, colour: string): number {
  const i = panel.palette.findIndex((e) => e.name === colour);
  return renderIndices(input(rec), panel, { rotation: 0 }).indices.filter((v) => v === i).length;
}

describe('colour with meaning', () => {
  it('on black/white/red panels, red marks freezing, heat, a high rain chance, a high UV index and alerts, and nothing else', () => {
    const b = loadPanel('waveshare-7in5-b');
    expect(count(b, withWeather({}), 'red')).toBe(0);
    expect(count(b, withWeather({ temp: -4, feels_like: -9 }), 'red')).toBeGreaterThan(100);
    expect(count(b, withWeather({ temp: 33, feels_like: 35 }), 'red')).toBeGreaterThan(100);
    expect(count(b, withWeather({ rain_chance_pct: 80 }), 'red')).toBeGreaterThan(100);
    expect(count(b, withWeather({ uv_index: 8 }), 'red')).toBeGreaterThan(100);
    expect(count(b, withWeather({ alerts: ['Gale warning'] }), 'red')).toBeGreaterThan(1000);
  });

  it('on the 7-colour panel, blue for rain, orange for UV, yellow only for sun, and no fringes of other inks', () => {
    const f = loadPanel('waveshare-7in3-f');
    // No sun and no lightning, an alert band with its triangle, a thermometer for an unknown sky: no yellow pixel.
    const grey = withWeather({ description: 'Strange weather', alerts: ['Severe storm warning'] });
    expect(count(f, grey, 'yellow')).toBe(0);
    expect(count(f, grey, 'green')).toBe(0);
    expect(count(f, grey, 'blue')).toBeGreaterThan(50);
    expect(count(f, grey, 'orange')).toBeGreaterThan(50);
    expect(count(f, grey, 'red')).toBeGreaterThan(1000);
    expect(count(f, withWeather({ description: 'Sunny' }), 'yellow')).toBeGreaterThan(50);
  });

  it('draws icons and pictograms crisp: the dither setting changes no pixel', () => {
    for (const id of ['waveshare-7in5-v2', 'waveshare-7in3-f', 'kindle-paperwhite']) {
      const panel = loadPanel(id);
      const a = renderIndices(input(NORMAL), panel, { rotation: 0, dither: 'floyd-steinberg' }).indices;
      const b = renderIndices(input(NORMAL), panel, { rotation: 0, dither: 'ordered' }).indices;
      expect(Buffer.from(a).equals(Buffer.from(b)), id).toBe(true);
    }
  });
});
