import { describe, expect, it } from 'vitest';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { readAnswer } from '../../src/domain/answer.js';
import { conditionOf } from '../../src/domain/condition.js';
import { garmentsOf } from '../../src/domain/garments.js';
import { frameContent } from '../../src/render/layout/content.js';
import { displayState } from '../../src/state/state-json.js';
import { statePayload } from '../../src/state/state-payload.js';

/** An answer is read once (garments, condition), and the frame and every state JSON show that one reading. */

const rec = (outfit = 'A warm coat, gloves and boots; take an umbrella.'): StoredRecommendation => ({
  outfit,
  weather: { temp: -2, temp_unit: '°C', description: 'Light rain', is_day: true, alerts: [] },
  fetched_at: '2026-01-31T07:00:01.000Z',
});

describe('reading an answer', () => {
  it('reads the garments and the condition, once per answer: the same frozen reading every time after', () => {
    const r = rec();
    const first = readAnswer(r);
    expect(first.garments).toEqual(garmentsOf(r.outfit));
    expect(first.garmentView.garments).toBe(first.garments);
    expect(first.garmentView.garments_text).toBe(first.garments.join(', '));
    // Light rain below freezing: sleet, as the frame's icon has always shown it.
    expect(first.condition).toBe(conditionOf(r.weather));
    expect(first.condition).toBe('sleet');
    expect(readAnswer(r)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.garments) && Object.isFrozen(first.garmentView.wear)).toBe(
      true,
    );
  });

  it('reads another answer, and an answer whose outfit was replaced, anew', () => {
    const r = rec();
    const first = readAnswer(r);
    const other = readAnswer(rec('Shorts and sandals.'));
    expect(other).not.toBe(first);
    expect(other.garments).toEqual(['shorts', 'sandals']);
    const changed = Object.assign(r, { outfit: 'A T-shirt.' });
    expect(readAnswer(changed).garments).toEqual(['tshirt']);
  });

  it('is what the frame and the state JSON show, not a second reading', () => {
    const r = rec();
    const reading = readAnswer(r);
    const content = frameContent({
      rec: r,
      displayName: 'Hallway',
      timezone: 'Europe/Berlin',
      status: { kind: 'ok' },
      now: new Date('2026-01-31T07:05:00Z'),
    });
    expect(content.garments).toBe(reading.garments);
    expect(content.condition).toBe('sleet');
    const state = displayState({ rec: r, status: { kind: 'ok' }, nextUpdateAt: null }, 'Europe/Berlin');
    expect(state.garments).toBe(reading.garments);
    expect(state.wear).toBe(reading.garmentView.wear);
    expect(JSON.parse(statePayload(r, null, { kind: 'ok' }, 'Europe/Berlin'))).toMatchObject({
      garments: [...reading.garments],
    });
  });
});
