import { describe, expect, it } from 'vitest';
import { personForFrame, PersonTurn } from '../../src/household/person-turn.js';
import { ANNA, BEN, CARLA, DANI, framePerson } from '../fixtures/household-samples.js';

const people = [ANNA, BEN, CARLA, DANI].map((m) => framePerson(m));
const away = (ids: string[]) => people.map((p) => ({ ...p, away: ids.includes(p.id) }));

describe('personForFrame: whom a one-person frame shows', () => {
  it('is the device’s own person where it names one of the household', () => {
    expect(personForFrame(people, { person: 'carla', previous: 'carla' })?.id).toBe('carla');
    expect(personForFrame(away(['carla']), { person: 'carla' })?.id).toBe('carla');
  });

  it('takes turns otherwise: the first, then each new frame the next, round again', () => {
    const seen: string[] = [];
    let previous: string | null = null;
    for (let i = 0; i < 6; i++) {
      previous = personForFrame(people, { previous })!.id;
      seen.push(previous);
    }
    expect(seen).toEqual(['anna', 'ben', 'carla', 'dani', 'anna', 'ben']);
    // A person named that is no longer in the household: turns, as without one.
    expect(personForFrame(people, { person: 'eve', previous: 'ben' })?.id).toBe('carla');
  });

  it('passes over people away while anyone is at home; with everyone away, takes turns among all', () => {
    const some = away(['ben', 'carla']);
    expect(personForFrame(some, { previous: 'anna' })?.id).toBe('dani');
    expect(personForFrame(some, { previous: 'dani' })?.id).toBe('anna');
    // The one shown last went out since: the next at home after their place.
    expect(personForFrame(some, { previous: 'ben' })?.id).toBe('dani');
    const all = away(['anna', 'ben', 'carla', 'dani']);
    expect(personForFrame(all, { previous: 'anna' })?.id).toBe('ben');
    expect(personForFrame(all, { previous: null })?.id).toBe('anna');
  });

  it('starts with the first at home, and is null for an empty household; an unknown previous starts over', () => {
    expect(personForFrame(away(['anna']))?.id).toBe('ben');
    expect(personForFrame([], { person: 'anna' })).toBeNull();
    expect(personForFrame(people, { previous: 'eve' })?.id).toBe('anna');
  });
});

describe('PersonTurn: one device’s turns', () => {
  it('moves on with each new answer, not with a redraw of the same', () => {
    const turn = new PersonTurn();
    expect(turn.shows(people, 'a1')).toBe('anna');
    expect(turn.shows(people, 'a1')).toBe('anna');
    expect(turn.shows(people, 'a2')).toBe('ben');
    expect(turn.shows(away(['carla']), 'a3')).toBe('dani');
    expect(turn.shows(people, 'a4')).toBe('anna');
  });

  it('keeps a device’s own person, and shows nobody for a display without people', () => {
    const turn = new PersonTurn('carla');
    expect(turn.shows(people, 'a1')).toBe('carla');
    expect(turn.shows(people, 'a2')).toBe('carla');
    expect(turn.shows(undefined, 'a3')).toBeUndefined();
    expect(new PersonTurn().shows([], 'a1')).toBeUndefined();
  });
});
