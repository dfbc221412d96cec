import { describe, expect, it } from 'vitest';
import { layoutFrame, type LaidOutFrame } from '../../src/render/frame.js';
import { frameJson, type FrameJson } from '../../src/render/frame-json.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import type { Rotation } from '../../src/render/encode/rotate.js';
import { localeFor } from '../../src/i18n/locale.js';
import {
  ANNA,
  BEN,
  CARLA,
  DANI,
  framePerson,
  householdInput,
  type HouseholdCase,
} from '../fixtures/household-samples.js';
import { SAMPLE_NOW, SAMPLE_TIMEZONE } from '../fixtures/samples.js';
import type { FrameInput } from '../../src/render/layout/content.js';
import { crowded } from './hostile.js';

/**
 * The household frame (docs/guides/household.md, "The household frame"): on every wall panel, upright and lying, each
 * person's name at the readings' size at least, their garments at 20′ of arc at 2 m at least, their outfit whole or cut
 * at a sentence end, their additions after "+ for <name>", and the weather once; on the small panels one person a frame.
 */

/** What `render --out x.json` says of a frame (the PNG's hash is no part of these checks). */
function json(input: FrameInput, id: string, rotation: Rotation = 0): { j: FrameJson; laid: LaidOutFrame } {
  const panel = loadPanel(id);
  const laid = layoutFrame(input, panel, { rotation });
  return { j: frameJson(laid, panel, rotation, ''), laid };
}

const WALL = listPanelIds().filter((id) => json(householdInput('household-2'), id).j.layout !== 'small');
const SMALL = listPanelIds().filter((id) => !WALL.includes(id));
const WALL_CASES = WALL.flatMap((id) =>
  ([0, 90] as const).flatMap((rotation) => (['household-2', 'household-4'] as const).map((c) => ({ id, rotation, c }))),
);

/** Every whole sentence of `text`, as the outfit fitting splits it (outfit-fit.ts). */
const sentenceEnds = (text: string): string[] => {
  const out: string[] = [];
  const re = /[.!?;](?=\s|$)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(text.slice(0, m.index + 1));
  return out;
};

