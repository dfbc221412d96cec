import { describe, expect, it } from 'vitest';
import { placeholders } from '../../src/i18n/labels.js';
import { BUILT_IN_LOCALES, ENGLISH, localeFor } from '../../src/i18n/locale.js';
import { frameContent } from '../../src/render/layout/content.js';
import {
  alertTexts,
  formatAge,
  formatNumber,
  formatPercent,
  formatReading,
  formatTime,
} from '../../src/render/layout/format.js';
import { renderIndices } from '../../src/render/frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { readingsOf } from '../../src/render/layout/reading-values.js';
import { NORMAL, SAMPLE_NOW, SAMPLE_TIMEZONE, sampleInput } from '../fixtures/samples.js';

const de = localeFor('de');
const today = new Date('2026-01-31T06:30:00.000Z');
const monday = new Date('2026-02-01T23:00:00.000Z');

describe('built-in locales', () => {
  it('has the eight languages and en-US', () => {
    expect(BUILT_IN_LOCALES).toEqual(['en', 'en-US', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'sv']);
  });

  it.each(BUILT_IN_LOCALES)('%s: every label is there, with the placeholders the English one has', (code) => {
    const l = localeFor(code);
    for (const [key, english] of Object.entries(ENGLISH.labels)) {
      const text = l.labels[key as keyof typeof l.labels];
      expect(text.trim(), key).not.toBe('');
      // As a set: a plural label (plural.ts) writes {n} once a form, and Polish has more forms than English.
      const set = (t: string): string[] => [...new Set(placeholders(t))].sort();
      expect(set(text), key).toEqual(set(english));
    }
    expect(Intl.getCanonicalLocales(l.tag)).toHaveLength(1);
  });

  it('refuses an unknown code with E_CONFIG and the known ones', () => {
    expect(() => localeFor('xx')).toThrow(
      expect.objectContaining({ code: 'E_CONFIG', message: expect.stringContaining('known: en, en-US, de') }),
    );
  });
});

describe('dates, times and numbers in the locale', () => {
  it.each([
    ['en', '07:30', 'Mon 2 Feb 00:00'],
    ['en-US', '7:30 AM', 'Mon, Feb 2 12:00 AM'],
    ['de', '07:30', 'Mo., 2. Feb. 00:00'],
    ['fr', '07:30', 'lun. 2 févr. 00:00'],
    ['es', '07:30', 'lun, 2 feb 00:00'],
    ['sv', '07:30', 'mån 2 feb. 00:00'],
  ])('%s: %s today, %s another day', (code, time, other) => {
    const l = localeFor(code);
    expect(formatTime(today, SAMPLE_TIMEZONE, SAMPLE_NOW, l)).toBe(time);
    expect(formatTime(monday, SAMPLE_TIMEZONE, SAMPLE_NOW, l)).toBe(other);
  });

  it('writes decimals, percentages and ages as the language does', () => {
    expect(formatNumber(2.46, de)).toBe('2,5');
    expect(formatNumber(-2.46, de)).toBe('\u22122,5');
    expect(formatNumber(2.46)).toBe('2.5');
    expect(formatReading(0.44, 0.1, localeFor('fr'))).toBe('0,4');
    expect(formatPercent(71, de)).toBe('71 %');
    expect(formatPercent(71, localeFor('nl'))).toBe('71%');
    expect(formatAge(125 * 60_000, de)).toBe('2 Std. 5 Min.');
    expect(formatAge(40 * 60_000, localeFor('pl'))).toBe('40 min');
    expect(formatAge(3 * 86_400_000, localeFor('fr'))).toBe('3 j');
  });

  it('gives the readings in the locale, and keeps the service units as sent', () => {
    const values = readingsOf({ ...NORMAL.weather, uv_index: 0.4, wind_speed: 14.2 }, de).map((r) => r.value);
    expect(values).toEqual(['10 %', '14 km/h', 'UV 0,4', '71 %']);
  });
});

