import { describe, expect, it } from 'vitest';
import { drawAlone } from './draw-alone.js';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { renderIndices, type FrameInput } from '../../src/render/frame.js';
import { hexToRgb, listPanelIds, loadPanel, type PanelProfile } from '../../src/panels/panels.js';
import { meaningInks, type Meaning } from '../../src/render/draw/colour-meaning.js';
import { RAIN_CHANCE_LARGE, UV_SUN } from '../../src/render/pictograms/weather-pictograms.js';
import type { GarmentId } from '../../src/domain/garments.js';
import { NORMAL, SAMPLE_NOW, sampleInput } from '../fixtures/samples.js';

/** Colour only where it asks for action, and marks in exact inks: counted in the frames' palette indices. */

const input = (rec: StoredRecommendation): FrameInput => ({
  rec,
  displayName: 'Hallway',
  timezone: 'Europe/Berlin',
  status: { kind: 'ok' },
  now: SAMPLE_NOW,
});
const mild = {
  ...NORMAL.weather,
  temp: 15,
  feels_like: 14,
  rain_chance_pct: 10,
  uv_index: 2,
  description: 'Partly cloudy',
  alerts: [],
};
const withWeather = (w: Partial<StoredRecommendation['weather']>): StoredRecommendation => ({
  ...NORMAL,
  weather: { ...mild, ...w },
});

function count(panel: PanelProfile, rec: StoredRecommendation, colour: string): number {
  const i = panel.palette.findIndex((e) => e.name === colour);
  return renderIndices(input(rec), panel, { rotation: 0 }).indices.filter((v) => v === i).length;
}

/** A day with its garments named, so the row is the same whatever the garment reader makes of the text. */
function day(w: Partial<StoredRecommendation['weather']>, garments: GarmentId[]): FrameInput {
  return { ...sampleInput('normal'), garments, rec: withWeather(w) };
}
/** 18 °C, 10 % rain, UV 2, no alert: the row ends with the tick. */
const BENIGN = day({ temp: 18, feels_like: 18, rain_chance_pct: 10, uv_index: 2 }, [
  'jacket',
  'trousers',
  'closed-shoes',
]);
/** 0 % rain and UV 1, with rain, cold and sun gear in the row: nothing of it is asked for. */
const ZERO = day({ temp: 16, feels_like: 15, rain_chance_pct: 0, uv_index: 1, description: 'Clear' }, [
  'raincoat',
  'umbrella',
  'warm-hat',
  'gloves',
  'sunglasses',
  'sunscreen',
]);
/** Freezing (−4 °C, feels −9), 90 % rain, UV 8 and an alert: every action at once. */
const ACTION = day(
  { temp: -4, feels_like: -9, rain_chance_pct: 90, uv_index: 8, description: 'Sleet', alerts: ['Ice storm warning'] },
  ['umbrella', 'warm-hat', 'gloves', 'sunglasses', 'sunscreen', 'coat', 'boots'],
);

/** Pixels of each palette colour, by name (colours absent are left out). */
function inksOf(panel: PanelProfile, frame: FrameInput): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of renderIndices(frame, panel, { rotation: 0 }).indices) {
    const name = panel.palette[v]!.name;
    out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}
const colours = (inks: Record<string, number>): string[] =>
  Object.keys(inks)
    .filter((n) => n !== 'black' && n !== 'white')
    .sort();

const F = loadPanel('waveshare-7in3-f');
const B = loadPanel('waveshare-7in5-b');
const at = (panel: PanelProfile, name: string): number => panel.palette.findIndex((e) => e.name === name);
const ACTIONS: readonly Meaning[] = ['freezing', 'heat', 'rain-high', 'uv-high', 'alert', 'ok'];

