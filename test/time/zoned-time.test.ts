import { describe, expect, it } from 'vitest';
import { isoWithOffset } from '../../src/time/zoned-time.js';

/** The timestamps every JSON the daemon writes carries (time/zoned-time.ts), held to Intl's own longOffset. */
describe('isoWithOffset', () => {
  it('writes the instant as Intl does, with seconds only where an offset has them', () => {
    const intlIso = (d: Date, zone: string): string => {
      const parts: Record<string, string> = {};
      const f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        timeZoneName: 'longOffset',
      });
      for (const p of f.formatToParts(d)) parts[p.type] = p.value;
      const gmt = parts.timeZoneName!;
      return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${String(d.getUTCMilliseconds()).padStart(3, '0')}${gmt === 'GMT' ? '+00:00' : gmt.slice(3)}`;
    };
    const cases: Array<[string, number]> = [
      ['Asia/Kolkata', Date.UTC(2026, 10, 27, 21, 5, 9, 7)],
      ['America/St_Johns', Date.UTC(2026, 6, 1, 2, 30)],
      ['Pacific/Chatham', Date.UTC(2026, 0, 1)],
      ['Australia/Lord_Howe', Date.UTC(2026, 9, 3, 15, 45)],
      ['America/Santiago', Date.UTC(2026, 8, 6, 4, 0, 1)],
      ['Europe/Amsterdam', Date.UTC(1930, 5, 1, 12)],
      ['UTC', Date.UTC(2026, 1, 28, 23, 59, 59, 999)],
      ['America/Los_Angeles', Date.UTC(2026, 2, 8, 10, 0, 0)],
    ];
    for (const [zone, t] of cases) expect(isoWithOffset(new Date(t), zone)).toBe(intlIso(new Date(t), zone));
  });
});
