import { describe, expect, it } from 'vitest';
import { layoutFrame, type FrameInput } from '../../src/render/frame.js';
import { listPanelIds, loadPanel, ppiOf, type PanelProfile } from '../../src/panels/panels.js';
import { capArcMinutes, VIEWING_DISTANCE_MM } from '../../src/render/draw/type-scale.js';
import { fitOutfit } from '../../src/render/layout/outfit-fit.js';
import { SAMPLE_CASES, type SampleCase, sampleInput } from '../fixtures/samples.js';

/**
 * Every wall panel as good as the 7.5": an outfit whole on the 7.5" is whole on the 7.3" panels
 * and on an upright Kindle, and no outfit's first line is a lone lead-in ("Stay dry:").
 */

const REFERENCE = loadPanel('waveshare-7in5-v2');

/** Each frame's report, drawn once for the file's checks (the 7.5" is compared with every panel). */
const reports = new Map<string, ReturnType<typeof layoutFrame>['report']>();

function drawn(panel: PanelProfile, input: FrameInput, rotation: 0 | 90) {
  const key = `${panel.id}|${rotation}|${JSON.stringify(input)}`;
  let report = reports.get(key);
  if (report === undefined) reports.set(key, (report = layoutFrame(input, panel, { rotation }).report));
  const whole = report.outfit !== null && !report.outfit.truncated && !(report.outfitRest?.truncated ?? false);
  // The outfit's size (its first sentence's, where that is set apart), in arc minutes of its capitals at 2 m.
  const arc = capArcMinutes(report.sizes.outfit ?? 0, ppiOf(panel), VIEWING_DISTANCE_MM.wall);
  // And one pixel larger: what a size rounded down on the pixel grid may lack.
  const arcPlusPx = capArcMinutes((report.sizes.outfit ?? 0) + 1, ppiOf(panel), VIEWING_DISTANCE_MM.wall);
  return { whole, arc, arcPlusPx, lead: report.outfit, rest: report.outfitRest };
}

/** The outfits of the samples that every panel shows whole (an alert takes two lines a 6.8" Kindle does not have). */
const CASES: readonly SampleCase[] = ['normal', 'forty', 'short'];

describe('the 7.3" panels and the Kindle use their room as the 7.5" does', () => {
  it.each(['waveshare-7in3-f', 'inky-impression-7in3'])(
    '%s: every sample outfit whole on the 7.5" is whole, at 97 percent of its arc minutes at least, or a pixel short of it (the 7.3" is denser)',
    (id) => {
      const panel = loadPanel(id);
      let compared = 0;
      const cut: string[] = [];
      for (const c of SAMPLE_CASES) {
        for (const rotation of [0, 90] as const) {
          const ref = drawn(REFERENCE, sampleInput(c), rotation);
          if (!ref.whole) continue;
          const got = drawn(panel, sampleInput(c), rotation);
          if (!got.whole) cut.push(`${c} at ${rotation}°`);
          else expect(got.arcPlusPx, `${c} at ${rotation}°`).toBeGreaterThanOrEqual(ref.arc * 0.97);
          compared++;
        }
      }
      expect(compared).toBeGreaterThanOrEqual(8);
      // Yesterday's outfit under its headline too, which once lost its last words on the 7.3" (the same arc minutes
      // take one pixel more a line there): the headline takes its room from the spacing and the pictograms.
      expect(cut).toEqual([]);
    },
  );

  it.each([0, 90] as const)(
    'the Kindle at %i° sets the normal, 30-word and 10-word outfits whole, as the 7.5" does',
    (rotation) => {
      const kindle = loadPanel('kindle-paperwhite');
      for (const c of CASES) {
        expect(drawn(REFERENCE, sampleInput(c), rotation).whole, `7.5" ${c}`).toBe(true);
        const got = drawn(kindle, sampleInput(c), rotation);
        expect(got.whole, `Kindle ${c} at ${rotation}°`).toBe(true);
        expect(got.arc, `Kindle ${c} at ${rotation}°`).toBeGreaterThanOrEqual(10);
      }
    },
  );
});

describe('no lone lead-in', () => {
  it("never sets the words before a colon apart as the outfit's first sentence", () => {
    // The second sentence refuses nothing: one that refuses a garment would be set with the first (outfit-fit.ts).
    const text =
      'Stay dry: a hooded waterproof shell over a fleece, quick-drying trousers, and rubber boots. Gloves and a scarf help on the long walk to the station.';
    let split = 0;
    // Boxes from roomy to tight: where the outfit is set in two sizes, the first is its first sentence, lead-in and all.
    for (let height = 80; height <= 400; height += 20) {
      const fit = fitOutfit({
        text,
        font: 'condensed',
        width: 300,
        height,
        maxSize: 200,
        minSize: 24,
        restMin: 14,
        lineHeight: 1.1,
        gap: 6,
      });
      // Its lines may break after the lead-in ("Stay dry: / a hooded…": "a" goes with its word, break-rules.ts).
      expect(fit.lead.lines.map((l) => l.text).join(' '), `${height} px`).toMatch(/^Stay dry: a hooded/);
      if (fit.rest !== null) split++;
    }
    expect(split).toBeGreaterThan(0);
  });

  // Every panel both ways round in every case: the TRMNL X alone draws 2.6 million pixels a frame, hence the time.
  it('on no panel, rotation or sample case is the first line of an outfit set apart a lead-in ending in a colon', () => {
    let checked = 0;
    for (const id of listPanelIds()) {
      const panel = loadPanel(id);
      for (const rotation of [0, 90] as const) {
        for (const c of SAMPLE_CASES) {
          const { lead, rest } = drawn(panel, sampleInput(c), rotation);
          if (lead === null) continue;
          checked++;
          if (rest === null) continue;
          expect(lead.lines.map((l) => l.text).join(' '), `${id} at ${rotation}°, ${c}`).not.toMatch(/:$/);
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  }, 60_000);
});
