import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { renderFrame, viewSize, type FrameInput } from '../../src/render/frame.js';
import type { FrameStatus } from '../../src/domain/frame-status.js';
import { GARMENT_IDS } from '../../src/domain/garments.js';
import { listPanelIds, loadPanel, type PanelProfile } from '../../src/panels/panels.js';
import { runs, timeout } from './arbitraries.js';
import { ZONES } from './cron-oracle.js';
import { offPalette } from '../render/decode.js';

/**
 * Every pixel of a rendered frame is in the panel's palette, for arbitrary Recommendations: any text (any Unicode,
 * lone surrogates, control characters, right-to-left, emoji, combining marks, nothing but spaces, thousands of
 * characters), any finite numbers, any alert shapes (strings, objects of any keys and values, nested), any status
 * mark, any garments for the pictogram row, any rotation and dithering, with or without an outfit (the error
 * screen). The PNG is decoded with pngjs, not our encoder. Every panel profile, grouped by palette and size; runs per
 * family are bounded for time (a render of a large panel costs ~0.1 s, a decode as much again).
 */

/** A profile's group, from its palette and size: the groups' runs differ because their frames' costs do. */
function familyOf(p: PanelProfile): string {
  const pixels = p.width * p.height;
  // 2.6 million pixels a frame (the TRMNL X): a few runs cost as much as the other families' many.
  if (pixels > 2_000_000) return 'over 2 million pixels';
  if (p.colour === 'colour') return 'colour';
  if (p.palette.length > 2) return 'grey';
  return pixels < 50_000 ? 'black/white, small' : 'black/white, large';
}
const FAMILIES: Record<string, string[]> = {};
for (const id of listPanelIds()) (FAMILIES[familyOf(loadPanel(id))] ??= []).push(id);
const RUNS: Record<string, number> = {
  'black/white, small': 60,
  'black/white, large': 45,
  colour: 40,
  grey: 36,
  'over 2 million pixels': 8,
};

const anyText = (maxLength: number): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.string({ unit: 'grapheme', maxLength }), weight: 3 },
    { arbitrary: fc.string({ unit: 'binary', maxLength }), weight: 2 },
    { arbitrary: fc.lorem({ maxCount: Math.max(1, Math.floor(maxLength / 6)), mode: 'words' }), weight: 2 },
    {
      arbitrary: fc
        .array(
          fc.constantFrom(
            'Mantel',
            'Regenjacke',
            '雨',
            'מעיל',
            'معطف',
            '🧥',
            '☂️',
            '👩🏽‍🦰',
            'e\u0301',
            '\u200b',
            '\u202e',
            '\t',
            '\n',
            '\r\n',
            '\u0000',
            '\uD800',
            ' ',
            'W'.repeat(40),
            '—',
          ),
          { maxLength: 60 },
        )
        .map((xs) => xs.join(' ')),
      weight: 2,
    },
    { arbitrary: fc.constantFrom('', ' ', '\n\n', 'x'.repeat(5000), 'word '.repeat(1000)), weight: 1 },
  );

const anyNumber = fc.oneof(
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 2 },
  { arbitrary: fc.integer({ min: -200, max: 200 }), weight: 3 },
  {
    arbitrary: fc.constantFrom(
      0,
      -0,
      0.5,
      -0.5,
      99.95,
      1e21,
      -1e21,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      Number.MIN_VALUE,
      2 ** 53,
    ),
    weight: 1,
  },
);

const alertArb: fc.Arbitrary<string | Record<string, unknown>> = fc.oneof(
  anyText(200),
  fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
  fc.record(
    {
      title: fc.oneof(anyText(120), fc.jsonValue({ maxDepth: 1 })),
      headline: anyText(120),
      event: anyText(80),
      description: anyText(400),
      severity: fc.constantFrom('minor', 'severe', 'extreme', ''),
      properties: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    },
    { requiredKeys: [] },
  ),
);

const isoDate = fc.date({
  min: new Date('1970-01-01T00:00:00Z'),
  max: new Date('2100-01-01T00:00:00Z'),
  noInvalidDate: true,
});