describe('frame content in another language', () => {
  const base = { displayName: 'Flur', timezone: SAMPLE_TIMEZONE, now: SAMPLE_NOW, locale: de };

  it('words every status in the locale, with its dates', () => {
    const since = new Date('2026-01-31T05:00:00.000Z');
    const words = (status: Parameters<typeof frameContent>[0]['status']) =>
      frameContent({ ...base, rec: NORMAL, status }).status;
    expect(words({ kind: 'stale', since })).toMatchObject({
      title: 'Veraltet',
      detail: 'keine Aktualisierung seit 06:00',
      short: 'Veraltet seit 06:00',
    });
    expect(words({ kind: 'budget_exhausted', until: monday, unknownCredits: 2 })).toMatchObject({
      title: 'Budget aufgebraucht',
      detail: 'bis Mo., 2. Feb. 00:00 · 2 davon unbestätigt',
    });
    const retryAt = new Date('2026-01-31T05:12:00.000Z');
    expect(words({ kind: 'unreachable', since, message: 'ECONNREFUSED', retryAt })).toMatchObject({
      title: 'Keine Verbindung zum Outfit-Dienst',
      detail: 'neuer Versuch um 06:12',
      since: 'seit 06:00',
      short: 'Keine Verbindung · nächster Versuch 06:12',
    });
    expect(words({ kind: 'service_error', problem: 'error', since, message: 'HTTP 502', retryAt })).toMatchObject({
      title: 'Fehler beim Outfit-Dienst',
      detail: 'neuer Versuch um 06:12',
    });
    expect(words({ kind: 'key_rejected', message: 'Invalid API key' })).toMatchObject({
      title: 'Der Dienst hat den API-Schlüssel abgelehnt',
      detail: 'siehe Statusseite',
    });
  });

  it("leaves the service's texts as sent, and names a textless alert in the locale", () => {
    const c = frameContent({
      ...base,
      rec: { ...NORMAL, weather: { ...NORMAL.weather, alerts: [{}, 'Storm warning'] } },
      status: { kind: 'stale', since: today },
    });
    expect(c.outfit).toBe(NORMAL.outfit);
    expect(c.reasoning).toBe(NORMAL.reasoning);
    // Most severe first: a warning before an alert whose severity nothing tells.
    expect(c.alerts.map((a) => a.text)).toEqual(['Storm warning', 'Wetterwarnung']);
    expect(c.age).toBe('15 Min.');
    expect(alertTexts([{}])).toEqual(['Weather alert']);
  });
});

