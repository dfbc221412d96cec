import { afterEach, describe, expect, it } from 'vitest';
import {
  dayMonthText,
  dayText,
  decimalText,
  dropIntlWords,
  intlFormat,
  numberFormat,
  numberText,
  recordIntlWords,
  timeText,
  useIntlWords,
  weekdayText,
  type IntlFormatKind,
  type IntlWords,
} from '../../src/render/layout/intl-words.js';
import { buildZoneTable, dropZoneTable, useZoneTable } from '../../src/time/zone-table.js';
import { intlOffset } from '../helpers/intl-offset.js';

/**
 * A record of Intl's words (render/layout/intl-words.ts), read instead of Intl where a process has one, must write
 * what Intl writes: held here to Intl in the project's locales and others with other calendars (Persian, Buddhist,
 * Islamic, Japanese), clocks (12-hour, day periods before the hour), scripts and decimal signs, in zones with odd
 * offsets, at every minute of a day and across the record's span.
 */

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 28, 9, 30);
const FROM_DAY = Math.floor(NOW / DAY) - 400;
const COUNT = 801;

const TAGS = [
  // The project's own locales (src/i18n/locales).
  'en', 'en-US', 'de', 'es', 'fr', 'it', 'nl', 'pl', 'sv',
  // Others a locale file may name.
  'en-GB', 'pt-BR', 'ca', 'fi', 'da', 'nb', 'cs', 'ru', 'uk', 'el', 'tr', 'hu', 'ja', 'ko', 'zh-CN', 'zh-TW', 'hi-IN',
  'he-IL', 'ar-EG', 'ar-SA', 'fa-IR', 'th-TH', 'bn', 'my', 'ja-JP-u-ca-japanese', 'en-u-ca-hebrew', 'de-u-hc-h12',
];
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns', 'Asia/Kathmandu'];

/** A few hundred instants: every 37 minutes over three days, seeded random ones over the span, and the DST changes. */
function instants(zone: string): number[] {
  const ts: number[] = [];
  for (let t = NOW - DAY; t < NOW + 2 * DAY; t += 37 * 60_000) ts.push(t);
  let seed = 12345;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 120; i++) ts.push(Math.floor((FROM_DAY + rnd() * COUNT) * DAY));
  const table = buildZoneTable(zone, (FROM_DAY + 1) * DAY, (FROM_DAY + COUNT - 1) * DAY, intlOffset(zone));
  for (const [at] of table.changes) ts.push(at - 1000, at, at + 1000, at + 30 * 60_000);
  return ts;
}

const recorded = new Map<string, IntlWords>();
function record(tag: string): IntlWords {
  let w = recorded.get(tag);
  if (!w) {
    const made = recordIntlWords(tag, FROM_DAY, COUNT);
    if (!made) throw new Error(`no record of ${tag}`);
    recorded.set(tag, made);
    w = made;
  }
  return w;
}

afterEach(() => {
  for (const tag of TAGS) dropIntlWords(tag);
  for (const zone of ZONES) dropZoneTable(zone);
});

/** Where the record's words differ from Intl's for `tag` in `zone` (at most 3, to read). */
function disagreements(tag: string, zone: string): string[] {
  const f = (kind: IntlFormatKind): Intl.DateTimeFormat => intlFormat(tag, zone, kind);
  const wrong: string[] = [];
  for (const t of instants(zone)) {
    const pairs: Array<[string, string, string]> = [
      ['time', timeText(t, zone, tag), f('time').format(t)],
      ['day', dayText(t, zone, tag), f('day').format(t)],
      ['dayMonth', dayMonthText(t, zone, tag), f('dayMonth').format(t)],
      ['weekday', weekdayText(t, zone, tag), f('weekday').format(t)],
    ];
    for (const [what, ours, intl] of pairs) {
      if (ours !== intl && wrong.length < 3) wrong.push(`${tag} ${zone} ${new Date(t).toISOString()} ${what}: "${ours}" against Intl's "${intl}"`);
    }
  }
  return wrong;
}

