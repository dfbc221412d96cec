import { describe, expect, it } from 'vitest';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { frameContent } from '../../src/render/layout/content.js';
import type { ServiceProblem } from '../../src/domain/frame-status.js';
import {
  alertText,
  alertTexts,
  formatAge,
  formatPercent,
  formatReading,
  formatSpeed,
  formatTempShort,
  formatTime,
  MISSING,
  windDegrees,
} from '../../src/render/layout/format.js';
import { renderIndices } from '../../src/render/frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { conditionOf } from '../../src/domain/condition.js';
import { NORMAL, SAMPLE_NOW } from '../fixtures/samples.js';

describe('alert items of any shape', () => {
  it.each([
    ['Flood warning', 'Flood warning'],
    [{ title: 'Storm', description: 'long text' }, 'Storm'],
    [{ headline: 'Heat advisory' }, 'Heat advisory'],
    [{ event: 'Gale warning', severity: 'Moderate' }, 'Gale warning'],
    [{ description: 'Ice on roads' }, 'Ice on roads'],
    [{ properties: { event: 'Nested event' } }, 'Nested event'],
    [{ code: 42, zz: 'some text' }, 'some text'],
    [{ title: '   ', event: 'Blank title skipped' }, 'Blank title skipped'],
    [{}, 'Weather alert'],
    [null, 'Weather alert'],
    [7, '7'],
  ])('%j -> %s', (alert, text) => {
    expect(alertText(alert)).toBe(text);
  });

  it('drops empty and repeated alerts', () => {
    expect(alertTexts(['A', 'a', '', { title: 'B' }])).toEqual(['A', 'B']);
    expect(alertTexts([])).toEqual([]);
  });
});

describe('formatting', () => {
  it('reads wind directions', () => {
    expect(windDegrees('N')).toBe(0);
    expect(windDegrees('nw')).toBe(315);
    expect(windDegrees('SSW')).toBe(202.5);
    expect(windDegrees('North-West')).toBe(315);
    expect(windDegrees('270')).toBe(270);
    expect(windDegrees('variable')).toBeNull();
  });

  it('shows times in the display timezone, with the day when it is not today', () => {
    const t = new Date('2026-01-31T06:30:00.000Z');
    expect(formatTime(t, 'Europe/Berlin', SAMPLE_NOW)).toBe('07:30');
    expect(formatTime(t, 'America/New_York', SAMPLE_NOW)).toBe('01:30');
    expect(formatTime(new Date('2026-02-01T23:00:00.000Z'), 'Europe/Berlin', SAMPLE_NOW)).toBe('Mon 2 Feb 00:00');
    expect(formatAge(125 * 60_000)).toBe('2 h 5 min');
  });

  it('maps descriptions to icons, and unknown ones to a neutral icon', () => {
    const icon = (description: string, is_day = true) => conditionOf({ description, is_day });
    expect(icon('Clear sky')).toBe('clear-day');
    expect(icon('Clear sky', false)).toBe('clear-night');
    expect(icon('Partly cloudy', false)).toBe('partly-night');
    expect(icon('Overcast')).toBe('cloudy');
    expect(icon('Light drizzle')).toBe('drizzle');
    expect(icon('Thunderstorm with hail')).toBe('thunder');
    expect(icon('Heavy snow')).toBe('snow');
    expect(icon('Freezing rain')).toBe('sleet');
    expect(icon('Mist')).toBe('fog');
    expect(icon('Blustery')).toBe('unknown');
    expect(icon('')).toBe('unknown');
  });

  it('rounds halves away from zero, the same way either side of it', () => {
    expect(formatTempShort(-0.5)).toBe('\u22121°');
    expect(formatTempShort(-2.4)).toBe('\u22122°');
    expect(formatReading(-2.45, 0.1)).toBe('\u22122.5');
    expect(formatReading(2.45, 0.1)).toBe('2.5');
  });
});

