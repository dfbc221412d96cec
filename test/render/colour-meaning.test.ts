import { describe, expect, it } from 'vitest';
import { drawAlone } from './draw-alone.js';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { renderIndices, type FrameInput } from '../../src/render/frame.js';
import { hexToRgb, listPanelIds, loadPanel, type PanelProfile } from '../../src/panels/panels.js';
import { garmentTint, meaningInks, weatherActions, type Action } from '../../src/render/draw/colour-meaning.js';
import { drawingFor, GARMENT_PICTOGRAMS } from '../../src/render/pictograms/garment-pictograms.js';
import { RAIN_CHANCE_LARGE, UV_SUN } from '../../src/render/pictograms/weather-pictograms.js';
import { GARMENT_IDS, type GarmentId } from '../../src/domain/garments.js';
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
const ACTIONS: readonly Action[] = ['freezing', 'heat', 'rain-high', 'uv-high', 'alert', 'ok'];

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

  it('on a benign day the 7.5" B has no colour and the 7.3" F only the tick’s green', () => {
    expect(colours(inksOf(B, BENIGN))).toEqual([]);
    const f = inksOf(F, BENIGN);
    expect(colours(f)).toEqual(['green']);
    expect(f.green).toBeGreaterThan(200);
  });

  it('on a 0 % rain, UV 1 day, rain, cold and sun gear, the rain and UV readings and the sun are all ink, on the B and the F', () => {
    expect(colours(inksOf(B, ZERO))).toEqual([]);
    expect(colours(inksOf(F, ZERO))).toEqual([]);
  });

  it('on a freezing, 90 % rain, UV 8 day with an alert: red on the B; red, and blue and yellow fills on the F, never orange', () => {
    const b = inksOf(B, ACTION);
    expect(colours(b)).toEqual(['red']);
    expect(b.red).toBeGreaterThan(5000);
    const f = inksOf(F, ACTION);
    // Red: temperature, alert band, cold gear; blue: the rain chance's drops and the rain gear's fills; yellow:
    // the UV mark's disc. No green: the tick is not on a day that asks for this. No orange: too like red.
    expect(colours(f)).toEqual(['blue', 'red', 'yellow']);
    expect(f.red).toBeGreaterThan(5000);
    expect(f.blue).toBeGreaterThan(30);
    expect(f.yellow).toBeGreaterThan(30);
  });

  it('colours a garment only when the weather asks for what it answers to', () => {
    const none = weatherActions({ temp: 16, feels_like: 15, rain_chance_pct: 0, uv_index: 1, alerts: [] });
    expect([...none]).toEqual([]);
    const all = weatherActions({ temp: -4, feels_like: -9, rain_chance_pct: 90, uv_index: 8, alerts: ['x'] });
    expect([...all].sort()).toEqual(['alert', 'freezing', 'rain-high', 'uv-high']);
    // 2 °C that feels like −2 °C: the warm hat is coloured (the number, 2°, is not).
    expect(weatherActions({ temp: 2, feels_like: -2 }).has('freezing')).toBe(true);
    expect(weatherActions({ temp: 86, temp_unit: '°F' }).has('heat')).toBe(true);
    expect(garmentTint('rain', none)).toBeUndefined();
    expect(garmentTint('cold', none)).toBeUndefined();
    expect(garmentTint('uv', none)).toBeUndefined();
    expect(garmentTint(null, all)).toBeUndefined();
    expect(garmentTint('rain', all)).toBe('rain-high');
    expect(garmentTint('cold', all)).toBe('freezing');
    expect(garmentTint('uv', all)).toBe('uv-high');
    expect(garmentTint('ok', none)).toBe('ok');
  });

  it('gives colour to no meaning that asks for nothing, on any panel', () => {
    for (const id of listPanelIds()) {
      const m = meaningInks(loadPanel(id));
      for (const quiet of ['cold', 'rain', 'snow', 'sun', 'uv'] as const)
        expect(m[quiet], `${id} ${quiet}`).toEqual({ stroke: null, fill: null });
    }
  });

  it('on the 7.3" F strokes in red and green only, and blue and yellow never draw a line', () => {
    const m = meaningInks(F);
    const byCss = new Map(F.palette.map((e) => [`rgb(${hexToRgb(e.ink ?? e.rgb).join(',')})`, e.name]));
    const name = (css: string | null): string | null => (css === null ? null : (byCss.get(css) ?? css));
    expect(Object.fromEntries(ACTIONS.map((a) => [a, name(m[a].stroke)]))).toEqual({
      freezing: 'red',
      heat: 'red',
      'rain-high': null,
      'uv-high': null,
      alert: 'red',
      ok: 'green',
    });
    expect(Object.fromEntries(ACTIONS.map((a) => [a, name(m[a].fill)]))).toEqual({
      freezing: null,
      heat: null,
      'rain-high': 'blue',
      'uv-high': 'yellow',
      alert: null,
      ok: null,
    });
    // Every garment under every action: blue and yellow are areas inside an ink outline, never a line on paper:
    // no such pixel has paper beside it. Blue only on wet gear and yellow only on sun gear.
    const white = at(F, 'white');
    let checked = 0;
    for (const id of GARMENT_IDS) {
      for (const size of [24, 64]) {
        const picto = drawingFor(GARMENT_PICTOGRAMS[id], size);
        for (const a of ACTIONS) {
          const px = drawAlone(F, picto, size, a);
          for (const [ink, only] of [
            [at(F, 'blue'), 'rain-high'],
            [at(F, 'yellow'), 'uv-high'],
          ] as const) {
            let n = 0;
            for (let y = 0; y < size; y++) {
              for (let x = 0; x < size; x++) {
                if (px[y * size + x] !== ink) continue;
                n++;
                const around = [
                  x > 0 ? px[y * size + x - 1] : white,
                  x < size - 1 ? px[y * size + x + 1] : white,
                  y > 0 ? px[(y - 1) * size + x] : white,
                  y < size - 1 ? px[(y + 1) * size + x] : white,
                ];
                expect(around.includes(white), `${id} at ${size} px, ${a}: (${x}, ${y}) beside paper`).toBe(false);
              }
            }
            if (a !== only) expect(n, `${id} at ${size} px, ${a}`).toBe(0);
          }
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('fills the readings’ marks blue and yellow inside an ink outline: no such pixel touches paper', () => {
    const blue = at(F, 'blue');
    const yellow = at(F, 'yellow');
    const white = at(F, 'white');
    // The rain chance's drops from 30 px; below, its mark is the rain's cloud with streaks, which has no place for blue.
    for (const [name, picto, tint, ink, sizes] of [
      ['rain chance', RAIN_CHANCE_LARGE, 'rain-high', blue, [32, 36, 48]],
      ['uv', UV_SUN, 'uv-high', yellow, [24, 32, 48]],
    ] as const) {
      for (const size of sizes) {
        const px = drawAlone(F, picto, size, tint);
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
