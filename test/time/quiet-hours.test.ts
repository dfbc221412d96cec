import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inQuietHours, parseQuietHours, quietEnd } from '../../src/time/quiet-hours.js';

const TZ = 'Europe/Berlin';
/** A Berlin wall time in January (CET, +01:00) as an instant. */
const berlin = (iso: string): number => Date.parse(`${iso}+01:00`);

describe('quiet hours', () => {
  const night = parseQuietHours('22:30-06:30');

  it('reads a window past midnight and refuses what is not one', () => {
    expect(night).toMatchObject({ startMin: 22 * 60 + 30, endMin: 6 * 60 + 30 });
    expect(() => parseQuietHours('22:30')).toThrow(/quiet_hours must look like "22:30-06:30".*"22:30"/);
    expect(() => parseQuietHours('07:00-07:00')).toThrow(/start and end must differ/);
  });

  it('holds the night on both sides of midnight, start included and end not', () => {
    expect(inQuietHours(night, berlin('2026-01-14T22:29:59'), TZ)).toBe(false);
    expect(inQuietHours(night, berlin('2026-01-14T22:30:00'), TZ)).toBe(true);
    expect(inQuietHours(night, berlin('2026-01-15T03:00:00'), TZ)).toBe(true);
    expect(inQuietHours(night, berlin('2026-01-15T06:30:00'), TZ)).toBe(false);
    expect(inQuietHours(parseQuietHours('12:00-14:00'), berlin('2026-01-15T13:59:00'), TZ)).toBe(true);
    expect(inQuietHours(parseQuietHours('12:00-14:00'), berlin('2026-01-15T23:00:00'), TZ)).toBe(false);
  });

  it('ends the window on the right day: tomorrow when entered before midnight, today after', () => {
    expect(quietEnd(night, berlin('2026-01-14T23:00:00'), TZ)).toBe(berlin('2026-01-15T06:30:00'));
    expect(quietEnd(night, berlin('2026-01-15T01:00:00'), TZ)).toBe(berlin('2026-01-15T06:30:00'));
    expect(quietEnd(night, berlin('2026-01-15T12:00:00'), TZ)).toBeNull();
  });

  it('keeps to the wall clock across daylight saving: a night of 7 h in March, 9 h in October', () => {
    // 2026-03-29 02:00 CET → 03:00 CEST; 2026-10-25 03:00 CEST → 02:00 CET.
    const spring = quietEnd(night, Date.UTC(2026, 2, 28, 21, 30), TZ)!;
    expect(spring).toBe(Date.UTC(2026, 2, 29, 4, 30));
    const autumn = quietEnd(night, Date.UTC(2026, 9, 24, 20, 30), TZ)!;
    expect(autumn).toBe(Date.UTC(2026, 9, 25, 5, 30));
    // A window ending in the skipped hour ends with the gap: 03:00 CEST.
    expect(quietEnd(parseQuietHours('01:00-02:30'), Date.UTC(2026, 2, 29, 0, 30), TZ)).toBe(
      Date.UTC(2026, 2, 29, 1, 0),
    );
  });

  it('property: an instant in the window has an end after it, in no more than a day, and the end is not quiet', () => {
    const minute = fc.integer({ min: 0, max: 1439 });
    fc.assert(
      fc.property(
        minute,
        minute,
        fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) }),
        fc.constantFrom('Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'UTC'),
        (a, b, t, tz) => {
          fc.pre(a !== b);
          const hhmm = (m: number): string =>
            `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
          const q = parseQuietHours(`${hhmm(a)}-${hhmm(b)}`);
          const end = quietEnd(q, t, tz);
          expect(end === null).toBe(!inQuietHours(q, t, tz));
          if (end === null) return;
          expect(end).toBeGreaterThan(t);
          expect(end - t).toBeLessThanOrEqual(25 * 3_600_000);
          expect(inQuietHours(q, end, tz)).toBe(false);
          expect(inQuietHours(q, end - 60_000, tz)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