describe('the condition icon', () => {
  const icon = (description: string, is_day = true) => conditionOf({ description, is_day });

  it.each([
    ['Leichter Regen', 'rain'],
    ['Regenschauer', 'rain'],
    ['Schneeregen', 'sleet'],
    ['Gewitter', 'thunder'],
    ['Nebel', 'fog'],
    ['Leicht bewölkt', 'partly-day'],
    ['Bedeckt', 'cloudy'],
    ['Wolkenlos', 'clear-day'],
    ['Sonnig', 'clear-day'],
    ['Pluie faible', 'rain'],
    ['Averses de neige', 'snow'],
    ['Orage', 'thunder'],
    ['Brouillard', 'fog'],
    ['Ciel dégagé', 'clear-day'],
    ['Peu nuageux', 'partly-day'],
    ['Lluvia ligera', 'rain'],
    ['Nieve', 'snow'],
    ['Tormenta', 'thunder'],
    ['Despejado', 'clear-day'],
    ['Nublado', 'cloudy'],
    ['Pioggia debole', 'rain'],
    ['Neve', 'snow'],
    ['Temporale', 'thunder'],
    ['Nebbia', 'fog'],
    ['Poco nuvoloso', 'partly-day'],
    ['Lichte regen', 'rain'],
    ['Motregen', 'drizzle'],
    ['Sneeuw', 'snow'],
    ['Onweer', 'thunder'],
    ['Zwaar bewolkt', 'cloudy'],
    ['Onbewolkt', 'clear-day'],
    ['Słaby deszcz', 'rain'],
    ['Śnieg', 'snow'],
    ['Deszcz ze śniegiem', 'sleet'],
    ['Burza', 'thunder'],
    ['Mgła', 'fog'],
    ['Bezchmurnie', 'clear-day'],
    ['Pochmurno', 'cloudy'],
    ['Lätt regn', 'rain'],
    ['Snöfall', 'snow'],
    ['Åska', 'thunder'],
    ['Dimma', 'fog'],
    ['Halvklart', 'partly-day'],
    ['Mulet', 'cloudy'],
    ['Soligt', 'clear-day'],
  ] as const)('reads %s as %s', (text, condition) => {
    expect(icon(text)).toBe(condition);
  });

  it.each(['Tornado', 'Hurricane warning in effect', 'Tropical storm', 'Ouragan', 'Huracán', 'Orkaan'])(
    'draws %s as a storm, not the thermometer',
    (text) => {
      expect(icon(text)).toBe('storm');
    },
  );

  it('tells rain at or below freezing as sleet, in °C and °F', () => {
    expect(conditionOf({ description: 'Light rain', temp: -1, temp_unit: '°C' })).toBe('sleet');
    expect(conditionOf({ description: 'Light rain', temp: 30, temp_unit: '°F' })).toBe('sleet');
    expect(conditionOf({ description: 'Light rain', temp: 40, temp_unit: '°F' })).toBe('rain');
  });

  it('reads the readings where the description says nothing it knows', () => {
    const base = { description: 'Wetterlage unbekannt', is_day: true };
    expect(conditionOf({ ...base, rain_chance_pct: 80, temp: 5, temp_unit: '°C' })).toBe('rain');
    expect(conditionOf({ ...base, rain_chance_pct: 80, temp: -3, temp_unit: '°C' })).toBe('snow');
    expect(conditionOf({ ...base, wind_speed: 40, wind_speed_unit: 'mph' })).toBe('wind');
    expect(conditionOf({ ...base, wind_speed: 40, wind_speed_unit: 'km/h' })).toBe('unknown');
    expect(conditionOf({ ...base, wind_speed: 15, wind_speed_unit: 'm/s' })).toBe('wind');
    expect(conditionOf({ ...base, humidity_pct: 99, rain_chance_pct: 10 })).toBe('fog');
    expect(conditionOf({ ...base, uv_index: 6, rain_chance_pct: 5 })).toBe('clear-day');
    // A gale outweighs a sky-only description, not rain.
    expect(conditionOf({ description: 'Sunny', is_day: true, wind_speed: 70, wind_speed_unit: 'km/h' })).toBe('wind');
    expect(conditionOf({ description: 'Heavy rain', is_day: true, wind_speed: 70, wind_speed_unit: 'km/h' })).toBe(
      'rain',
    );
    // Without is_day, a UV index of 0 means night.
    expect(conditionOf({ description: 'Clear', uv_index: 0 })).toBe('clear-night');
    expect(conditionOf({ description: 'Clear', uv_index: 2 })).toBe('clear-day');
  });
});

