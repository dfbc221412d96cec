import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerFilter, NotJsonError } from '../../src/api/answer-filter.js';
import { boundAnswer } from '../../src/api/answer-limits.js';
import { readResponse } from '../../src/api/schemas.js';
import { largeFieldBody, LARGE_FILLS } from '../../src/service-sim/large-field.js';
import { ANSWER } from '../fixtures/answers.js';

/**
 * The streaming filter of a 2xx body (src/api/answer-filter.ts): an answer within the limits comes out as it went
 * in, however the body is cut into chunks; a larger one keeps what the bounded answer keeps, with the filtered text
 * bounded whatever the body's size.
 */

type Kind = 'recommend' | 'recweather' | 'weather';

/** The body fed to a filter in chunks cut at `cuts` (offsets), and what it keeps. */
function filtered(
  body: Buffer | string,
  kind: Kind = 'recweather',
  cuts: number[] = [],
): { text: string; notes: { field: string; problem: string }[] } {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const f = new AnswerFilter(kind);
  let at = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length)].sort((a, b) => a - b)) {
    f.write(bytes.subarray(at, cut));
    at = cut;
  }
  f.write(bytes.subarray(at));
  return f.end();
}

const answerLike = fc.record(
  {
    outfit: fc.oneof(fc.string({ maxLength: 300 }), fc.jsonValue({ maxDepth: 2 })),
    reasoning: fc.string({ unit: 'grapheme', maxLength: 200 }),
    weather: fc.oneof(
      fc.record(
        {
          temp: fc.double({ noNaN: true, noDefaultInfinity: true }),
          description: fc.string(),
          alerts: fc.array(fc.oneof(fc.string(), fc.record({ title: fc.string(), x: fc.jsonValue({ maxDepth: 3 }) })), {
            maxLength: 5,
          }),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 3 }),
    ),
    model: fc.jsonValue({ maxDepth: 1 }),
    extra: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 }),
  },
  { requiredKeys: [] },
);

describe('an answer within the limits comes out as it went in', () => {
  it('any answer-like object, compact or indented, in any chunks', () => {
    fc.assert(
      fc.property(answerLike, fc.boolean(), fc.array(fc.nat(), { maxLength: 6 }), (value, indent, cuts) => {
        const text = JSON.stringify(value, null, indent ? 2 : undefined);
        fc.pre(Buffer.byteLength(text) < 8 * 1024);
        const out = filtered(text, 'recweather', cuts);
        expect(JSON.parse(out.text)).toEqual(JSON.parse(text));
        expect(out.notes).toEqual([]);
      }),
    );
  });

  it('any JSON value as a whole body, and a weather body', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 5 }),
        fc.constantFrom<Kind>('recommend', 'weather'),
        fc.array(fc.nat({ max: 400 }), { maxLength: 4 }),
        (value, kind, cuts) => {
          const text = ` ${JSON.stringify(value)}\n`;
          fc.pre(Buffer.byteLength(text) < 8 * 1024);
          expect(JSON.parse(filtered(text, kind, cuts).text)).toEqual(JSON.parse(text));
        },
      ),
    );
  });

  it('escapes and characters of every width, cut between any two bytes', () => {
    const text = JSON.stringify({ ...ANSWER, outfit: 'Schal \\ "Wolle" \u00e9\u20ac😀 \u0001', 'ke\u0022y': 'é' });
    for (let cut = 1; cut < Buffer.byteLength(text); cut++)
      expect(JSON.parse(filtered(text, 'recweather', [cut]).text)).toEqual(JSON.parse(text));
  });
});

describe('a body that is not JSON', () => {
  it.each([
    ['an HTML page', '<html><title>Bad gateway</title></html>'],
    ['an empty body', ''],
    ['white space only', '  \n'],
    ['a truncated object', '{"outfit": "A coat", "weather": {"temp": 4'],
    ['a truncated string', '{"outfit": "A co'],
    ['text after the value', '{"outfit": "A coat"} {"outfit": "again"}'],
    ['a missing colon', '{"outfit" "A coat"}'],
    ['a missing comma', '{"outfit": "A coat" "model": "x"}'],
    ['a value that is no value', '{"outfit": }'],
  ])('%s: NotJsonError', (_, body) => {
    expect(() => filtered(body)).toThrow(NotJsonError);
  });

  it('random bytes: NotJsonError, or a text that JSON.parse alone judges', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        try {
          filtered(Buffer.from(bytes));
        } catch (err) {
          expect(err).toBeInstanceOf(NotJsonError);
        }
      }),
    );
  });
});

