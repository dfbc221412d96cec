import { describe, expect, it } from 'vitest';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { layoutFrame, renderIndices, type FrameInput } from '../../src/render/frame.js';
import { frameJson } from '../../src/render/frame-json.js';
import { listPanelIds, loadPanel, type PanelProfile } from '../../src/panels/panels.js';
import type { GarmentId } from '../../src/domain/garments.js';
import { NORMAL, sampleInput } from '../fixtures/samples.js';

/**
 * Colour only for meaning, garments in ink: the pictograms are drawn in the panel's black on every panel and day
 * (their meaning is the garment), and red says a danger reading or an alert, never "a red coat".
 */

const CHROMATIC = ['red', 'orange', 'yellow', 'green', 'blue'];
/** Every panel with a colour ink: the 7.5" B, the 7.3" F, the Inky Impression and the OpenEPaperLink tags (colour-per-meaning.test.ts holds the list). */
const COLOUR_PANELS = listPanelIds().filter((id) => loadPanel(id).palette.some((e) => CHROMATIC.includes(e.name)));

const day = (w: Partial<StoredRecommendation['weather']>, garments: GarmentId[]): FrameInput => ({
  ...sampleInput('normal'),
  garments,
  rec: { ...NORMAL, weather: { ...NORMAL.weather, alerts: [], ...w } },
});

/** Gear that answers to cold, rain and sun (once tinted on a day that asked for it), and plain gear of the same count. */
const ANSWERING: GarmentId[] = ['coat', 'scarf', 'gloves', 'umbrella', 'sunglasses', 'sun-hat'];
const PLAIN: GarmentId[] = ['jacket', 'sweater', 'shirt', 'trousers', 'boots', 'closed-shoes'];

/** Days that ask for every action a garment once answered in colour. */
const DAYS: Record<string, Partial<StoredRecommendation['weather']>> = {
  '2 °C, feels −2 °C': { temp: 2, feels_like: -2 },
  '−4 °C, 90 % rain, UV 8, an alert': {
    temp: -4,
    feels_like: -9,
    rain_chance_pct: 90,
    uv_index: 8,
    alerts: [{ event: 'Ice storm warning', severity: 'severe' }],
  },
  '33 °C, UV 9': { temp: 33, feels_like: 35, uv_index: 9 },
};

/** Where the frame has a colour other than black and white: one flag a pixel. */
function colourMask(panel: PanelProfile, input: FrameInput): boolean[] {
  const chromatic = panel.palette.map((e) => e.name !== 'black' && e.name !== 'white');
  return Array.from(renderIndices(input, panel, { rotation: 0 }).indices, (v) => chromatic[v]!);
}

const json = (panel: PanelProfile, input: FrameInput): ReturnType<typeof frameJson> =>
  frameJson(layoutFrame(input, panel, { rotation: 0 }), panel, 0, '');

describe('garments in ink, colour for meaning', () => {
  it.each(COLOUR_PANELS)(
    '%s: cold, rain and sun gear add no colour pixel to the frame, on days that ask for all of it',
    (id) => {
      const panel = loadPanel(id);
      for (const [name, w] of Object.entries(DAYS)) {
        // The same day with plain gear in the row: a frame laid out alike, whose colour (the temperature, the alert,
        // the readings) is the weather's. With the answering gear, not one colour pixel more or elsewhere.
        const answering = colourMask(panel, day(w, ANSWERING));
        const plain = colourMask(panel, day(w, PLAIN));
        let differ = 0;
        for (let i = 0; i < answering.length; i++) if (answering[i] !== plain[i]) differ++;
        expect(differ, `${id}, ${name}`).toBe(0);
      }
    },
  );

  it.each(COLOUR_PANELS)('%s: a 2 °C day that feels like −2 °C, with no alert, has no colour at all', (id) => {
    // The frame: coat, scarf and mittens solid red beside a black 2°. Nothing on it is a danger reading.
    const mask = colourMask(
      loadPanel(id),
      day({ temp: 2, feels_like: -2, rain_chance_pct: 10, uv_index: 1 }, ANSWERING),
    );
    expect(mask.filter(Boolean).length).toBe(0);
  });

  it.each(COLOUR_PANELS)(
    '%s: the frame JSON says the pictograms are black, and the temperature red only when freezing or hot',
    (id) => {
      const panel = loadPanel(id);
      for (const [name, w] of Object.entries(DAYS)) {
        const j = json(panel, day(w, ANSWERING));
        expect(j.colours.pictograms, `${id}, ${name}`).toBe('black');
        const pictos = j.icons.filter((i) => i.element === 'pictograms');
        expect(pictos.length, `${id}, ${name}`).toBeGreaterThan(0);
        expect(new Set(pictos.map((i) => i.colour)), `${id}, ${name}`).toEqual(new Set(['black']));
      }
      // The tick of a benign day is a pictogram too.
      const benign = json(
        panel,
        day({ temp: 18, feels_like: 18, rain_chance_pct: 10, uv_index: 2 }, PLAIN.slice(0, 3)),
      );
      expect(benign.pictograms).toContain('nothing-extra');
      expect(benign.colours.pictograms).toBe('black');
      // Red at and below 0 °C and from 30 °C; 2 °C (feeling −2 °C), 0.5 °C and 29.9 °C are not dangers.
      for (const [temp, colour] of [
        [-4, 'red'],
        [0, 'red'],
        [0.5, 'black'],
        [2, 'black'],
        [15, 'black'],
        [29.9, 'black'],
        [30, 'red'],
        [33, 'red'],
      ] as const)
        expect(json(panel, day({ temp, feels_like: temp - 4 }, PLAIN)).colours.temperature, `${id} at ${temp} °C`).toBe(
          colour,
        );
    },
  );
});