describe('the household frame on a wall panel', () => {
  it('has wall panels and small ones to test', () => {
    expect(WALL).toEqual(expect.arrayContaining(['waveshare-7in5-v2', 'trmnl', 'kindle-paperwhite', 'inkplate-10']));
    expect(SMALL).toEqual(expect.arrayContaining(['waveshare-2in13', 'waveshare-4in2', 'oepl-2in9-bwr']));
  });

  it.each(WALL_CASES)(
    '$id at $rotation, $c: names at the readings’ size, garments at 20′ at least',
    ({ id, rotation, c }) => {
      const { j } = json(householdInput(c), id, rotation);
      expect(['landscape', 'portrait']).toContain(j.layout);
      expect(j.people.map((p) => p.id)).toEqual(
        c === 'household-2' ? ['anna', 'ben'] : ['anna', 'ben', 'carla', 'dani'],
      );
      const reading = j.sizes.reading!;
      for (const p of j.people) {
        expect(p.sizes.name!.px, p.id).toBeGreaterThanOrEqual(reading.px);
        expect(p.sizes.pictogram!.arc_minutes, p.id).toBeGreaterThanOrEqual(20);
        expect(p.pictograms.length, p.id).toBeGreaterThan(0);
        expect(p.outfit, p.id).not.toBeNull();
      }
    },
  );

  it.each(WALL_CASES)('$id at $rotation, $c: the weather once, from the first person', ({ id, rotation, c }) => {
    const { j } = json(householdInput(c), id, rotation);
    expect(j.texts.filter((t) => t === '13°C')).toHaveLength(1);
    expect(j.texts.filter((t) => /^Feels( like)? 11°$/.test(t))).toHaveLength(1);
    expect(j.icons.filter((i) => i.element === 'condition')).toHaveLength(1);
    expect(j.icons.filter((i) => i.element === 'humidity')).toHaveLength(1);
  });

  it('keeps every outfit whole on a 7.5" panel with two people, and whole sentences with four', () => {
    for (const rotation of [0, 90] as const) {
      const two = json(householdInput('household-2'), 'waveshare-7in5-v2', rotation).j;
      expect(two.people.map((p) => p.outfit)).toEqual([ANNA, BEN].map((m) => m.recommendation.outfit));
      expect(two.people.every((p) => !p.outfit_truncated)).toBe(true);
      const four = json(householdInput('household-4'), 'waveshare-7in5-v2', rotation).j;
      for (const [i, m] of [ANNA, BEN, CARLA, DANI].entries()) {
        const shown = four.people[i]!.outfit!;
        expect(shown, m.id).not.toContain('…');
        expect(sentenceEnds(m.recommendation.outfit), m.id).toContain(shown);
        expect(four.people[i]!.outfit_truncated, m.id).toBe(shown !== m.recommendation.outfit);
      }
    }
  });

  it('draws a person’s additions as their own, after "+ for <name>", never among the service’s garments', () => {
    const { j } = json(householdInput('household-2'), 'waveshare-7in5-v2');
    const anna = j.people[0]!;
    expect(anna.offset_c).toBe(-3);
    expect(anna.additions).toEqual(['scarf', 'warm-hat']);
    expect(anna.additions_drawn).toEqual(['scarf', 'warm-hat']);
    expect(anna.garments).not.toContain('scarf');
    expect(j.texts).toContain('+ for Anna');
    expect(j.texts).not.toContain('+ for Ben');
    expect(j.icons.filter((i) => i.element === 'additions').map((i) => i.name)).toEqual(['scarf', 'warm-hat']);
    expect(j.icons.filter((i) => i.element === 'pictograms').map((i) => i.name)).not.toContain('warm-hat');
    expect(j.people[1]!.additions).toEqual([]);
    // In the frame's language.
    const de = json(householdInput('household-2', 'Flur', localeFor('de')), 'waveshare-7in5-v2').j;
    expect(de.texts).toContain('+ für Anna');
  });

  it('marks a person away with "Out", their last outfit still shown; an out-of-date one’s column as old', () => {
    const three = json(householdInput('household-3'), 'trmnl');
    const ben = three.j.people[1]!;
    expect(ben).toMatchObject({ id: 'ben', away: true, stale: false, outfit: BEN.recommendation.outfit });
    expect(three.j.texts).toContain('· Out');
    expect(three.laid.report.oldMarks).toEqual([]);
    const four = json(householdInput('household-4'), 'trmnl');
    expect(four.j.people.map((p) => p.stale)).toEqual([false, false, true, false]);
    const carlaBox = four.laid.report.people[2]!.box;
    expect(four.laid.report.oldMarks).toEqual([carlaBox]);
  });

  it('draws the display’s status once for the frame; a display out of date marks every column old', () => {
    const base = householdInput('household-3');
    const failing: FrameInput = {
      ...base,
      status: {
        kind: 'service_error',
        problem: 'error',
        message: 'HTTP 502',
        since: new Date(SAMPLE_NOW.getTime() - 3_600_000),
        retryAt: new Date(SAMPLE_NOW.getTime() + 600_000),
      },
    };
    const { j } = json(failing, 'waveshare-7in5-v2');
    expect(j.texts.filter((t) => t === 'Outfit service error')).toHaveLength(1);
    expect(j.people.map((p) => p.outfit !== null)).toEqual([true, true, true]);
    const later = { ...base, now: new Date(SAMPLE_NOW.getTime() + 3 * 3_600_000), stale: true };
    const old = json(later, 'waveshare-7in5-v2');
    expect(old.j.people.map((p) => p.stale)).toEqual([true, true, true]);
    expect(old.laid.report.badge?.text).toBe('3 h old');
    expect(old.laid.report.oldMarks).toHaveLength(3);
  });

  it('draws a household of one on a wall panel with their name and additions', () => {
    const input = { ...householdInput('household-2'), people: [framePerson(ANNA)] };
    const { j } = json(input, 'waveshare-7in5-v2');
    expect(j.layout).toBe('landscape');
    expect(j.people).toHaveLength(1);
    expect(j.texts).toEqual(expect.arrayContaining(['Anna', '+ for Anna', 'Hallway']));
    expect(j.people[0]!.outfit).toBe(ANNA.recommendation.outfit);
  });

  it('says a person has no outfit yet, and takes the weather from the first person with one', () => {
    const input: FrameInput = {
      ...householdInput('household-2'),
      people: [{ ...framePerson(ANNA), rec: null, additions: [] }, framePerson(BEN)],
    };
    const { j } = json(input, 'waveshare-7in5-v2');
    expect(j.texts).toContain('No outfit yet');
    expect(j.people[0]!.outfit).toBeNull();
    expect(j.texts.filter((t) => t === '13°C')).toHaveLength(1);
    // Nobody with an answer: the frame without an outfit, under the display's name.
    const none = json({ ...input, people: input.people!.map((p) => ({ ...p, rec: null })) }, 'waveshare-7in5-v2').j;
    expect(none.layout).toBe('error');
    expect(none.texts.join(' ')).toContain('Waiting for the first outfit');
    expect(none.people).toEqual([]);
  });

  it('shows four people at most', () => {
    const five = {
      ...householdInput('household-4'),
      people: [...householdInput('household-4').people!, framePerson({ ...BEN, id: 'eve', name: 'Eve' })],
    };
    expect(json(five, 'waveshare-7in5-v2').j.people.map((p) => p.id)).toEqual(['anna', 'ben', 'carla', 'dani']);
  });
});

