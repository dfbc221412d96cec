import { describe, expect, it } from 'vitest';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { layoutFrame, type FrameInput } from '../../src/render/frame.js';
import { frameContent } from '../../src/render/layout/content.js';
import { calendarDaysBetween, MAX_DAYS_SHOWN, outfitAge } from '../../src/render/layout/outfit-age.js';
import type { InkBox } from '../../src/render/text/ink-box.js';
import type { Box } from '../../src/render/draw/box.js';
import { listPanelIds, loadPanel, ppiOf } from '../../src/panels/panels.js';
import { capArcMinutes } from '../../src/render/draw/type-scale.js';
import { plural, pluralForms } from '../../src/i18n/plural.js';
import { BUILT_IN_LOCALES, ENGLISH, localeFor } from '../../src/i18n/locale.js';
import { NORMAL } from '../fixtures/samples.js';

/**
 * Old looks old: an outfit past the day it was made for is headed by its age in days, in words,
 * its weather framed as old with it; past MAX_DAYS_SHOWN days it is withdrawn. Times in Berlin (UTC+1 in winter).
 */

const TZ = 'Europe/Berlin';
/** Saturday 31 Jan 2026, 10:45 in Berlin. */
const SAT = new Date('2026-01-31T09:45:00.000Z');
const made = (iso: string): StoredRecommendation => ({ ...NORMAL, fetched_at: iso, generated_at: iso });
const unreachable: FrameInput['status'] = {
  kind: 'unreachable',
  since: new Date('2026-01-29T07:00:00Z'),
  message: 'ECONNREFUSED',
  retryAt: new Date('2026-01-31T10:00:00Z'),
};
const input = (rec: StoredRecommendation, over: Partial<FrameInput> = {}): FrameInput => ({
  rec,
  displayName: 'Hallway',
  timezone: TZ,
  now: SAT,
  status: { kind: 'ok' },
  ...over,
});

describe('the age of an outfit, by the day it was made for', () => {
  it('counts calendar days in the display’s zone, not 24-hour spans', () => {
    // 23:50 Friday in Berlin to 00:10 Saturday: 20 minutes, one day.
    expect(calendarDaysBetween(new Date('2026-01-30T22:50:00Z'), new Date('2026-01-30T23:10:00Z'), TZ)).toBe(1);
    // 00:30 to 23:30 the same Berlin day: 23 hours, the same day.
    expect(calendarDaysBetween(new Date('2026-01-30T23:30:00Z'), new Date('2026-01-31T22:30:00Z'), TZ)).toBe(0);
    // Across the spring change (29 March 2026, a 23-hour day): still whole days.
    expect(calendarDaysBetween(new Date('2026-03-28T11:00:00Z'), new Date('2026-03-30T10:00:00Z'), TZ)).toBe(2);
    // The zone decides: 23:30 UTC is Saturday in Berlin, Friday in New York.
    expect(calendarDaysBetween(new Date('2026-01-30T23:30:00Z'), SAT, 'America/New_York')).toBe(1);
  });

  it('is current, stale (hours), an earlier day, or withdrawn', () => {
    const age = (iso: string | null, stale = false) =>
      outfitAge({ made: iso === null ? null : new Date(iso), now: SAT, timeZone: TZ, stale });
    expect(age('2026-01-31T06:30:00Z')).toEqual({ kind: 'current' });
    expect(age('2026-01-31T06:30:00Z', true)).toEqual({ kind: 'stale', ms: 3.25 * 3_600_000 });
    expect(age('2026-01-30T22:00:00Z')).toEqual({ kind: 'past_day', days: 1 });
    expect(age('2026-01-29T06:30:00Z', true)).toEqual({ kind: 'past_day', days: 2 });
    expect(MAX_DAYS_SHOWN).toBe(2);
    expect(age('2026-01-28T12:00:00Z')).toEqual({ kind: 'withdrawn', days: 3 });
    expect(age('2026-01-27T06:30:00Z', true)).toEqual({ kind: 'withdrawn', days: 4 });
    // No age can be told: the schedule's word only.
    expect(age(null, true)).toEqual({ kind: 'stale', ms: null });
    expect(age('2026-02-03T00:00:00Z')).toEqual({ kind: 'current' });
  });
});

