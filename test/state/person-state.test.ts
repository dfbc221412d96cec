import { describe, expect, it } from 'vitest';
import { displayState } from '../../src/state/state-json.js';
import { statePayload } from '../../src/state/state-payload.js';
import { DisplayBook } from '../../src/state/display-book.js';
import { DisplayViews } from '../../src/state/display-views.js';
import type { FramePerson } from '../../src/render/frame.js';
import { makeConfig } from '../budget/helpers.js';
import { rec } from '../fixtures/rec.js';

/** A household display's `people` in the one state JSON: state.json, the MQTT state, the webhook's. */

const TZ = 'Europe/Berlin';
const anna: FramePerson = {
  id: 'anna',
  name: 'Anna',
  rec: rec({ outfit: 'A warm coat, a scarf and boots.', fetchedAt: '2026-01-31T07:00:01.000Z' }),
  offsetC: -2,
  additions: ['gloves'],
  away: false,
  stale: false,
};
const ben: FramePerson = { id: 'ben', name: 'Ben', rec: null, offsetC: 0, additions: [], away: true };

describe('people in the state JSON', () => {
  it('lists each person: garments, pictograms, additions, offset, away, outfit, fetched_at, stale', () => {
    const s = displayState({ rec: anna.rec, status: { kind: 'ok' }, nextUpdateAt: null, people: [anna, ben] }, TZ);
    expect(s.people).toEqual([
      {
        id: 'anna',
        name: 'Anna',
        garments: expect.arrayContaining(['coat', 'scarf', 'boots']) as unknown,
        pictograms: expect.arrayContaining(['coat', 'scarf', 'boots']) as unknown,
        additions: ['gloves'],
        offset_c: -2,
        away: false,
        outfit: 'A warm coat, a scarf and boots.',
        fetched_at: '2026-01-31T08:00:01.000+01:00',
        stale: false,
      },
      {
        id: 'ben',
        name: 'Ben',
        garments: [],
        pictograms: [],
        additions: [],
        offset_c: 0,
        away: true,
        outfit: null,
        fetched_at: null,
        stale: false,
      },
    ]);
    // The display's own part is its first person's answer, as before.
    expect(s.outfit).toBe(anna.rec?.outfit);
  });

  it('is absent for a display of one outfit, and in the MQTT state when the view has people', () => {
    expect(displayState({ rec: anna.rec, status: { kind: 'ok' }, nextUpdateAt: null }, TZ)).not.toHaveProperty(
      'people',
    );
    const single = JSON.parse(statePayload(anna.rec!, null, { kind: 'ok' }, TZ)) as Record<string, unknown>;
    expect(single).not.toHaveProperty('people');
    const mqtt = JSON.parse(statePayload(anna.rec!, null, { kind: 'ok' }, TZ, null, { people: [anna, ben] })) as {
      people: { id: string }[];
    };
    expect(mqtt.people.map((p) => p.id)).toEqual(['anna', 'ben']);
  });

  it('the view carries what the cycle recorded', () => {
    const config = makeConfig({
      people: [{ id: 'anna', name: 'Anna', gender: 'female' }],
      displays: [{ id: 'hallway', lat: 52.52, lon: 13.405, schedule: '*/30 6-22 * * *', people: ['anna'] }],
    });
    const display = config.displays[0]!;
    const book = new DisplayBook({ clock: { now: () => 0 } });
    const views = new DisplayViews({ displayBook: book, displays: config.displays, clock: { now: () => 0 } });
    expect(views.view('hallway')).not.toHaveProperty('people');
    book.record({
      display,
      rec: anna.rec,
      status: { kind: 'ok' },
      frame: null,
      stale: false,
      staleSince: null,
      lastError: null,
      lastSuccessAt: null,
      storeProblem: null,
      outputProblem: null,
      renderProblem: null,
      refreshRefused: null,
      nextUpdateAt: null,
      people: [anna],
    });
    expect(views.view('hallway')?.people).toEqual([anna]);
  });
});
