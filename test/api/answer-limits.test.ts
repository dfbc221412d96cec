import { describe, expect, it } from 'vitest';
import {
  ALERT_TEXT,
  boundAnswer,
  cutText,
  EXTRA_FIELD_BYTES,
  EXTRAS_BYTES,
  LONG_TEXT,
  SHORT_TEXT,
  writtenBytes,
} from '../../src/api/answer-limits.js';
import { readResponse } from '../../src/api/schemas.js';
import { largeFieldBody, LARGE_FILLS } from '../../src/service-sim/large-field.js';
import { renderIndices } from '../../src/render/frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { ANSWER } from '../fixtures/answers.js';

/**
 * What an answer may add to what we store: every answer, from a few bytes to over every limit, is bounded
 * so that what we write of it stays far below the last good file's read limit, in every form whose parsed value is
 * written larger than it was sent.
 */

/** What the largest file we write of an answer takes: `<id>.json`, pretty-printed. */
const written = (v: unknown): number =>
  Buffer.byteLength(JSON.stringify({ ...(v as object), fetched_at: '2026-11-28T07:00:00.000Z' }, null, 2));
const LAST_GOOD_READ_LIMIT = 1024 * 1024 + 4096;

describe('an answer within the limits', () => {
  it('is kept as it came, the very object, with its fields beyond the spec', () => {
    const body = { ...ANSWER, request_id: 'r-1', x: { a: [1, 2, 3] }, weather: { ...ANSWER.weather, pollen: 'low' } };
    const { value, notes } = boundAnswer('recweather', body);
    expect(value).toBe(body);
    expect(notes).toEqual([]);
  });
});