describe('plural forms', () => {
  it('picks the form of the language’s plural category, with a fallback to "other"', () => {
    const t = 'one: {n} dnia | few: {n} dni | many: {n} dni | other: {n} dnia';
    expect([1, 2, 4, 5, 12, 22, 25].map((n) => plural(t, n, 'pl-PL'))).toEqual([
      '1 dnia',
      '2 dni',
      '4 dni',
      '5 dni',
      '12 dni',
      '22 dni',
      '25 dni',
    ]);
    expect(plural('one: {n} day | other: {n} days', 1, 'en-GB')).toBe('1 day');
    expect(plural('one: {n} day | other: {n} days', 3, 'en-GB')).toBe('3 days');
    // French counts 0 and 1 as "one"; a category the template lacks falls back to "other".
    expect(plural('one: {n} jour | other: {n} jours', 0, 'fr-FR')).toBe('0 jour');
    expect(plural('other: {n} x', 1, 'en-GB')).toBe('1 x');
    // A template without forms (a user's file) is one form for all.
    expect(plural('{n} d', 2, 'en-GB')).toBe('2 d');
    expect(pluralForms('Outfit from {n} days ago')).toBeNull();
  });

  it.each(BUILT_IN_LOCALES)('%s writes the plural labels with the forms its language needs', (code) => {
    const locale = localeFor(code);
    const needed = new Set([1, 2, 3, 4, 5, 11, 21, 22, 25].map((n) => new Intl.PluralRules(locale.tag).select(n)));
    for (const key of ['outfit_days_ago', 'last_outfit_days_ago'] as const) {
      const forms = pluralForms(locale.labels[key]);
      expect(forms, `${code} ${key}`).not.toBeNull();
      for (const category of needed)
        expect(forms![category] ?? forms!.other, `${code} ${key} ${category}`).toBeDefined();
      for (const form of Object.values(forms!)) expect(form, `${code} ${key}`).toContain('{n}');
    }
  });
});

describe('the words of an old outfit', () => {
  it('heads an earlier day’s outfit by its age in days in every language, never a weekday', () => {
    const expected: Record<string, [string, string]> = {
      en: ["Yesterday's outfit", 'Outfit from 2 days ago'],
      'en-US': ["Yesterday's outfit", 'Outfit from 2 days ago'],
      de: ['Outfit von gestern', 'Outfit von vor 2 Tagen'],
      fr: ['Tenue d’hier', 'Tenue d’il y a 2 jours'],
      es: ['Atuendo de ayer', 'Atuendo de hace 2 días'],
      it: ['Outfit di ieri', 'Outfit di 2 giorni fa'],
      nl: ['Outfit van gisteren', 'Outfit van 2 dagen geleden'],
      pl: ['Wczorajszy strój', 'Strój sprzed 2 dni'],
      sv: ['Gårdagens outfit', 'Outfit från för 2 dagar sedan'],
    };
    expect(Object.keys(expected).sort()).toEqual([...BUILT_IN_LOCALES].sort());
    for (const code of BUILT_IN_LOCALES) {
      const locale = localeFor(code);
      const yesterday = frameContent(input(made('2026-01-30T17:00:00Z'), { locale }));
      const twoDays = frameContent(input(made('2026-01-29T06:30:00Z'), { locale, stale: true, status: unreachable }));
      expect([yesterday.headline, twoDays.headline], code).toEqual(expected[code]);
      for (const c of [yesterday, twoDays]) {
        expect(c, code).toMatchObject({ old: true, ageBadge: null, updated: null });
        expect(c.outfit, code).not.toBeNull();
      }
    }
  });

  it('keeps the hour badge on the outfit’s own day, and no headline', () => {
    const c = frameContent(input(made('2026-01-31T06:30:00Z'), { stale: true }));
    expect(c).toMatchObject({ ageBadge: '3 h old', headline: null, old: true, updated: '07:30' });
    expect(frameContent(input(made('2026-01-31T06:30:00Z')))).toMatchObject({
      ageBadge: null,
      headline: null,
      old: false,
    });
  });

  it('withdraws an outfit more than two days past its day: no garments, no weather, the age and the reason in words', () => {
    const c = frameContent(input(made('2026-01-27T06:30:00Z'), { stale: true, status: unreachable }));
    expect(c).toMatchObject({
      outfit: null,
      weather: null,
      garments: [],
      row: [],
      readings: [],
      alerts: [],
      headline: null,
      old: false,
    });
    expect(c.status).toMatchObject({ kind: 'withdrawn', title: 'No current outfit', mark: 'offline' });
    expect(c.status!.detail).toBe(
      'last one from 4 days ago · No connection to the outfit service · trying again at 11:00',
    );
    // Without a failure (a schedule with no slot for days), the age alone; never a weekday.
    const quiet = frameContent(input(made('2026-01-28T06:30:00Z')));
    expect(quiet.status).toMatchObject({
      kind: 'withdrawn',
      title: 'No current outfit',
      detail: 'last one from 3 days ago',
    });
    expect(frameContent(input(made('2026-01-28T06:30:00Z'), { locale: localeFor('pl') })).status?.detail).toBe(
      'ostatni jest sprzed 3 dni',
    );
    expect(frameContent(input(made('2026-01-26T06:30:00Z'), { locale: localeFor('pl') })).status?.detail).toBe(
      'ostatni jest sprzed 5 dni',
    );
    expect(ENGLISH.code).toBe('en');
  });
});

