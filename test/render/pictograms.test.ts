import { describe, expect, it } from 'vitest';
import { drawAlone } from './draw-alone.js';
import { renderIndices } from '../../src/render/frame.js';
import { GARMENT_PICTOGRAMS, NOTHING_EXTRA } from '../../src/render/pictograms/garment-pictograms.js';
import { GARMENT_IDS, type GarmentId } from '../../src/domain/garments.js';
import { listPanelIds, loadPanel, type PanelProfile } from '../../src/panels/panels.js';
import { parsePath } from '../../src/render/pictograms/picto-path.js';
import { readAnswer } from '../../src/domain/answer.js';
import { CONDITION_PICTOGRAMS } from '../../src/render/pictograms/weather-pictograms.js';
import { sampleInput } from '../fixtures/samples.js';

const index = (panel: PanelProfile, name: string): number => panel.palette.findIndex((e) => e.name === name);

describe('pictograms', () => {
  const f = loadPanel('waveshare-7in3-f');
  const bw = loadPanel('waveshare-7in5-v2');

  it('draws every garment in black and white, and every weather pictogram in exact inks', () => {
    const yellowOrBlue = new Set([index(f, 'yellow'), index(f, 'blue')]);
    for (const id of GARMENT_IDS) {
      const g = GARMENT_PICTOGRAMS[id];
      const used = new Set(drawAlone(f, g.picto, 64));
      const allowed = new Set([index(f, 'black'), index(f, 'white')]);
      expect(
        [...used].filter((i) => !allowed.has(i)),
        id,
      ).toEqual([]);
      expect(used.size, id).toBeGreaterThanOrEqual(2);
    }
    for (const [c, p] of Object.entries(CONDITION_PICTOGRAMS)) {
      const used = [...new Set(drawAlone(f, p, 96))];
      expect(
        used.filter((i) => i !== index(f, 'black') && i !== index(f, 'white') && !yellowOrBlue.has(i)),
        c,
      ).toEqual([]);
    }
  });

  it('shows the garment row first on all eleven panels: at least 64 px on 800x480 and 24 px on the smallest', () => {
    for (const id of listPanelIds()) {
      const panel = loadPanel(id);
      const { report } = renderIndices(sampleInput('forty'), panel, { rotation: 0 });
      expect(report.pictograms.length, id).toBeGreaterThanOrEqual(4);
      expect(report.sizes.pictogram!, id).toBeGreaterThanOrEqual(panel.width === 800 && panel.height === 480 ? 64 : 24);
    }
    // Light rain at 2 °C (feels −2): the umbrella first, then scarf and gloves; trousers, a basic, last.
    const { report } = renderIndices(sampleInput('forty'), bw, { rotation: 0 });
    expect(report.pictograms).toEqual(['umbrella', 'scarf', 'gloves', 'coat', 'sweater', 'boots', 'trousers']);
  });

  it('never drops a garment silently, and what the weather demands last, on every panel in both orientations', () => {
    // Nine garments on a snowy day (feels −9 °C, snow likely): the warm hat, scarf and gloves, and the umbrella, first.
    const long = sampleInput('long');
    const row = readAnswer(long.rec!).row;
    expect(row.slice(0, 4)).toEqual(['umbrella', 'scarf', 'gloves', 'warm-hat']);
    for (const id of listPanelIds()) {
      const panel = loadPanel(id);
      for (const rotation of [0, 90] as const) {
        const { report } = renderIndices({ ...long, garments: undefined }, panel, { rotation });
        const where = `${id} at ${rotation}°`;
        // What is drawn is the row's start, and the count on the frame ("+N") is the rest of it.
        expect(report.pictograms, where).toEqual(row.slice(0, report.pictograms.length));
        expect(report.pictograms.length + report.pictogramsMore, where).toBe(9);
        expect(report.pictograms, where).toEqual(expect.arrayContaining(['umbrella', 'scarf', 'gloves']));
        if (report.pictogramsMore > 0) expect(report.texts, where).toContain(`+${report.pictogramsMore}`);
      }
    }
  });

  it('ends the row with a tick, in ink as the garments are, on a benign day when no garment answers to the weather', () => {
    const garments: GarmentId[] = ['tshirt', 'shorts', 'sandals'];
    const sample = sampleInput('short');
    const benign = { ...sample, garments, rec: { ...sample.rec!, weather: { ...sample.rec!.weather, uv_index: 2 } } };
    expect(renderIndices(benign, bw, { rotation: 0 }).report.pictograms).toEqual([...garments, 'nothing-extra']);
    // No green on the 7-colour panel: colour is for readings and alerts (colour-meaning.ts), and this day has none.
    expect(renderIndices(benign, f, { rotation: 0 }).indices.some((v) => v === index(f, 'green'))).toBe(false);
    // The same garments under a UV index of 6.4: the sun asks for something, so no tick, whatever the words say.
    expect(renderIndices({ ...sample, garments }, bw, { rotation: 0 }).report.pictograms).toEqual(garments);
    expect(new Set(drawAlone(f, NOTHING_EXTRA.picto, 64))).toEqual(new Set([index(f, 'black'), index(f, 'white')]));
  });

  it('has no row without garments, and gives the outfit the room', () => {
    const { report } = renderIndices({ ...sampleInput('forty'), garments: [] }, bw, { rotation: 0 });
    expect(report.pictograms).toEqual([]);
    expect(report.sizes.pictogram).toBeNull();
    expect(report.outfit!.size).toBeGreaterThan(
      renderIndices(sampleInput('forty'), bw, { rotation: 0 }).report.outfit!.size,
    );
  });

  it('names the path and the place of a command it cannot read', () => {
    expect(() => parsePath('M1 2 X3')).toThrow(/"M1 2 X3": unknown command "X"/);
    expect(() => parsePath('M1 2 L3')).toThrow(/"L" needs 2 numbers/);
    expect(parsePath('M1 2 3 4 Z').map((o) => o.op)).toEqual(['M', 'L', 'Z']);
  });
});
