import { describe, expect, it } from 'vitest';
import { layoutFrame } from '../../src/render/frame.js';
import { frameJson, type FrameJson } from '../../src/render/frame-json.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import type { Rotation } from '../../src/render/encode/rotate.js';
import { ANNA, BEN, CARLA, DANI, householdInput, type HouseholdCase } from '../fixtures/household-samples.js';

/**
 * How a household frame shares its room among its people (docs/guides/household.md, "The household frame"): the even
 * split where everyone's outfit is whole on it; else rows, columns and cells as each person needs them, and a person's
 * own additions after their name where the name's line has the room, so that as few outfits as can be are cut, and
 * none inside a sentence where any arrangement avoids it.
 */

function json(c: HouseholdCase, id: string, rotation: Rotation = 0): FrameJson {
  const panel = loadPanel(id);
  return frameJson(layoutFrame(householdInput(c), panel, { rotation }), panel, rotation, '');
}

const MEMBERS = [ANNA, BEN, CARLA, DANI];
const WALL = listPanelIds().filter((id) => json('household-2', id).layout !== 'small');

/** The outfit as the frame shows it, against the service's: whole, cut at a sentence end, or cut inside one. */
function howShown(j: FrameJson): ('whole' | 'sentence' | 'inside')[] {
  return j.people.map((p, i) => {
    const text = MEMBERS[i]!.recommendation.outfit;
    if (!p.outfit_truncated && p.outfit === text) return 'whole';
    return p.outfit !== null && !p.outfit.endsWith('…') && text.startsWith(p.outfit) ? 'sentence' : 'inside';
  });
}

describe('the household frame shares its room by need', () => {
  it('the upright Kindle with three: the two above get the height the one across the foot does not need, all whole', () => {
    // On an even split Anna's and Ben's outfits were cut (Ben's inside its first sentence) while Carla's cell, across
    // the foot, had lines to spare.
    expect(howShown(json('household-3', 'kindle-paperwhite'))).toEqual(['whole', 'whole', 'whole']);
  });

  it('the 7.5" lying with four: the columns of the long outfits wider, all four whole', () => {
    // Even columns cut Anna's and Carla's at a sentence end.
    expect(howShown(json('household-4', 'waveshare-7in5-v2'))).toEqual(['whole', 'whole', 'whole', 'whole']);
  });

  it('the upright 7.5" with four: rows and columns shared, Carla whole, Anna cut only at a sentence end', () => {
    expect(howShown(json('household-4', 'waveshare-7in5-v2', 90))).toEqual(['sentence', 'whole', 'whole', 'whole']);
  });

  it('keeps the even split where everyone is whole on it: two people lying, in columns of one width', () => {
    expect(howShown(json('household-2', 'waveshare-7in5-v2'))).toEqual(['whole', 'whole']);
    const laid = layoutFrame(householdInput('household-2'), loadPanel('waveshare-7in5-v2'), { rotation: 0 });
    const [a, b] = laid.report.people.map((p) => p.box);
    expect(a!.w).toBe(b!.w);
  });

  it('puts the additions after the name, "+" and their pictograms, where that keeps an outfit from a cut', () => {
    const j = json('household-4', 'kindle-paperwhite');
    const dani = j.people[3]!;
    expect(dani.additions_drawn).toEqual(['scarf', 'warm-hat']);
    expect(howShown(j)[3]).toBe('whole');
    expect(j.texts).toContain('+');
    expect(j.texts).not.toContain('+ for Dani');
    // Where the label's line has the room, the label says whose they are.
    expect(json('household-2', 'waveshare-7in5-v2').texts).toContain('+ for Anna');
  });

  it.each(WALL.flatMap((id) => ([0, 90] as const).map((rotation) => ({ id, rotation }))))(
    '$id at $rotation: with two or three people, no outfit is cut inside a sentence',
    ({ id, rotation }) => {
      for (const c of ['household-2', 'household-3'] as const)
        expect(howShown(json(c, id, rotation)), c).not.toContain('inside');
    },
  );
});