describe('frame content', () => {
  const base = { displayName: 'Hallway', timezone: 'Europe/Berlin', now: SAMPLE_NOW };

  it('words every status', () => {
    const since = new Date('2026-01-31T05:00:00.000Z');
    const c = (status: Parameters<typeof frameContent>[0]['status']) =>
      frameContent({ ...base, rec: NORMAL, status })?.status;
    expect(c({ kind: 'ok' })).toBeNull();
    expect(c({ kind: 'stale', since })).toMatchObject({ error: false, detail: 'no update since 06:00' });
    // The service's own words and the HTTP detail go to the status page, never to the glass.
    expect(c({ kind: 'key_rejected', message: 'Invalid API key' })).toMatchObject({
      error: true,
      title: 'The service refused the API key',
      detail: 'see the status page',
      short: 'API key refused',
    });
    expect(c({ kind: 'budget_exhausted', until: new Date('2026-02-01T00:00:00.000Z') })).toMatchObject({
      title: 'Credit budget used up',
      detail: 'until Sun 1 Feb 01:00',
    });
    expect(c({ kind: 'credits_out', since, until: new Date('2026-01-31T06:12:00.000Z') })).toMatchObject({
      title: 'No credits left',
      detail: "top up in the service's web dashboard · trying again at 07:12",
    });
    const retryAt = new Date('2026-01-31T06:12:00.000Z');
    // "Unreachable" only when no connection was made.
    expect(c({ kind: 'unreachable', since, message: 'connect ECONNREFUSED 127.0.0.1:9', retryAt })).toMatchObject({
      title: 'No connection to the outfit service',
      detail: 'trying again at 07:12',
      short: 'No connection · retry at 07:12',
      since: 'since 06:00',
      mark: 'offline',
    });
    const service = (problem: ServiceProblem, at: Date | null = retryAt) =>
      c({
        kind: 'service_error',
        problem,
        since,
        message: 'POST /recweather: HTTP 502: non-JSON error body (text/html): 502 Bad Gateway',
        retryAt: at,
      });
    expect(service('error')).toMatchObject({
      title: 'Outfit service error',
      detail: 'trying again at 07:12',
      short: 'Service error · retry at 07:12',
      mark: 'cloud-error',
    });
    expect(service('no_answer')?.title).toBe('The outfit service did not answer');
    expect(service('connection_lost')?.title).toBe('Connection to the outfit service lost');
    expect(service('bad_answer')?.title).toBe('The outfit service sent an unreadable answer');
    expect(service('busy')?.title).toBe('The outfit service is busy');
    expect(service('refused', null)).toMatchObject({
      title: 'The outfit service refused the request',
      detail: 'see the status page',
      short: 'Service error',
    });
    for (const p of ['error', 'no_answer', 'connection_lost', 'bad_answer', 'busy', 'refused'] as const) {
      const s = service(p)!;
      expect(`${s.title} ${s.detail} ${s.short}`).not.toMatch(/HTTP|502|recweather|unreachable/i);
    }
  });

  it('badges an outfit out of date with its age, whatever the status, and only then', () => {
    const at = (
      fetched: string,
      now: string,
      stale = true,
      status: Parameters<typeof frameContent>[0]['status'] = { kind: 'ok' },
    ) => frameContent({ ...base, rec: { ...NORMAL, fetched_at: fetched }, status, stale, now: new Date(now) }).ageBadge;
    expect(at('2026-01-31T06:30:00.000Z', '2026-01-31T07:10:00.000Z')).toBe('40 min old');
    expect(at('2026-01-31T03:30:00.000Z', '2026-01-31T06:45:00.000Z')).toBe('3 h old');
    // Same day in the display's zone, however many hours: hours (00:30 to 23:10 in Berlin), never a weekday.
    expect(at('2026-01-30T23:30:00.000Z', '2026-01-31T22:10:00.000Z')).toBe('22 h old');
    // An earlier day: no badge, a headline instead (below).
    expect(at('2026-01-30T05:00:00.000Z', '2026-01-31T06:45:00.000Z')).toBeNull();
    // An error does not hide the age; a current outfit has no badge, whatever the error.
    expect(
      at('2026-01-31T03:30:00.000Z', '2026-01-31T06:45:00.000Z', true, { kind: 'key_rejected', message: 'x' }),
    ).toBe('3 h old');
    expect(
      at('2026-01-31T03:30:00.000Z', '2026-01-31T06:45:00.000Z', false, { kind: 'key_rejected', message: 'x' }),
    ).toBeNull();
    // The status `stale` alone is enough; an outfit dated ahead of the clock (age unknown) gets the plain badge.
    expect(
      frameContent({ ...base, rec: NORMAL, status: { kind: 'stale', since: new Date('2026-01-31T06:30:00.000Z') } })
        .ageBadge,
    ).toBe('15 min old');
    expect(at('2026-02-03T05:00:00.000Z', '2026-01-31T06:45:00.000Z')).toBe('STALE');
  });

  it('a last good file that could not be read back (E_STATE_READ) is not "Cannot save state": the read-back screen with the ledger’s time, else waiting', () => {
    const unread = {
      code: 'E_STATE_READ' as const,
      file: '/var/lib/outfit-display/last/hallway.json',
      message: 'not JSON',
      since: SAMPLE_NOW.toISOString(),
    };
    expect(frameContent({ ...base, rec: null, status: { kind: 'ok' }, storeProblem: unread }).status).toBeNull();
    const bought = new Date('2026-01-31T06:00:00.000Z');
    expect(
      frameContent({ ...base, rec: null, status: { kind: 'ok' }, storeProblem: unread, notReadBack: bought }).status,
    ).toMatchObject({
      kind: 'not_read_back',
      title: 'The last outfit could not be read back',
    });
    const cannotSave = {
      ...unread,
      code: 'E_STATE_WRITE' as const,
      message: 'cannot save /var/lib/outfit-display/last/hallway.json (EROFS)',
    };
    expect(frameContent({ ...base, rec: null, status: { kind: 'ok' }, storeProblem: cannotSave }).status).toMatchObject(
      { kind: 'state_problem', title: 'Cannot save state' },
    );
  });

  it('takes the update time from fetched_at', () => {
    expect(frameContent({ ...base, rec: NORMAL, status: { kind: 'ok' } }).updated).toBe('07:30');
    expect(frameContent({ ...base, rec: null, status: { kind: 'ok' } })).toMatchObject({
      updated: null,
      outfit: null,
      alerts: [],
    });
  });
});