const inside = (ink: InkBox, boxes: readonly Box[]): boolean =>
  boxes.some((b) => ink.x >= b.x && ink.right <= b.x + b.w && ink.top >= b.y && ink.bottom <= b.y + b.h);

describe('an old outfit on every panel', () => {
  const panels = listPanelIds();
  it.each(panels)(
    '%s: the headline at the outfit’s arc (or beside the garments, at the alerts’), whole; the weather and readings inside the old frame',
    (id) => {
      const panel = loadPanel(id);
      const smaller: string[] = [];
      for (const rotation of [0, 90] as const) {
        for (const [rec, headline] of [
          [made('2026-01-30T06:30:00Z'), "Yesterday's outfit"],
          [made('2026-01-29T06:30:00Z'), 'Outfit from 2 days ago'],
        ] as const) {
          const where = `${id} at ${rotation}°: ${headline}`;
          const { report } = layoutFrame(input(rec, { stale: true, status: unreachable }), panel, { rotation });
          expect(report.headline?.lines.join(' '), where).toBe(headline);
          const distance = report.layout === 'small' ? 500 : 2000;
          // A wall panel's headline as large as its outfit (10′); a small panel's down to 11 px for a long language.
          // Where the outfit would not be whole below it, a wall panel sets it beside the garments, at the alerts' size
          // (the readings' at least).
          const arc = capArcMinutes(report.headline!.size, ppiOf(panel), distance);
          if (report.layout !== 'small' && arc < 10) {
            smaller.push(where);
            expect(report.headline!.size, where).toBeGreaterThanOrEqual(report.sizes.reading!);
          } else expect(arc, where).toBeGreaterThanOrEqual(report.layout === 'small' ? 9 : 10);
          expect(report.markedOld, where).toBe(true);
          expect(report.badge, where).toBeNull();
          // Never a weekday or a date the reader must work out.
          expect(report.texts.join(' '), where).not.toMatch(/\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b|since/);
          // The temperature's number and unit are inked apart.
          const values = ['10%', '14 km/h', 'UV 1', '71%', '4', '°C'];
          for (const v of values) {
            const ink = report.inks.find((i) => i.text === v);
            expect(ink, `${where}: ${v} drawn`).toBeDefined();
            expect(inside(ink!, report.oldMarks), `${where}: ${v} inside the old frame`).toBe(true);
          }
          const head = report.inks.find((i) => i.text === report.headline!.lines[0]);
          expect(inside(head!, report.oldMarks), `${where}: the headline inside the old frame`).toBe(true);
        }
      }
      // Where the outfit is not whole below it at full size: the 800x480 panels under the longer headline ("Outfit
      // from 2 days ago" beside the garments at its full size leaves them too little width), the 7.3" ones upright
      // too, the Kindle upright under it and sideways under either.
      const across = ['waveshare-7in5-v2', 'waveshare-7in5-b', 'trmnl', 'trmnl-4grey'];
      const twoDays = (rotations: number[]): string[] => rotations.map((r) => `${id} at ${r}°: Outfit from 2 days ago`);
      const expected: Record<string, string[]> = {
        ...Object.fromEntries(across.map((a) => [a, [`${a} at 0°: Outfit from 2 days ago`]])),
        'waveshare-7in3-f': twoDays([0, 90]),
        'inky-impression-7in3': twoDays([0, 90]),
        'kindle-paperwhite': [
          'kindle-paperwhite at 0°: Outfit from 2 days ago',
          "kindle-paperwhite at 90°: Yesterday's outfit",
          'kindle-paperwhite at 90°: Outfit from 2 days ago',
        ],
      };
      expect(smaller, id).toEqual(expected[id] ?? []);
    },
  );

  it.each(panels)('%s: an outfit too old to show gives way to "No current outfit", with no garments', (id) => {
    const panel = loadPanel(id);
    const { report } = layoutFrame(input(made('2026-01-27T06:30:00Z'), { stale: true, status: unreachable }), panel, {
      rotation: 0,
    });
    expect(report.layout).toBe('error');
    expect(report.pictograms).toEqual([]);
    const all = report.texts.join(' ').replace(/\s+/g, ' ');
    expect(all).toContain('No current outfit');
    expect(all).toContain('last one from 4 days ago');
    expect(all).not.toContain('Wear a warm');
  });
});