describe('a record of Intl’s words', () => {
  it('writes what Intl writes, in every locale and zone here, at each minute of a day and across its span', () => {
    const wrong: string[] = [];
    for (const tag of TAGS) {
      useIntlWords(record(tag));
      for (const zone of ZONES) wrong.push(...disagreements(tag, zone));
    }
    expect(wrong).toEqual([]);
  });

  it('writes what Intl writes with the zone read from its table too (as a process that kept both)', () => {
    const wrong: string[] = [];
    for (const zone of ZONES.filter((z) => z !== 'UTC')) {
      useZoneTable(buildZoneTable(zone, (FROM_DAY - 1) * DAY, (FROM_DAY + COUNT + 1) * DAY, intlOffset(zone)));
    }
    for (const tag of ['en', 'de', 'fa-IR', 'zh-TW', 'ar-SA']) {
      useIntlWords(record(tag));
      for (const zone of ZONES) wrong.push(...disagreements(tag, zone));
    }
    expect(wrong).toEqual([]);
  });

  it('is read where it holds the day, and Intl answers outside its span', () => {
    const real = record('de');
    const marked: IntlWords = {
      ...real,
      times: real.times.map(() => 'T'),
      days: real.days.map(() => 'D'),
      dayMonths: real.dayMonths.map(() => 'M'),
      weekdays: real.weekdays.map(() => 'W'),
      decimal: '#',
    };
    useIntlWords(marked);
    expect([timeText(NOW, 'Europe/Berlin', 'de'), dayText(NOW, 'Europe/Berlin', 'de'), dayMonthText(NOW, 'Europe/Berlin', 'de')]).toEqual(['T', 'D', 'M']);
    expect([weekdayText(NOW, 'Europe/Berlin', 'de'), numberText(2.5, 'de')]).toEqual(['W', '2#5']);
    const before = (FROM_DAY - 1) * DAY + DAY / 2;
    const after = (FROM_DAY + COUNT) * DAY + DAY / 2;
    const f = (kind: IntlFormatKind): Intl.DateTimeFormat => intlFormat('de', 'Europe/Berlin', kind);
    expect([dayText(before, 'Europe/Berlin', 'de'), dayMonthText(after, 'Europe/Berlin', 'de')]).toEqual([f('day').format(before), f('dayMonth').format(after)]);
    expect(dayText(before, 'Europe/Berlin', 'de')).toMatch(/^[A-Z][a-z]{1,2}\., \d{1,2}\. [A-Z][a-zä]{2,3}\.?$/);
  });

  it('is not made for a tag Intl refuses', () => {
    expect(recordIntlWords('not a tag!', FROM_DAY, 3)).toBeNull();
  });
});

describe('the decimals of a record', () => {
  /** Values that catch rounding: every tie to a tenth up to 200, seeded random ones, large ones. */
  function values(): number[] {
    const xs: number[] = [];
    for (let k = 0; k <= 4000; k++) xs.push(k / 20, k / 100, k * 1.05);
    let seed = 987;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 3000; i++) xs.push(rnd() * 1000, rnd() * 10 ** Math.floor(rnd() * 21), rnd() * 1e-5);
    xs.push(0.05, 0.15, 0.95, 9.95, 99.95, 2 ** 53, 2 ** 53 + 2, 1e20, 999_999.95, 5e-324, 1e21 - 65536);
    return xs;
  }

  it('round as Intl does (the shortest decimal, half away from zero), with the locale’s sign', () => {
    const wrong: string[] = [];
    const xs = values();
    for (const tag of TAGS) {
      const w = record(tag);
      if (w.decimal === null) continue;
      useIntlWords(w);
      const intl = numberFormat(tag);
      for (const x of xs) {
        const ours = numberText(x, tag);
        if (ours !== intl.format(x) && wrong.length < 5) wrong.push(`${tag} ${x}: "${ours}" against Intl's "${intl.format(x)}"`);
      }
    }
    expect(wrong).toEqual([]);
    // The record's sign is the locale's: a comma in German and French, a point in English.
    expect([record('de').decimal, record('fr').decimal, record('en').decimal]).toEqual([',', ',', '.']);
  });

  it('leave to Intl what they cannot write (1e21 and above, below 0, not a number)', () => {
    expect([decimalText(1e21, '.'), decimalText(-1, '.'), decimalText(Number.NaN, '.'), decimalText(Infinity, '.')]).toEqual([null, null, null, null]);
    useIntlWords(record('en'));
    expect(numberText(1e21, 'en')).toBe(numberFormat('en').format(1e21));
  });
});