describe('colour only where it asks for action', () => {
  it('on black/white/red panels, red marks danger only: freezing, heat and alerts; never rain or sun', () => {
    expect(count(B, withWeather({}), 'red')).toBe(0);
    expect(count(B, withWeather({ temp: -4, feels_like: -9 }), 'red')).toBeGreaterThan(100);
    expect(count(B, withWeather({ temp: 33, feels_like: 35 }), 'red')).toBeGreaterThan(100);
    expect(count(B, withWeather({ alerts: ['Gale warning'] }), 'red')).toBeGreaterThan(1000);
    // Wet has no ink of its own on the B (no blue), and strong sun no fill: both are drawn in ink, never in red.
    expect(count(B, withWeather({ rain_chance_pct: 80 }), 'red')).toBe(0);
    expect(count(B, withWeather({ uv_index: 8 }), 'red')).toBe(0);
  });

  it('on a benign day neither the 7.5" B nor the 7.3" F has colour: the tick is ink, as the garments are', () => {
    expect(colours(inksOf(B, BENIGN))).toEqual([]);
    expect(colours(inksOf(F, BENIGN))).toEqual([]);
  });

  it('on a 0 % rain, UV 1 day, rain, cold and sun gear, the rain and UV readings and the sun are all ink, on the B and the F', () => {
    expect(colours(inksOf(B, ZERO))).toEqual([]);
    expect(colours(inksOf(F, ZERO))).toEqual([]);
  });

  it('on a freezing, 90 % rain, UV 8 day with an alert: red on the B; red and a yellow fill on the F, never blue or orange', () => {
    const b = inksOf(B, ACTION);
    expect(colours(b)).toEqual(['red']);
    expect(b.red).toBeGreaterThan(5000);
    const f = inksOf(F, ACTION);
    // Red: temperature and alert band; yellow: the UV mark's disc. No blue: the F's blue is 1.2:1 from its black, so
    // the rain chance's drops are ink. No green: the tick is ink. No orange: too like red.
    expect(colours(f)).toEqual(['red', 'yellow']);
    expect(f.red).toBeGreaterThan(5000);
    expect(f.yellow).toBeGreaterThan(30);
    // On the Inky Impression, whose black is darker, the drops are filled blue.
    const inky = inksOf(loadPanel('inky-impression-7in3'), ACTION);
    expect(colours(inky)).toEqual(['blue', 'red', 'yellow']);
    expect(inky.blue).toBeGreaterThan(30);
  });

  it('gives colour to no meaning that asks for nothing, on any panel', () => {
    for (const id of listPanelIds()) {
      const m = meaningInks(loadPanel(id));
      for (const quiet of ['cold', 'rain', 'snow', 'sun', 'uv', 'ok'] as const)
        expect(m[quiet], `${id} ${quiet}`).toEqual({ stroke: null, fill: null });
    }
  });

  it('on the 7.3" F strokes in red only, fills in yellow only, and never in blue, which looks like its black', () => {
    const m = meaningInks(F);
    const byCss = new Map(F.palette.map((e) => [`rgb(${hexToRgb(e.ink ?? e.rgb).join(',')})`, e.name]));
    const name = (css: string | null): string | null => (css === null ? null : (byCss.get(css) ?? css));
    expect(Object.fromEntries(ACTIONS.map((a) => [a, name(m[a].stroke)]))).toEqual({
      freezing: 'red',
      heat: 'red',
      'rain-high': null,
      'uv-high': null,
      alert: 'red',
      ok: null,
    });
    expect(Object.fromEntries(ACTIONS.map((a) => [a, name(m[a].fill)]))).toEqual({
      freezing: null,
      heat: null,
      'rain-high': null,
      'uv-high': 'yellow',
      alert: null,
      ok: null,
    });
  });

  it('fills the readings’ marks blue and yellow inside an ink outline: no such pixel touches paper', () => {
    const inky = loadPanel('inky-impression-7in3');
    // The rain chance's drops from 30 px (blue on the Inky; the F has no blue that is not its black); below, its mark
    // is the rain's cloud with streaks, which has no place for blue.
    for (const [name, panel, picto, tint, colour, sizes] of [
      ['rain chance', inky, RAIN_CHANCE_LARGE, 'rain-high', 'blue', [32, 36, 48]],
      ['uv', F, UV_SUN, 'uv-high', 'yellow', [24, 32, 48]],
      ['uv', inky, UV_SUN, 'uv-high', 'yellow', [24, 32, 48]],
    ] as const) {
      const ink = at(panel, colour);
      const white = at(panel, 'white');
      for (const size of sizes) {
        const px = drawAlone(panel, picto, size, tint);
        let filled = 0;
        for (let y = 0; y < size; y++) {
          for (let x = 0; x < size; x++) {
            if (px[y * size + x] !== ink) continue;
            filled++;
            const around = [px[y * size + x - 1], px[y * size + x + 1], px[(y - 1) * size + x], px[(y + 1) * size + x]];
            expect(around.includes(white), `${name} at ${size} px: (${x}, ${y})`).toBe(false);
          }
        }
        expect(filled, `${name} at ${size} px`).toBeGreaterThan(0);
      }
    }
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