describe('words that read one way', () => {
  const base = { displayName: 'Flur', timezone: SAMPLE_TIMEZONE, now: SAMPLE_NOW };
  const since = new Date('2026-01-31T05:00:00.000Z');
  const retryAt = new Date('2026-01-31T05:12:00.000Z');

  it.each(BUILT_IN_LOCALES)(
    '%s: the small panels say when the next try is, never "again", which reads as "failed again at"',
    (code) => {
      const short =
        frameContent({
          ...base,
          locale: localeFor(code),
          rec: NORMAL,
          status: { kind: 'service_error', problem: 'error', since, message: 'HTTP 502', retryAt },
        }).status?.short ?? '';
      expect(short).toMatch(/0?6:12/);
      expect(short).not.toMatch(/\b(again|erneut|igen|ponownie|opnieuw)\b/i);
    },
  );

  it("shows the condition in the display's language, and the service's text only where no condition is known", () => {
    const fr = localeFor('fr');
    const c = (weather: Partial<typeof NORMAL.weather>, locale = fr) =>
      frameContent({
        ...base,
        locale,
        rec: { ...NORMAL, weather: { ...NORMAL.weather, ...weather } },
        status: { kind: 'ok' },
      }).description;
    expect(c({ description: 'Partly cloudy', is_day: true })).toBe('Partiellement nuageux');
    expect(c({ description: 'Clear', is_day: false }, de)).toBe('Klar');
    expect(c({ description: 'Heavy rain and thunderstorms' }, localeFor('pl'))).toBe('Ulewny deszcz i burze');
    // Nothing to read a condition from: the service's words as sent.
    const unknown = {
      description: 'Wetterlage unbekannt',
      wind_speed: undefined,
      rain_chance_pct: undefined,
      humidity_pct: undefined,
      uv_index: undefined,
    };
    expect(c(unknown)).toBe('Wetterlage unbekannt');
    // English frames keep the service's English, which says more than our word for it.
    expect(c({ description: 'Light rain showers' }, ENGLISH)).toBe('Light rain showers');
    const { report } = renderIndices({ ...sampleInput('normal', 'Flur', de) }, loadPanel('waveshare-7in5-v2'), {
      rotation: 0,
    });
    expect(report.texts.join(' | ')).toContain('Teilweise bewölkt');
    expect(report.texts.join(' | ')).not.toContain('Partly cloudy');
  });

  it('leaves "UV 0" out at night, and keeps a weak sun and a missing reading', () => {
    const kinds = (uv: number | undefined) => readingsOf({ ...NORMAL.weather, uv_index: uv }, de).map((r) => r.kind);
    expect(kinds(0)).toEqual(['rain', 'wind', 'humidity']);
    expect(kinds(0.4)).toContain('uv');
    expect(kinds(undefined)).toContain('uv');
    const { report } = renderIndices(
      {
        ...sampleInput('normal', 'Hallway'),
        rec: { ...NORMAL, weather: { ...NORMAL.weather, uv_index: 0, is_day: false } },
      },
      loadPanel('waveshare-7in5-v2'),
      { rotation: 0 },
    );
    expect(report.texts.join(' | ')).not.toMatch(/UV/);
  });

  it('names the status page by its address where the frame sends the reader there, and the log where there is none', () => {
    const refused = (statusPlace?: Parameters<typeof frameContent>[0]['statusPlace'], locale = ENGLISH) =>
      frameContent({
        ...base,
        locale,
        rec: NORMAL,
        status: { kind: 'key_rejected', message: 'no' },
        ...(statusPlace && { statusPlace }),
      }).status?.detail;
    expect(refused({ kind: 'page', url: 'http://pi.local:8321' })).toBe('status page: http://pi.local:8321');
    expect(refused({ kind: 'page', url: 'http://pi.local:8321' }, de)).toBe('Statusseite: http://pi.local:8321');
    expect(refused({ kind: 'no_page' })).toBe("see the daemon's log");
    expect(refused({ kind: 'page_unknown' })).toBe('see the status page');
    const noRetry = frameContent({
      ...base,
      rec: NORMAL,
      statusPlace: { kind: 'page', url: 'https://wall.example' },
      status: { kind: 'service_error', problem: 'refused', since, message: 'HTTP 400', retryAt: null },
    });
    expect(noRetry.status?.detail).toBe('status page: https://wall.example');
  });
});

describe('frames in another language', () => {
  it.each([
    ['waveshare-7in5-v2', 0],
    ['waveshare-7in5-v2', 90],
    ['waveshare-2in9', 0],
  ] as const)('%s at %i°: the labels are German and whole, not cut', (panel, rotation) => {
    const { report } = renderIndices(
      { ...sampleInput('alert', 'Flur', de), status: { kind: 'stale', since: SAMPLE_NOW } },
      loadPanel(panel),
      { rotation },
    );
    const drawn = report.texts;
    expect(drawn.join(' | ')).not.toMatch(/Updated|Feels like|STALE|Out of date|old/);
    // The age badge of the outfit out of date, in German; the feels-like temperature on every panel.
    const labels = ['95 %', '93 %', 'Gefühlt 5°', '15 Min. alt'];
    for (const label of labels)
      expect(
        drawn.some((t) => t.includes(label)),
        `${label} in ${drawn.join(' | ')}`,
      ).toBe(true);
    if (panel !== 'waveshare-2in9') expect(drawn).toContain('Stand 07:30');
  });

  it('says in the locale that the outfit has no text', () => {
    const { report } = renderIndices(
      { ...sampleInput('normal', 'Flur', de), rec: { ...NORMAL, outfit: ' ' } },
      loadPanel('waveshare-4in2'),
      { rotation: 0 },
    );
    expect(report.texts.join(' ')).toContain('Kein Outfit-Text in dieser Antwort');
  });

  it('draws the waiting screen in the locale', () => {
    const { report } = renderIndices(
      { ...sampleInput('normal', 'Flur', localeFor('fr')), rec: null },
      loadPanel('waveshare-4in2'),
      { rotation: 0 },
    );
    expect(report.texts.join(' ')).toContain('En attente de la première tenue');
  });
});
