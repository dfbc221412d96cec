import { afterEach, describe, expect, it } from 'vitest';
import { buildZoneTable, dropZoneTable, tableOffset, useZoneTable, type ZoneTable } from '../../src/time/zone-table.js';
import { dayKey, isoWithOffset, localParts, offsetAt, startOfDay } from '../../src/time/zoned-time.js';
import { intlOffset } from '../helpers/intl-offset.js';

/**
 * The daemon reads its zone's offsets from a table made by Intl (time/zone-table.ts). Held here to Intl itself, in
 * every zone Intl knows: the same offset at every change, a second either side of it, and between.
 */

const DAY = 86_400_000;

/** The instants a table is checked at: each change, a second either side, and every 61 h 7 min between. */
function checkpoints(table: ZoneTable): number[] {
  const ts: number[] = [];
  for (let t = table.from; t < table.to; t += 61 * 3_600_000 + 7 * 60_000) ts.push(t);
  for (const [at] of table.changes) ts.push(at - 1000, at, at + 1000);
  return ts;
}

/** The instants at which a table disagrees with Intl (at most 3 of them, to read). */
function disagreements(table: ZoneTable, intl: (t: number) => number): string[] {
  const wrong: string[] = [];
  for (const t of checkpoints(table)) {
    const o = tableOffset(t, table.zone);
    if (o !== intl(t) && wrong.length < 3) wrong.push(`${table.zone} ${new Date(t).toISOString()}: ${o} against Intl's ${intl(t)}`);
  }
  return wrong;
}

const used: string[] = [];
function use(table: ZoneTable): void {
  useZoneTable(table);
  used.push(table.zone);
}
afterEach(() => {
  for (const z of used.splice(0)) dropZoneTable(z);
});

describe('a zone table agrees with Intl', () => {
  it('in every zone Intl knows, and in aliases, over 2026 to 2030', () => {
    const zones = [...Intl.supportedValuesOf('timeZone'), 'Asia/Kolkata', 'Europe/Kyiv', 'US/Eastern', 'Etc/GMT+5', 'America/Argentina/Buenos_Aires'];
    const wrong: string[] = [];
    let changes = 0;
    for (const zone of zones) {
      const intl = intlOffset(zone);
      const table = buildZoneTable(zone, Date.UTC(2026, 0, 1), Date.UTC(2030, 0, 1), intl);
      use(table);
      changes += table.changes.length;
      wrong.push(...disagreements(table, intl));
    }
    expect(wrong).toEqual([]);
    // Most of the world changes twice a year or never; the check is not empty.
    expect(changes).toBeGreaterThan(500);
  });

  it.each([
    // Two weeks of summer time (Fortaleza, 2000); a change and its return within two weeks (Tucumán, 2004): the
    // shortest stretches in the data's past, each found to the second. And a week out of summer time around Ramadan
    // (Gaza, 2040): a prediction, so as many changes as this Node's ICU data holds (a week apart in 2025c and 2026c).
    ['America/Fortaleza', 2000, 2],
    ['America/Argentina/Tucuman', 2004, 2],
    ['Asia/Gaza', 2040, 0],
  ])('%s in %i: its short stretches too', (zone, year, atLeast) => {
    const intl = intlOffset(zone);
    const table = buildZoneTable(zone, Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1), intl);
    use(table);
    expect(table.changes.length).toBeGreaterThanOrEqual(atLeast);
    expect(disagreements(table, intl)).toEqual([]);
    // Each change is the first second of its offset.
    for (const [at, offset] of table.changes) {
      expect(intl(at)).toBe(offset);
      expect(intl(at - 1000)).not.toBe(offset);
    }
  });
});

