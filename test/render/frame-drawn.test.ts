import { describe, expect, it } from 'vitest';
import { frameJson, type FrameJson } from '../../src/render/frame-json.js';
import { layoutFrame } from '../../src/render/frame.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { SAMPLE_CASES, sampleInput, NORMAL, type SampleCase } from '../fixtures/samples.js';
import type { FrameInput } from '../../src/render/layout/content.js';

/**
 * What the frame shows is complete in its JSON (`render --out F.json`): every symbol by name with the element it
 * belongs to, and the colour each element was drawn in, so an outside check can hold a frame to its rules without
 * reading pixels.
 */

const json = (input: FrameInput, id: string): FrameJson => {
  const panel = loadPanel(id);
  return frameJson(layoutFrame(input, panel, { rotation: 0 }), panel, 0, '');
};
const sample = (c: SampleCase, id: string): FrameJson => json(sampleInput(c), id);

describe('the frame JSON names what was drawn', () => {
  it.each(listPanelIds())('%s: every symbol and every colour belongs to an element, in every sample', (id) => {
    for (const c of SAMPLE_CASES) {
      const j = sample(c, id);
      const texts = layoutFrame(sampleInput(c), loadPanel(id), { rotation: 0 }).drawn.colours;
      expect(texts.has(null), `${c}: text or fills outside any element`).toBe(false);
      expect(j.icons.length, `${c}: some symbol`).toBeGreaterThan(0);
      expect(
        j.icons.filter((i) => i.element === null),
        `${c}: symbols outside any element`,
      ).toEqual([]);
      for (const colour of [...j.icons.map((i) => i.colour), ...Object.values(j.colours)])
        expect(
          loadPanel(id).palette.map((e) => e.name),
          `${c}: ${colour}`,
        ).toContain(colour);
    }
  });

  it('names the rain chance a cloud with drops, never an umbrella, blue at 95 % on the Inky and black on the 7.3" F', () => {
    const f = sample('alert', 'waveshare-7in3-f');
    // The F's blue is 1.2:1 from its black: no blue there. The Inky's black is darker: its drops are blue.
    expect(f.icons).toContainEqual({ name: 'cloud-drops', element: 'rain_chance', colour: 'black' });
    expect(f.colours.rain_chance).toBe('black');
    const inky = sample('alert', 'inky-impression-7in3');
    expect(inky.icons).toContainEqual({ name: 'cloud-drops', element: 'rain_chance', colour: 'blue' });
    expect(inky.colours.rain_chance).toBe('blue');
    expect(f.icons.filter((i) => i.name === 'umbrella')).toEqual([]);
    expect(f.icons).toContainEqual({ name: 'thunder', element: 'condition', colour: 'black' });
    // The alerts' band is red on the F, black on the 7.5"; their lines and whether each was cut are there too.
    expect(f.colours.alerts).toBe('red');
    expect(sample('alert', 'waveshare-7in5-v2').colours.alerts).toBe('black');
    expect(f.alerts.map((a) => typeof a.truncated)).toEqual(f.alerts.map(() => 'boolean'));
    expect(f.alerts[0]!.lines.join(' ')).toContain('Severe storm warning');
    // A small panel's rain chance is the rain's cloud with streaks.
    expect(sample('alert', 'waveshare-2in9').icons).toContainEqual(
      expect.objectContaining({ name: 'cloud-streaks', element: 'rain_chance' }),
    );
  });

  it('says the temperature is red on a freezing day where the panel has red, and black where it has not', () => {
    const freezing = {
      ...sampleInput('normal'),
      rec: { ...NORMAL, weather: { ...NORMAL.weather, temp: -4, feels_like: -9 } },
    };
    expect(json(freezing, 'waveshare-7in3-f').colours.temperature).toBe('red');
    expect(json(freezing, 'waveshare-7in5-v2').colours.temperature).toBe('black');
    expect(sample('normal', 'waveshare-7in3-f').colours.temperature).toBe('black');
  });

  it('names the garments of the row and the status of a failed purchase', () => {
    const j = sample('normal', 'waveshare-7in5-v2');
    expect(j.icons.filter((i) => i.element === 'pictograms').map((i) => i.name)).toEqual(j.pictograms);
    const error = sample('error', 'waveshare-7in5-v2');
    expect(error.icons.some((i) => i.element === 'status' && i.name.startsWith('status-'))).toBe(true);
    expect(error.colours.status).toBe('black');
  });
});