describe('the household on a small panel: one person a frame', () => {
  it.each(SMALL)('%s shows the first person, their name in the band and their additions', (id) => {
    for (const c of ['household-2', 'household-4'] as HouseholdCase[]) {
      const { j } = json(householdInput(c), id);
      expect(j.layout).toBe('small');
      expect(j.people).toHaveLength(1);
      expect(j.people[0]).toMatchObject({ id: 'anna', name: 'Anna', additions: ['scarf', 'warm-hat'] });
      expect(j.people[0]!.additions_drawn).toEqual(['scarf', 'warm-hat']);
      expect(j.texts).toContain('Anna');
      expect(j.texts).not.toContain('Hallway');
      expect(j.texts).toContain('+ for Anna');
      expect(j.texts.join(' ')).not.toContain('Ben');
      expect(j.garments).toEqual(['jacket', 'raincoat', 'sweater', 'trousers', 'boots', 'sunglasses']);
    }
  });

  it.each(SMALL)('%s shows the person the daemon’s turn names (onePerson), not the first', (id) => {
    const { j } = json({ ...householdInput('household-4'), onePerson: 'dani' }, id);
    expect(j.people.map((p) => p.id)).toEqual(['dani']);
    expect(j.texts).toContain('Dani');
    expect(j.texts.join(' ')).not.toContain('Anna');
  });

  it('is the display’s own frame, as before, without people', () => {
    const input: FrameInput = {
      rec: ANNA.recommendation,
      displayName: 'Hallway',
      timezone: SAMPLE_TIMEZONE,
      status: { kind: 'ok' },
      now: SAMPLE_NOW,
    };
    const { j } = json(input, 'waveshare-2in13');
    expect(j.people).toEqual([]);
    expect(j.texts).toContain('Hallway');
    expect(j.texts).not.toContain('+ for Anna');
  });
});

describe('the household frame’s gaps', () => {
  it('keeps the ink of different texts apart on every panel, rotation and household', () => {
    const found: string[] = [];
    for (const id of listPanelIds())
      for (const rotation of [0, 90] as const)
        for (const c of ['household-2', 'household-3', 'household-4'] as const) {
          const { report } = layoutFrame(householdInput(c), loadPanel(id), { rotation });
          for (const f of crowded(report)) found.push(`${id} ${rotation} ${c}: ${f}`);
        }
    expect(found).toEqual([]);
  }, 300_000);
});