describe('zoned-time reads the table where it has one', () => {
  const FROM = Date.UTC(2026, 0, 1);
  const TO = Date.UTC(2027, 0, 1);

  it('local parts, days and timestamps come from the table, without an Intl formatter', () => {
    // A zone Intl does not know: only the table can answer for it.
    use({ zone: 'Test/Half_Hour', from: FROM, to: TO, offset: 5.5 * 3_600_000, changes: [[Date.UTC(2026, 5, 1), -3.5 * 3_600_000]] });
    const made: unknown[] = [];
    const Original = Intl.DateTimeFormat;
    Intl.DateTimeFormat = new Proxy(Original, { construct: (target, args: unknown[]) => (made.push(args), new target(...(args as []))) });
    try {
      expect(localParts(Date.UTC(2026, 2, 1, 20, 0, 7), 'Test/Half_Hour')).toEqual({ year: 2026, month: 3, day: 2, hour: 1, minute: 30, second: 7, weekday: 1 });
      expect(isoWithOffset(new Date(Date.UTC(2026, 5, 1, 2, 0, 0, 45)), 'Test/Half_Hour')).toBe('2026-05-31T22:30:00.045-03:30');
      expect(dayKey(Date.UTC(2026, 4, 31, 20), 'Test/Half_Hour')).toBe('2026-06-01');
      expect(startOfDay({ year: 2026, month: 7, day: 4 }, 'Test/Half_Hour')).toBe(Date.UTC(2026, 6, 4, 3, 30));
    } finally {
      Intl.DateTimeFormat = Original;
    }
    expect(made).toEqual([]);
  });

  it('outside its span, and for another zone, Intl answers', () => {
    use({ zone: 'Europe/Berlin', from: FROM, to: TO, offset: 0, changes: [] });
    // A deliberately wrong table (UTC's offsets): within its span it is read, outside it Intl's CET is.
    expect(offsetAt(Date.UTC(2026, 0, 15), 'Europe/Berlin')).toBe(0);
    expect(offsetAt(Date.UTC(2027, 0, 15), 'Europe/Berlin')).toBe(3_600_000);
    expect(offsetAt(Date.UTC(2025, 11, 31, 23), 'Europe/Berlin')).toBe(3_600_000);
    expect(offsetAt(Date.UTC(2026, 0, 15), 'Europe/Paris')).toBe(3_600_000);
  });

  it('UTC needs neither', () => {
    expect(tableOffset(123_456_789, 'UTC')).toBe(0);
    expect(tableOffset(123_456_789, 'Etc/UTC')).toBe(0);
    expect(tableOffset(123_456_789, 'Europe/London')).toBeNull();
  });

  it('writes timestamps as Intl wrote them, with seconds only where an offset has them', () => {
    /** How isoWithOffset was written before the tables: Intl's longOffset. */
    const intlIso = (d: Date, zone: string): string => {
      const parts: Record<string, string> = {};
      const f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'longOffset' });
      for (const p of f.formatToParts(d)) parts[p.type] = p.value;
      const gmt = parts.timeZoneName!;
      return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${String(d.getUTCMilliseconds()).padStart(3, '0')}${gmt === 'GMT' ? '+00:00' : gmt.slice(3)}`;
    };
    const cases: Array<[string, number]> = [
      ['Asia/Kolkata', Date.UTC(2026, 10, 27, 21, 5, 9, 7)],
      ['America/St_Johns', Date.UTC(2026, 6, 1, 2, 30)],
      ['Pacific/Chatham', Date.UTC(2026, 0, 1)],
      ['Europe/Amsterdam', Date.UTC(1930, 5, 1, 12)],
      ['UTC', Date.UTC(2026, 1, 28, 23, 59, 59, 999)],
      ['America/Los_Angeles', Date.UTC(2026, 2, 8, 10, 0, 0)],
    ];
    for (const [zone, t] of cases) {
      const want = intlIso(new Date(t), zone);
      expect(isoWithOffset(new Date(t), zone)).toBe(want);
      use(buildZoneTable(zone, t - 400 * DAY, t + 400 * DAY, intlOffset(zone)));
      expect(isoWithOffset(new Date(t), zone)).toBe(want);
    }
  });
});
