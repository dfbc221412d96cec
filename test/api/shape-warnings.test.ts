import { describe, expect, it } from 'vitest';
import {
  ShapeWarnings,
  W_RESPONSE_SHAPE,
  W_RESPONSE_TRIMMED,
  type ShapeWarning,
} from '../../src/api/shape-warnings.js';
import type { ShapeNote } from '../../src/api/schemas.js';
import { manualClock } from '../helpers/fake-clock.js';

const TEMP: ShapeNote = { field: 'weather.temp', problem: 'missing', detail: 'missing' };
const MODEL: ShapeNote = { field: 'model', problem: 'missing', detail: 'missing' };

function warnings(timezone?: string): {
  sw: ShapeWarnings;
  said: ShapeWarning[];
  clock: ReturnType<typeof manualClock>;
} {
  const said: ShapeWarning[] = [];
  const clock = manualClock(Date.parse('2026-11-21T07:00:00.000Z'));
  const sw = new ShapeWarnings({
    warn: (w) => said.push(w),
    clock,
    ...(timezone ? { timezone } : {}),
  });
  return { sw, said, clock };
}

describe('W_RESPONSE_SHAPE warnings', () => {
  it('name the field, at most once per field per day, whatever the cycles in between', () => {
    const { sw, said, clock } = warnings();
    for (let cycle = 0; cycle < 96; cycle++) {
      // every 15 minutes for 24 hours: the day changes once, at midnight UTC
      sw.note([TEMP], 'POST /recweather');
      clock.advance(15 * 60_000);
    }
    sw.note([TEMP, MODEL], 'POST /recommend');
    expect(said.map((w) => [w.code, w.field])).toEqual([
      [W_RESPONSE_SHAPE, 'weather.temp'],
      [W_RESPONSE_SHAPE, 'weather.temp'],
      [W_RESPONSE_SHAPE, 'model'],
    ]);
    expect(said[0]?.text.startsWith('W_RESPONSE_SHAPE: POST /recweather: response field weather.temp')).toBe(true);
  });

  it('count days in the configured time zone', () => {
    const { sw, said, clock } = warnings('Pacific/Auckland');
    clock.set(Date.parse('2026-11-21T10:30:00.000Z')); // 23:30 in Auckland
    sw.note([TEMP], 'GET /weather');
    clock.advance(20 * 60_000); // 23:50
    sw.note([TEMP], 'GET /weather');
    clock.advance(20 * 60_000); // 00:10 the next day there, still the same UTC day
    sw.note([TEMP], 'GET /weather');
    expect(said).toHaveLength(2);
  });

  it('a field cut or dropped for the limits is W_RESPONSE_TRIMMED; one also off the spec is said once as each', () => {
    const { sw, said } = warnings();
    const cut: ShapeNote = { field: 'model', problem: 'too_long', detail: '900 characters, over the 200 kept' };
    sw.note([MODEL, cut, { field: 'notes', problem: 'too_large', detail: 'over 16 KiB' }], 'POST /recweather');
    sw.note([MODEL, cut], 'POST /recweather');
    expect(said.map((w) => [w.code, w.field])).toEqual([
      [W_RESPONSE_SHAPE, 'model'],
      [W_RESPONSE_TRIMMED, 'model'],
      [W_RESPONSE_TRIMMED, 'notes'],
    ]);
    expect(said[1]?.text).toBe(
      'W_RESPONSE_TRIMMED: POST /recweather: response field model: 900 characters, over the 200 kept; cut',
    );
    expect(said[2]?.text.endsWith('; dropped')).toBe(true);
  });
});