describe('an answer over the limits', () => {
  it('the probe’s answer (1 MB of `1e20` in a field beyond the spec, written back as 21 digits each): the field is dropped', () => {
    const raw = largeFieldBody(ANSWER, { field: 'notes', bytes: 1_000_000, fill: 'exponents' });
    const json = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    // The cause: the parsed value written again is several times the text it came from.
    expect(Buffer.byteLength(JSON.stringify(json))).toBeGreaterThan(4 * raw.length);
    const { value, notes } = boundAnswer('recweather', json);
    expect(notes).toEqual([expect.objectContaining({ field: 'notes', problem: 'too_large' })]);
    expect(value).not.toHaveProperty('notes');
    expect(json).toHaveProperty('notes');
    expect(value).toMatchObject(ANSWER);
  });

  it.each(
    LARGE_FILLS.flatMap((fill) =>
      ['notes', 'weather.station', 'outfit', 'reasoning', 'model', 'weather.description', 'weather.alerts'].map(
        (field) => [fill, field] as const,
      ),
    ),
  )(
    '%s in %s, from tiny to 1 MiB: what is written stays far below the read limit, and the answer is read',
    (fill, field) => {
      for (const bytes of [16, 4_000, 20_000, 100_000, 1_000_000]) {
        const raw = largeFieldBody(ANSWER, { field, bytes, fill });
        const { value } = boundAnswer('recweather', JSON.parse(raw.toString('utf8')));
        expect(written(value), `${bytes} bytes`).toBeLessThan(LAST_GOOD_READ_LIMIT / 4);
        const read = readResponse('recweather', value);
        // Only a form that is no string in `outfit` fails the answer, as it did before the limits.
        expect(read.ok, `${bytes} bytes`).toBe(field !== 'outfit' || fill === 'text' || fill === 'not_utf8');
      }
    },
  );

  it('a long outfit keeps its first characters, with an ellipsis; short listed texts keep fewer', () => {
    const body = {
      ...ANSWER,
      outfit: 'coat '.repeat(20_000),
      model: 'm'.repeat(1000),
      weather: { ...ANSWER.weather, description: 'd'.repeat(1000) },
    };
    const { value, notes } = boundAnswer('recweather', body);
    const v = value as typeof ANSWER;
    expect(v.outfit).toHaveLength(LONG_TEXT);
    expect(v.outfit.startsWith('coat coat')).toBe(true);
    expect(v.outfit.endsWith('…')).toBe(true);
    expect(v.model).toHaveLength(SHORT_TEXT);
    expect(v.weather.description).toHaveLength(SHORT_TEXT);
    expect(notes.map((n) => [n.field, n.problem])).toEqual([
      ['outfit', 'too_long'],
      ['weather.description', 'too_long'],
      ['model', 'too_long'],
    ]);
    expect(body.outfit).toHaveLength(100_000);
  });

  it('never cuts a character in half', () => {
    expect(cutText('a'.repeat(8) + '😀'.repeat(10), 10)).toBe(`${'a'.repeat(8)}…`);
    expect(cutText('a'.repeat(7) + '😀'.repeat(10), 10)).toBe(`${'a'.repeat(7)}😀…`);
    expect(cutText('a'.repeat(6) + '😀'.repeat(10), 10)).toBe(`${'a'.repeat(6)}😀…`);
  });

  it('fields beyond the spec: each within its own limit, all within theirs, in the order they came', () => {
    const big = 'x'.repeat(EXTRA_FIELD_BYTES / 2);
    const body: Record<string, unknown> = { ...ANSWER, huge: 'y'.repeat(EXTRA_FIELD_BYTES + 1) };
    for (let i = 0; i < 10; i++) body[`f${i}`] = big;
    const { value, notes } = boundAnswer('recweather', body);
    const kept = Object.keys(value as object).filter((k) => /^f\d$/.test(k));
    expect(kept.length).toBe(Math.floor(EXTRAS_BYTES / (EXTRA_FIELD_BYTES / 2 + 20)));
    expect(notes.map((n) => n.field)).toEqual([
      'huge',
      ...['f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9'].slice(kept.length),
    ]);
    expect(notes.every((n) => n.problem === 'too_large')).toBe(true);
  });

  it('alerts: long ones cut, large objects keep their shown fields, too many dropped', () => {
    const alerts = [
      's'.repeat(5000),
      { title: 'Storm', description: 'd'.repeat(5000), raw: 'r'.repeat(50_000) },
      ...Array.from({ length: 100 }, (_, i) => `alert ${i} ${'z'.repeat(900)}`),
    ];
    const { value, notes } = boundAnswer('recweather', { ...ANSWER, weather: { ...ANSWER.weather, alerts } });
    const kept = (value as { weather: { alerts: unknown[] } }).weather.alerts;
    expect(kept[0]).toHaveLength(ALERT_TEXT);
    expect(kept[1]).toEqual({ title: 'Storm', description: cutText('d'.repeat(5000), ALERT_TEXT) });
    expect(kept.length).toBeGreaterThan(20);
    expect(kept.length).toBeLessThan(alerts.length);
    expect(notes).toEqual([expect.objectContaining({ field: 'weather.alerts', problem: 'too_large' })]);
  });

  it('a structure nested deeper than anything reads is measured without recursing into it, and dropped', () => {
    const deep = JSON.parse(`${'['.repeat(400_000)}${']'.repeat(400_000)}`) as unknown;
    expect(writtenBytes(deep, 0, Infinity)).toBe(Infinity);
    const { value, notes } = boundAnswer('recweather', { ...ANSWER, deep, model: deep });
    expect(notes.map((n) => n.field)).toEqual(['model', 'deep']);
    expect(readResponse('recweather', value).ok).toBe(true);
  });

  it('GET /weather: the body is the weather object', () => {
    const { value, notes } = boundAnswer('weather', { ...ANSWER.weather, station_log: 'l'.repeat(100_000) });
    expect(value).not.toHaveProperty('station_log');
    expect(notes).toEqual([expect.objectContaining({ field: 'station_log', problem: 'too_large' })]);
  });

  it('counts what <id>.json writes: pretty-printed, at the field’s depth, in UTF-8', () => {
    for (const v of [[], {}, [1, [2, { a: 'é' }]], { k: null, l: [true, false, 1e20] }, 'x"\\\u0001'])
      for (const level of [0, 1, 2]) {
        const inner = JSON.stringify(v, null, 2).replaceAll('\n', `\n${'  '.repeat(level)}`);
        expect(writtenBytes(v, level, Infinity), `${JSON.stringify(v)} at ${level}`).toBe(Buffer.byteLength(inner));
      }
  });
});

describe('the cut keeps what the frame draws', () => {
  it.each(['inkplate-10', 'kindle-paperwhite'])(
    '%s: a 40,000-character outfit and reasoning draw the same frame cut as whole',
    (panel) => {
      const long =
        'Wear a warm wool coat over a thick jumper, with a scarf, gloves and waterproof boots; take an umbrella. '.repeat(
          400,
        );
      const at = new Date('2026-11-28T07:00:00.000Z');
      const whole = { outfit: long, reasoning: long, weather: { temp: 4, alerts: [] }, fetched_at: at.toISOString() };
      const cut = boundAnswer('recweather', whole).value as typeof whole;
      expect(cut.outfit.length).toBeLessThan(long.length);
      const draw = (rec: typeof whole): Uint8Array =>
        renderIndices(
          { rec, displayName: 'Hall', timezone: 'UTC', status: { kind: 'ok' }, now: at },
          loadPanel(panel),
          { rotation: 0 },
        ).indices;
      expect(Buffer.compare(Buffer.from(draw(whole)), Buffer.from(draw(cut)))).toBe(0);
    },
  );
});