describe('an answer over the limits', () => {
  it.each(
    LARGE_FILLS.flatMap((fill) =>
      ['notes', 'weather.station', 'outfit', 'reasoning', 'model', 'weather.description', 'weather.alerts'].map(
        (field) => [fill, field] as const,
      ),
    ),
  )('%s in %s up to 1 MB: the bounded answer is the one the whole body gives', (fill, field) => {
    for (const bytes of [16, 4_000, 20_000, 100_000, 1_000_000]) {
      const raw = largeFieldBody(ANSWER, { field, bytes, fill });
      const whole = boundAnswer('recweather', JSON.parse(raw.toString('utf8'))).value;
      const out = filtered(raw, 'recweather', [7, 4096, 65_537]);
      expect(boundAnswer('recweather', JSON.parse(out.text)).value, `${bytes} bytes`).toEqual(whole);
    }
  });

  it.each(LARGE_FILLS)(
    '%s of 6 MB beyond the spec (six times the old read limit): the filtered text stays small, and the answer reads',
    (fill) => {
      const raw = largeFieldBody(ANSWER, { field: 'notes', bytes: 6_000_000, fill });
      const out = filtered(raw);
      expect(out.text.length).toBeLessThan(64 * 1024);
      expect(out.notes).toEqual([expect.objectContaining({ field: 'notes', problem: 'too_large' })]);
      const read = readResponse('recweather', boundAnswer('recweather', JSON.parse(out.text)).value);
      expect(read.ok && read.value.outfit).toBe(ANSWER.outfit);
    },
  );

  it('a 5 MB outfit keeps its start; 30,000 alerts keep the first that fit; 100,000 fields keep what fits, with a bounded list of notes', () => {
    const outfit = filtered(JSON.stringify({ ...ANSWER, outfit: 'coat '.repeat(1_000_000) }));
    expect(outfit.text.length).toBeLessThan(64 * 1024);
    expect(outfit.notes).toEqual([expect.objectContaining({ field: 'outfit', problem: 'too_long' })]);
    const bounded = boundAnswer('recweather', JSON.parse(outfit.text)).value as typeof ANSWER;
    expect(bounded.outfit.startsWith('coat coat')).toBe(true);

    const alerts = filtered(
      JSON.stringify({
        ...ANSWER,
        weather: {
          ...ANSWER.weather,
          alerts: Array.from({ length: 30_000 }, (_, i) => ({ title: `Alert ${i}`, description: 'd'.repeat(100) })),
        },
      }),
    );
    const kept = (JSON.parse(alerts.text) as typeof ANSWER).weather.alerts;
    expect(kept.length).toBeGreaterThan(100);
    expect(kept.length).toBeLessThan(10_000);
    expect(kept[0]).toEqual({ title: 'Alert 0', description: 'd'.repeat(100) });
    expect(alerts.notes).toEqual([expect.objectContaining({ field: 'weather.alerts', problem: 'too_large' })]);

    const many: Record<string, unknown> = { ...ANSWER };
    for (let i = 0; i < 100_000; i++) many[`k${i}`] = i;
    const fields = filtered(JSON.stringify(many));
    expect(fields.text.length).toBeLessThan(512 * 1024);
    expect(fields.notes.length).toBeLessThanOrEqual(21);
    expect(fields.notes.at(-1)).toMatchObject({ field: '(more)', problem: 'too_large' });
    expect(JSON.parse(fields.text)).toMatchObject(ANSWER);
  });

  it('arrays nested 4 million deep are read past without a stack', () => {
    const depth = 4_000_000;
    const body = Buffer.concat([
      Buffer.from('{"outfit": "A coat", "deep": '),
      Buffer.alloc(depth, '['),
      Buffer.alloc(depth, ']'),
      Buffer.from('}'),
    ]);
    const out = filtered(body);
    expect(JSON.parse(out.text)).toEqual({ outfit: 'A coat' });
    expect(out.notes).toEqual([expect.objectContaining({ field: 'deep', problem: 'too_large' })]);
  });
});