describe('a response without some readings', () => {
  const base = { displayName: 'Hallway', timezone: 'Europe/Berlin', now: SAMPLE_NOW, status: { kind: 'ok' as const } };
  const {
    temp: _t,
    humidity_pct: _h,
    wind_speed: _w,
    uv_index: _u,
    feels_like: _f,
    rain_chance_pct: _r,
    ...rest
  } = NORMAL.weather;
  const sparse: StoredRecommendation = { ...NORMAL, weather: rest, reasoning: undefined, generated_at: undefined };

  it('formats a missing reading as "—"', () => {
    expect(formatTempShort(undefined)).toBe(MISSING);
    expect(formatPercent(undefined)).toBe(MISSING);
    expect(formatReading(undefined, 0.1)).toBe(MISSING);
    expect(formatSpeed(undefined, 'km/h')).toBe(MISSING);
    expect(formatSpeed(14.4, 'km/h')).toBe('14 km/h');
    expect(formatReading(2.46, 0.1)).toBe('2.5');
    expect(windDegrees(undefined)).toBeNull();
  });

  it.each([
    ['waveshare-7in5-v2', 0],
    ['waveshare-7in5-v2', 90],
    ['waveshare-2in9', 0],
    ['waveshare-2in9', 90],
  ] as const)(
    '%s at %i°: every layout draws "—" where a reading is missing, never undefined or NaN',
    (panel, rotation) => {
      const { report } = renderIndices({ ...base, rec: sparse }, loadPanel(panel), { rotation });
      const drawn = report.texts.join(' | ');
      expect(drawn).toContain(MISSING);
      expect(drawn).not.toMatch(/undefined|NaN|null/);
      expect(report.outfit).not.toBeNull();
    },
  );

  it('without reasoning or generated_at the content is still complete', () => {
    const c = frameContent({ ...base, rec: sparse });
    expect(c).toMatchObject({ reasoning: null, updated: '07:30', outfit: NORMAL.outfit.trim() });
    expect(frameContent({ ...base, rec: { ...sparse, fetched_at: '' } }).updated).toBeNull();
  });
});
