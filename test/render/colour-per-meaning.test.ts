import { describe, expect, it } from 'vitest';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { renderIndices, type FrameInput } from '../../src/render/frame.js';
import { listPanelIds, loadPanel, type PanelProfile } from '../../src/panels/panels.js';
import { meaningInks } from '../../src/render/draw/colour-meaning.js';
import { inkDistance, MEANING_MIN_DELTA_E } from '../../src/render/draw/colour-difference.js';
import { glassRgb } from '../../src/render/draw/ink-contrast.js';
import { localeFor } from '../../src/i18n/locale.js';
import { caseInput, type FrameCase } from './frame-cases.js';
import { NORMAL, sampleInput } from '../fixtures/samples.js';

/** Colour for meaning: one meaning per colour, written down in colour-meaning.ts and docs/guides/frame.md. */

const CHROMATIC = ['red', 'orange', 'yellow', 'green', 'blue'];
/** The panels with colour inks: the 7.5" B, the 7.3" F and the Inky Impression. */
const COLOUR_PANELS = listPanelIds().filter((id) => loadPanel(id).palette.some((e) => CHROMATIC.includes(e.name)));
const WARNING = ['red', 'orange', 'yellow'];

const mild = {
  ...NORMAL.weather,
  temp: 15,
  feels_like: 14,
  rain_chance_pct: 10,
  uv_index: 2,
  description: 'Partly cloudy',
  alerts: [],
};
/** A day asking for one thing, with gear for everything in the row, so a colour on any of it is seen. */
const day = (w: Partial<StoredRecommendation['weather']>): FrameInput => ({
  ...sampleInput('normal'),
  garments: ['raincoat', 'umbrella', 'warm-hat', 'gloves', 'sunglasses', 'sunscreen'],
  rec: { ...NORMAL, weather: { ...mild, ...w } },
});

/** The meanings, each on a day that asks for it alone, and the one colour each may show. */
const MEANINGS = {
  'all is well': {
    input: {
      ...sampleInput('normal'),
      garments: ['jacket', 'trousers', 'closed-shoes'],
      rec: { ...NORMAL, weather: { ...mild, temp: 18, feels_like: 18 } },
    },
    // The tick is a pictogram of the garment row: ink, as the garments are.
    ink: null,
  },
  danger: { input: day({ alerts: ['Gale warning'] }), ink: 'red' },
  freezing: { input: day({ temp: -4, feels_like: -9 }), ink: 'red' },
  heat: { input: day({ temp: 33, feels_like: 35 }), ink: 'red' },
  wet: { input: day({ rain_chance_pct: 90 }), ink: 'blue' },
  'strong sun': { input: day({ uv_index: 9 }), ink: 'yellow' },
} as const satisfies Record<string, { input: FrameInput; ink: string | null }>;

function coloursOf(panel: PanelProfile, input: FrameInput): Set<string> {
  const used = new Set<string>();
  for (const v of renderIndices(input, panel, { rotation: 0 }).indices) used.add(panel.palette[v]!.name);
  return new Set([...used].filter((n) => CHROMATIC.includes(n)));
}

describe('colour for meaning', () => {
  it('is tried on the five colour panels', () => {
    expect(COLOUR_PANELS.sort()).toEqual([
      'inky-impression-7in3',
      'oepl-2in9-bwr',
      'oepl-4in2-bwr',
      'waveshare-7in3-f',
      'waveshare-7in5-b',
    ]);
  });

  it.each(COLOUR_PANELS)(
    '%s: each meaning shows in its own colour or in ink, and no colour says two meanings',
    (id) => {
      const panel = loadPanel(id);
      for (const [meaning, { input, ink }] of Object.entries(MEANINGS)) {
        const colours = [...coloursOf(panel, input)];
        expect(
          colours.filter((c) => c !== ink),
          `${id}, ${meaning}`,
        ).toEqual([]);
      }
      // Red says danger (alerts, freezing, heat) on every colour panel; the F and the Inky show strong sun in yellow,
      // and wet in blue where their blue can be told from their black (the Inky's; the F's is 1.2:1 from it). All is
      // well is ink everywhere: the tick is a pictogram, and pictograms are ink.
      expect(coloursOf(panel, MEANINGS.danger.input)).toEqual(new Set(['red']));
      expect(coloursOf(panel, MEANINGS['all is well'].input), id).toEqual(new Set());
      if (panel.palette.some((e) => e.name === 'blue')) {
        expect(coloursOf(panel, MEANINGS.wet.input), id).toEqual(
          new Set(id === 'inky-impression-7in3' ? ['blue'] : []),
        );
        expect(coloursOf(panel, MEANINGS['strong sun'].input), id).toEqual(new Set(['yellow']));
      }
    },
  );

  it.each(COLOUR_PANELS)(
    "%s: the service's state is never in a warning colour (error, no connection, refused key, an old outfit)",
    (id) => {
      const panel = loadPanel(id);
      const cases: FrameCase[] = ['error', 'offline', 'key', 'old', 'badge', 'badge-error', 'no-outfit'];
      for (const c of cases) {
        // The sample's weather (4 °C, 10 % rain, UV 1, no alert) asks for nothing in colour: what colour there is, is
        // the state's.
        const input = caseInput(c, localeFor('en'));
        const colours = [...coloursOf(panel, input)].filter((n) => WARNING.includes(n));
        expect(colours, `${id}, ${c}`).toEqual([]);
      }
    },
  );

  it.each(listPanelIds())('%s: two meanings in the same role are at least ΔE00 30 apart in the measured inks', (id) => {
    const panel = loadPanel(id);
    const m = meaningInks(panel);
    const byCss = new Map(panel.palette.map((e) => [`rgb(${glassRgb(panel, e.name)!.join(',')})`, e.name]));
    for (const role of ['stroke', 'fill'] as const) {
      // freezing and heat take danger's paint: one meaning.
      const inks = new Map<string, string>();
      for (const meaning of ['alert', 'rain-high', 'uv-high'] as const) {
        const css = m[meaning][role];
        if (css !== null) inks.set(meaning, byCss.get(css)!);
      }
      const names = [...inks.values()];
      expect(new Set(names).size, `${id} ${role}: ${[...inks].join(' ')}`).toBe(names.length);
      for (const [i, a] of names.entries()) {
        for (const b of names.slice(i + 1))
          expect(
            inkDistance(glassRgb(panel, a)!, glassRgb(panel, b)!),
            `${id} ${role}: ${a} and ${b}`,
          ).toBeGreaterThanOrEqual(MEANING_MIN_DELTA_E);
      }
    }
    expect(m.freezing).toEqual(m.alert);
    expect(m.heat).toEqual(m.alert);
  });

  it("drops the lesser meaning's stroke where two would look alike: on the Inky, blue lines would be 28 from red", () => {
    const inky = meaningInks(loadPanel('inky-impression-7in3'));
    expect(inky['rain-high'].stroke).toBeNull();
    expect(inky['rain-high'].fill).not.toBeNull();
    expect(inky.alert.stroke).not.toBeNull();
  });
});
