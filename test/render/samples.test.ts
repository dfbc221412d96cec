import { describe, expect, it } from 'vitest';
import { SAMPLE_CASES, sampleInput } from '../fixtures/samples.js';

/** The temperatures a text states, in whole degrees: "It is −4 °C and feels like −9 °C" → [-4, -9]. */
function statedTemperatures(text: string): number[] {
  return [...text.matchAll(/([−-]?\d+(?:\.\d+)?)\s*°\s*[CF]/g)].map((m) => Math.round(Number(m[1]!.replace('−', '-'))));
}

describe('the sample recommendations', () => {
  it.each(SAMPLE_CASES)('%s: the reasoning states the temperatures its weather has', (c) => {
    const rec = sampleInput(c).rec!;
    const w = rec.weather;
    const shown = [w.temp, w.feels_like]
      .filter((t): t is number => t !== undefined)
      .map((t) => Math.sign(t) * Math.round(Math.abs(t)));
    const wrong = statedTemperatures(rec.reasoning ?? '').filter((t) => !shown.includes(t));
    expect(wrong, `temperatures in "${rec.reasoning}" that the weather (${shown.join(', ')}) does not have`).toEqual(
      [],
    );
  });

  it.each(SAMPLE_CASES)('%s: the reasoning does not call a likely rain "low"', (c) => {
    const rec = sampleInput(c).rec!;
    const likely = (rec.weather.rain_chance_pct ?? 0) >= 50;
    expect(
      likely && /rain chance is low/.test(rec.reasoning ?? ''),
      `"${rec.reasoning}" at ${rec.weather.rain_chance_pct}%`,
    ).toBe(false);
  });
});
