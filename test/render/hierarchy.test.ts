import { describe, expect, it } from 'vitest';
import { layoutFrame, type FrameInput } from '../../src/render/frame.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { capArcMinutes } from '../../src/render/draw/type-scale.js';
import { ENGLISH } from '../../src/i18n/locale.js';
import { SAMPLE_CASES, sampleInput } from '../fixtures/samples.js';
import { EXTRA_SAMPLES, extraInput } from '../fixtures/extra-samples.js';
import { ALL_CASES, caseInput, isSmallView, ROTATIONS } from './frame-cases.js';

/**
 * The frame's hierarchy on the wall panels: the temperature is the largest text, the outfit's capitals stay clearly
 * below it however short the outfit, and a short outfit's garments take the room it leaves, centred in their row.
 */

/** Both faces are DejaVu's, whose capitals are 0.729 em: the sizes compare as the capitals do. */
const CAP_EM = 0.729;

/** The panels read on a wall (the small ones are read at arm's length, and have no such hierarchy to keep). */
const WALL_PANELS = listPanelIds().filter((id) => ROTATIONS.some((r) => !isSmallView(loadPanel(id), r)));

/** Every frame case and extra sample, in English. */
const INPUTS: [string, FrameInput][] = [
  ...ALL_CASES.map((c): [string, FrameInput] => [c, caseInput(c, ENGLISH)]),
  ...EXTRA_SAMPLES.map((s): [string, FrameInput] => [s, extraInput(s)]),
];

describe('the hierarchy of a wall frame', () => {
  it.each(WALL_PANELS)(
    '%s never sets the outfit as tall as the temperature: its capitals at most 0.75 of the temperature’s, either way round, in every sample',
    (id) => {
      const panel = loadPanel(id);
      let compared = 0;
      const over: string[] = [];
      for (const rotation of ROTATIONS) {
        if (isSmallView(panel, rotation)) continue;
        for (const [name, input] of INPUTS) {
          const { report, scale } = layoutFrame(input, panel, { rotation });
          const { outfit, temperature } = report.sizes;
          if (outfit === null || temperature === null) continue;
          compared++;
          const arc = (px: number): string => capArcMinutes(px, scale.ppi, scale.distanceMm).toFixed(1);
          if (outfit * CAP_EM >= temperature * CAP_EM || outfit > temperature * 0.75)
            over.push(
              `${rotation}°, ${name}: outfit ${outfit} px (${arc(outfit)}′), temperature ${temperature} px (${arc(temperature)}′)`,
            );
        }
      }
      expect(compared).toBeGreaterThanOrEqual(15);
      expect(over).toEqual([]);
    },
    60_000,
  );

  it.each(WALL_PANELS)(
    '%s sets the top band’s name, day and time below the readings’ size, to be read up close (9′ or more at 0.5 m)',
    (id) => {
      const panel = loadPanel(id);
      for (const rotation of ROTATIONS) {
        if (isSmallView(panel, rotation)) continue;
        const { report, scale } = layoutFrame(sampleInput('normal'), panel, { rotation });
        const band = report.textBoxes.filter(
          (t) => t.text === 'Hallway' || t.text.includes('January') || t.text.startsWith('Updated'),
        );
        expect(band.length, `${rotation}°`).toBeGreaterThanOrEqual(2);
        for (const t of band) {
          expect(t.size, `${rotation}°: ${t.text}`).toBeLessThan(report.sizes.reading!);
          expect(capArcMinutes(t.size, scale.ppi, 500), `${rotation}°: ${t.text}`).toBeGreaterThanOrEqual(9);
        }
      }
    },
  );

  it('gives the 10-word outfit’s four garments on the 7.5" the room it leaves: larger than the scale’s 86 px, centred in the row', () => {
    const panel = loadPanel('waveshare-7in5-v2');
    const { report, width } = layoutFrame(sampleInput('short'), panel, { rotation: 0 });
    expect(report.pictograms).toHaveLength(4);
    expect(report.sizes.pictogram).toBeGreaterThan(86);
    const row = report.pictogramRow!;
    // The row's room is the frame less its 16 px margins (layout-wide.ts MARGIN).
    const left = row.x - 16;
    const right = width - 16 - (row.x + row.w);
    expect(left).toBeGreaterThan(0);
    expect(Math.abs(left - right)).toBeLessThanOrEqual(1);
    // And the outfit keeps its words: whole, with the reasoning below it.
    expect(report.outfit?.truncated).toBe(false);
    expect(report.reasoning).not.toBeNull();
  });

  it.each(SAMPLE_CASES)('keeps every wall row of %s centred in its room, grown or not', (c) => {
    for (const id of ['waveshare-7in5-v2', 'trmnl-x', 'kindle-paperwhite']) {
      for (const rotation of ROTATIONS) {
        const { report, width, scale } = layoutFrame(sampleInput(c), loadPanel(id), { rotation });
        const row = report.pictogramRow;
        const room = report.pictogramRoom;
        if (row === null || room === null || report.layout === 'small') continue;
        // Its room is the frame less equal margins, or what a headline set beside the garments leaves, to its right.
        const margin = width - (room.x + room.w);
        if (report.headline === null) expect(Math.abs(room.x - margin)).toBeLessThanOrEqual(1);
        else expect(room.x).toBeGreaterThanOrEqual(margin - 1);
        const left = row.x - room.x;
        const right = room.x + room.w - (row.x + row.w);
        expect(Math.abs(left - right), `${id} at ${rotation}°, ${scale.ppi.toFixed(0)} ppi`).toBeLessThanOrEqual(1);
      }
    }
  });
});
