import { describe, expect, it } from 'vitest';
import { lastDepartureAtOrBefore, nextDeparture, parseDeparture } from '../../src/time/departures.js';

const TZ = 'Europe/Berlin';

describe('departures', () => {
  const work = parseDeparture('1-5 07:40');
  const weekend = parseDeparture('6,0 10:00');

  it('reads weekday ranges, lists, 7 as Sunday and a time alone as every day', () => {
    expect([...work.weekdays].sort()).toEqual([1, 2, 3, 4, 5]);
    expect([...weekend.weekdays].sort()).toEqual([0, 6]);
    expect([...parseDeparture('5-7 08:00').weekdays].sort()).toEqual([0, 5, 6]);
    expect(parseDeparture('07:40').weekdays.size).toBe(7);
    expect(work.minuteOfDay).toBe(7 * 60 + 40);
    expect(() => parseDeparture('mon 07:40')).toThrow(/must look like "1-5 07:40".*"mon 07:40"/);
    expect(() => parseDeparture('5-1 07:40')).toThrow(/runs backwards/);
  });

  it('finds the next departure in the zone: a Friday evening leads to Saturday 10:00, then Monday 07:40', () => {
    // 2026-01-16 is a Friday; Berlin is UTC+1 in January.
    const fridayEvening = Date.UTC(2026, 0, 16, 18, 0);
    expect(nextDeparture([work, weekend], fridayEvening, TZ)).toBe(Date.UTC(2026, 0, 17, 9, 0));
    expect(nextDeparture([work], fridayEvening, TZ)).toBe(Date.UTC(2026, 0, 19, 6, 40));
    // Strictly after: at the departure itself, the next one.
    expect(nextDeparture([work], Date.UTC(2026, 0, 19, 6, 40), TZ)).toBe(Date.UTC(2026, 0, 20, 6, 40));
    expect(nextDeparture([], fridayEvening, TZ)).toBeNull();
  });

  it('keeps local time across daylight saving (07:40 CEST after the spring change)', () => {
    // Sunday 2026-03-29 the clocks go forward; Monday 07:40 is 05:40 UTC.
    expect(nextDeparture([work], Date.UTC(2026, 2, 27, 12, 0), TZ)).toBe(Date.UTC(2026, 2, 30, 5, 40));
  });

  it('finds the last departure in a span', () => {
    const monday = Date.UTC(2026, 0, 19, 12, 0);
    expect(lastDepartureAtOrBefore([work], monday, monday - 86_400_000, TZ)).toBe(Date.UTC(2026, 0, 19, 6, 40));
    expect(lastDepartureAtOrBefore([work], monday, Date.UTC(2026, 0, 19, 7, 0), TZ)).toBeNull();
  });
});