const recArb: fc.Arbitrary<StoredRecommendation> = fc.record({
  outfit: anyText(1500),
  reasoning: anyText(800),
  model: anyText(40),
  generated_at: isoDate.map((d) => d.toISOString()),
  fetched_at: isoDate.map((d) => d.toISOString()),
  weather: fc.record({
    temp: anyNumber,
    feels_like: anyNumber,
    temp_unit: fc.oneof(fc.constantFrom('°C', '°F', 'C', 'K', ''), anyText(10)),
    humidity_pct: anyNumber,
    wind_speed: anyNumber,
    wind_speed_unit: fc.oneof(fc.constantFrom('km/h', 'mph', 'm/s', ''), anyText(10)),
    wind_dir: fc.oneof(fc.constantFrom('N', 'NNE', 'north-west', '315', '720.5°', ''), anyText(12)),
    description: anyText(200),
    rain_chance_pct: anyNumber,
    uv_index: anyNumber,
    is_day: fc.boolean(),
    alerts: fc.array(alertArb, { maxLength: 8 }),
    source: anyText(20),
  }),
});

const statusArb: fc.Arbitrary<FrameStatus> = fc.oneof(
  fc.constant({ kind: 'ok' as const }),
  isoDate.map((since) => ({ kind: 'stale' as const, since })),
  anyText(300).map((message) => ({ kind: 'key_rejected' as const, message })),
  isoDate.map((until) => ({ kind: 'budget_exhausted' as const, until })),
  fc.tuple(isoDate, anyText(300)).map(([since, message]) => ({ kind: 'unreachable' as const, since, message })),
);

const inputArb: fc.Arbitrary<FrameInput> = fc.record({
  rec: fc.option(recArb, { nil: null, freq: 6 }),
  displayName: fc.oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 64 }),
    fc.constantFrom('Hallway', 'x', '  ', '🧥🧥🧥'),
  ),
  timezone: fc.constantFrom(...ZONES),
  status: statusArb,
  now: isoDate,
  // Any garments in any order (with repeats), or what the reader makes of the outfit.
  garments: fc.option(fc.array(fc.constantFrom(...GARMENT_IDS), { maxLength: 25 }), { nil: undefined }),
});

const optionsArb = fc.record({
  rotation: fc.constantFrom(0 as const, 90 as const, 180 as const, 270 as const),
  dither: fc.constantFrom('floyd-steinberg' as const, 'atkinson' as const, 'ordered' as const),
});

describe('every pixel of a frame is in its panel palette, for any Recommendation', () => {
  it('puts every panel in a group whose runs are set, the costliest alone', () => {
    expect(Object.values(FAMILIES).flat().sort()).toEqual(listPanelIds());
    expect(Object.keys(FAMILIES).filter((f) => RUNS[f] === undefined)).toEqual([]);
    expect(FAMILIES['over 2 million pixels']).toEqual(['trmnl-x']);
    expect(FAMILIES['black/white, small']).toEqual(['waveshare-2in13', 'waveshare-2in9']);
  });

  for (const [family, ids] of Object.entries(FAMILIES)) {
    it(
      `${family}: ${ids.join(', ')}`,
      async () => {
        const panels = ids.map(loadPanel);
        await fc.assert(
          fc.asyncProperty(fc.nat(ids.length - 1), inputArb, optionsArb, async (which, input, opts) => {
            const panel = panels[which]!;
            const frame = await renderFrame(input, panel, opts);
            const size = viewSize(panel, opts.rotation);
            expect([frame.width, frame.height]).toEqual([size.width, size.height]);
            expect(frame.hash).toBe(createHash('sha256').update(frame.png).digest('hex'));
            const png = PNG.sync.read(frame.png);
            expect([png.width, png.height]).toEqual([size.width, size.height]);
            expect(offPalette(png, panel), `${panel.id} rotation ${opts.rotation}`).toEqual([]);
          }),
          { numRuns: runs(RUNS[family]!) },
        );
      },
      timeout(60_000),
    );
  }
});
