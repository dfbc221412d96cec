import { describe, expect, it } from 'vitest';
import {
  ADDITION_RULES,
  additionsFor,
  clampOffset,
  faded,
  voted,
  WARMTH,
  type AdditionRule,
} from '../../src/domain/warmth.js';
import { WEATHER_THRESHOLDS } from '../../src/domain/weather-demands.js';

/** A person's own warmth, the rules alone: what an offset adds, and how votes, clamp and fade move it. */

const DAY = 86_400_000;
const rule = (g: AdditionRule['garment']): AdditionRule => ADDITION_RULES.find((r) => r.garment === g)!;

describe('additionsFor', () => {
  it('adds nothing for an offset of 0, for someone who runs warm, or when the feels-like is unknown', () => {
    expect(additionsFor(12, 0, [])).toEqual([]);
    expect(additionsFor(-5, 0, [])).toEqual([]);
    expect(additionsFor(12, 3, [])).toEqual([]);
    expect(additionsFor(null, -3, [])).toEqual([]);
    expect(additionsFor(Number.NaN, -3, [])).toEqual([]);
  });

  it('at 12 °C feels-like, −3 °C brings the cold threshold (10 °C) forward: scarf and warm hat, not gloves', () => {
    // 12 − 3 = 9 °C: below coldC (10) for scarf and hat; gloves wait for 6 °C, the coat for 2 °C.
    expect(additionsFor(12, -3, ['jacket'])).toEqual(['scarf', 'warm-hat']);
    expect(rule('gloves').belowC).toBeLessThanOrEqual(9);
    expect(rule('scarf').belowC).toBe(WEATHER_THRESHOLDS.coldC);
  });

  it('never removes: a garment the outfit has is not added, and what the real feels-like demands is left to the service', () => {
    // The outfit has the scarf: only the hat is added.
    expect(additionsFor(12, -3, ['jacket', 'scarf'])).toEqual(['warm-hat']);
    // At 12 °C the rules ask a sweater already: the service chose without one, and the offset does not overrule it.
    expect(additionsFor(12, -3, ['jacket'])).not.toContain('sweater');
    // A coat covers the sweater and the jacket.
    expect(additionsFor(17, -5, ['coat'])).toEqual([]);
    expect(additionsFor(17, -5, ['tshirt'])).toEqual(['sweater', 'jacket']);
  });

  it('runs cold far enough and everything the cold asks comes, warmest first', () => {
    // 14 − 6 = 8 °C: the jacket (13 °C) and the cold's scarf and hat; gloves wait for 6 °C.
    expect(additionsFor(14, -6, [])).toEqual(['jacket', 'scarf', 'warm-hat']);
    expect(additionsFor(9, -6, ['coat'])).toEqual(['gloves']);
    expect(additionsFor(5, -6, [])).toEqual(['coat']);
  });
});

describe('votes, clamp and fade', () => {
  it('a vote moves one step toward the felt side: too cold lowers the offset, too warm raises it', () => {
    expect(voted(0, 'too_cold')).toBe(-WARMTH.stepC);
    expect(voted(0, 'too_warm')).toBe(WARMTH.stepC);
    expect(voted(-2, 'too_warm')).toBe(-2 + WARMTH.stepC);
  });

  it('clamps at ±WARMTH.maxC and rounds to tenths', () => {
    expect(voted(-WARMTH.maxC, 'too_cold')).toBe(-WARMTH.maxC);
    expect(voted(WARMTH.maxC, 'too_warm')).toBe(WARMTH.maxC);
    expect(clampOffset(-40)).toBe(-WARMTH.maxC);
    expect(clampOffset(2.345)).toBe(2.3);
    expect(Object.is(clampOffset(-0.01), 0)).toBe(true);
  });

  it('fades toward 0: half in WARMTH.halfLifeDays, nothing before any time passed, never past 0', () => {
    expect(faded(-4, 0)).toBe(-4);
    expect(faded(-4, -DAY)).toBe(-4);
    expect(faded(-4, WARMTH.halfLifeDays * DAY)).toBe(-2);
    expect(faded(4, 2 * WARMTH.halfLifeDays * DAY)).toBe(1);
    expect(faded(-4, 3650 * DAY)).toBe(0);
  });
});
