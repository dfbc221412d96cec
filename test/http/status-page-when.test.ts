import { describe, expect, it } from 'vitest';
import { formatWhen } from '../../src/http/status-page-model.js';

/** The status page's and /healthz's times, written without Intl (http/status-page-model.ts): as Intl's en-GB writes them. */
describe('the status page writes a time as en-GB does', () => {
  it.each(['Europe/Berlin', 'America/St_Johns', 'Asia/Kolkata', 'UTC'])('in %s, in every month and at both ends of a day', (zone) => {
    const intl = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    const now = Date.UTC(2026, 5, 15);
    for (let m = 0; m < 12; m++) {
      for (const t of [Date.UTC(2026, m, 1 + 2 * m, 0, 5), Date.UTC(2026, m, 2 + 2 * m, 23, 59, 59)]) {
        expect(formatWhen(new Date(t), zone, now)?.replace(/ \(.*\)$/, '')).toBe(intl.format(t));
      }
    }
  });

  it('says how far off the time is, and nothing for no time or an invalid one', () => {
    const now = Date.UTC(2026, 0, 31, 7);
    expect(formatWhen(new Date(now + 25 * 60_000), 'Europe/Berlin', now)).toBe('Sat 31 Jan, 08:25 (in 25 min)');
    expect(formatWhen('2026-01-31T04:10:00Z', 'Europe/Berlin', now)).toBe('Sat 31 Jan, 05:10 (2 h 50 min ago)');
    expect(formatWhen(null, 'Europe/Berlin', now)).toBeNull();
    expect(formatWhen('not a date', 'Europe/Berlin', now)).toBeNull();
  });
});
