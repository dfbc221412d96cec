import { describe, expect, it } from 'vitest';
import { formatWhen } from '../../src/http/status-page-model.js';

/** The status page's and /healthz's times (http/status-page-model.ts): Intl's en-GB in the configured zone. */
describe('the status page writes a time as en-GB does', () => {
  it('says how far off the time is, and nothing for no time or an invalid one', () => {
    const now = Date.UTC(2026, 0, 31, 7);
    expect(formatWhen(new Date(now + 25 * 60_000), 'Europe/Berlin', now)).toBe('Sat 31 Jan, 08:25 (in 25 min)');
    expect(formatWhen('2026-01-31T04:10:00Z', 'Europe/Berlin', now)).toBe('Sat 31 Jan, 05:10 (2 h 50 min ago)');
    expect(formatWhen(null, 'Europe/Berlin', now)).toBeNull();
    expect(formatWhen('not a date', 'Europe/Berlin', now)).toBeNull();
  });
});
