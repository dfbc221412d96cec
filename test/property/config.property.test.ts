import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ConfigError, loadConfig, parseConfig } from '../../src/config/load.js';
import { listPanelIds } from '../../src/panels/panels.js';
import { mutate, mutationArb, runs, timeout } from './arbitraries.js';

/**
 * The config loader only ever returns a config or a list of problems: parseConfig never throws, whatever it is given;
 * loadConfig resolves with a complete config or rejects with a ConfigError that lists every problem, whatever the
 * file holds (YAML or not, anchors and aliases included).
 */

const PANELS = listPanelIds();

const displayArb = fc.record(
  {
    id: fc.stringMatching(/^[a-z0-9_-]{1,10}$/),
    name: fc.string({ minLength: 1, maxLength: 20 }),
    lat: fc.double({ min: -90, max: 90, noNaN: true }),
    lon: fc.double({ min: -180, max: 180, noNaN: true }),
    unit: fc.constantFrom('metric', 'imperial'),
    gender: fc.string({ maxLength: 30 }),
    panel: fc.constantFrom(...PANELS),
    rotation: fc.constantFrom(0, 90, 180, 270),
    schedule: fc.constantFrom('auto', '*/30 6-22 * * *', '0 7 * * 1-5', '0 */2 * * *', '30 0 8 * * *'),
    endpoint: fc.constantFrom('recweather', 'recommend'),
    dither: fc.constantFrom('floyd-steinberg', 'atkinson', 'ordered'),
    home_assistant: fc.boolean(),
    change_aware: fc.record(
      { temp_delta: fc.integer({ min: 1, max: 10 }), max_age_minutes: fc.integer({ min: 1, max: 600 }) },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['id', 'lat', 'lon'] },
);

/** A config that is valid or nearly so (duplicate ids, active_hours with a cron schedule...): the loader's own ground. */
const configArb = fc.record(
  {
    api: fc.record(
      {
        base_url: fc.constantFrom('simulated', 'https://outfit.example/v1', 'http://127.0.0.1:8780/v1'),
        timeout_s: fc.integer({ min: 1, max: 300 }),
      },
      { requiredKeys: ['base_url'] },
    ),
    budget: fc.record(
      {
        credits_per_day: fc.nat(1000),
        credits_per_month: fc.nat(30_000),
        rate_limit_per_minute: fc.integer({ min: 1, max: 120 }),
        refresh_reserve_credits: fc.nat(20),
      },
      { requiredKeys: ['credits_per_day'] },
    ),
    timezone: fc.constantFrom('Europe/Berlin', 'UTC', 'America/New_York', 'Australia/Lord_Howe', 'Mars/Olympus'),
    displays: fc.array(displayArb, { minLength: 1, maxLength: 3 }),
    mqtt: fc.record(
      {
        url: fc.constantFrom('embedded', 'mqtt://127.0.0.1:1883'),
        base_topic: fc.constantFrom('outfit-display', 'a/#'),
      },
      { requiredKeys: ['url'] },
    ),
    http: fc.record(
      { listen: fc.constantFrom('127.0.0.1:8321', '[::1]:0', '0.0.0.0:80', 'nonsense') },
      { requiredKeys: [] },
    ),
    output_dir: fc.constantFrom('frames', '/tmp/frames'),
    log_level: fc.constantFrom('info', 'debug', 'loud'),
  },
  { requiredKeys: ['api', 'budget', 'displays'] },
);

const nearlyValidArb = fc.tuple(configArb, fc.array(mutationArb, { maxLength: 3 })).map(([c, ms]) => mutate(c, ms));

type Parsed = ReturnType<typeof parseConfig>;

function checkShape(r: Parsed): void {
  expect(typeof r).toBe('object');
  if (r.ok) {
    expect(Object.keys(r)).toEqual(['ok', 'config']);
    expect(r.config.displays.length).toBeGreaterThan(0);
  } else {
    expect(Object.keys(r)).toEqual(['ok', 'problems']);
    expect(r.problems.length).toBeGreaterThan(0);
    for (const p of r.problems) {
      expect(typeof p).toBe('string');
      // "key.path: what is wrong"
      expect(p).toMatch(/^.+?: \S/s);
    }
  }
}

describe('parseConfig returns a config or problems, never throws', () => {
  it(
    'for any value at all',
    () => {
      fc.assert(
        fc.property(
          fc.anything({
            withNullPrototype: true,
            withBigInt: true,
            withDate: true,
            withMap: true,
            withSet: true,
            withTypedArray: true,
          }),
          (raw) => {
            checkShape(parseConfig(raw));
          },
        ),
        { numRuns: runs(300) },
      );
    },
    timeout(30_000),
  );

  it(
    'for valid configs with random values replaced, deleted or added; a config it returns parses again to itself',
    () => {
      let ok = 0;
      fc.assert(
        fc.property(nearlyValidArb, (raw) => {
          const r = parseConfig(raw);
          checkShape(r);
          if (r.ok) {
            ok++;
            const again = parseConfig(r.config);
            expect(again).toEqual({ ok: true, config: r.config });
          }
        }),
        { numRuns: runs(400) },
      );
      // The generator is not only producing garbage: a fair share of the configs is valid.
      expect(ok).toBeGreaterThan(20);
    },
    timeout(30_000),
  );
});

describe('loadConfig resolves with a config or rejects with a ConfigError, never anything else', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'outfit-prop-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const toYaml = (v: unknown): string => stringify(v, { aliasDuplicateObjects: false }) ?? '';

  /** YAML text: a (nearly) valid config written out, maybe cut or spliced with YAML's own special syntax. */
  const yamlText = fc.oneof(
    { arbitrary: configArb.map(toYaml), weight: 3 },
    { arbitrary: nearlyValidArb.map(toYaml), weight: 2 },
    fc
      .tuple(
        nearlyValidArb,
        fc.nat(),
        fc.constantFrom(
          '&a ',
          '*a',
          '*nope',
          '<<: *a\n',
          '!!binary ',
          '!!timestamp x',
          '? ',
          '|\n',
          ': ',
          '- ',
          '{',
          ']',
          '\t',
          '%YAML 1.2\n---\n',
          '---\n',
          '...\n',
          '"\\u12',
        ),
      )
      .map(([c, at, junk]) => {
        const text = toYaml(c);
        const i = at % (text.length + 1);
        return text.slice(0, i) + junk + text.slice(i);
      }),
    // Anchors and aliases, including aliases of aliases (an expansion bomb) and an alias with no anchor.
    fc
      .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }), fc.boolean())
      .map(([levels, width, dangling]) => {
        let s = 'l0: &a0 [x]\n';
        for (let i = 1; i <= levels; i++)
          s += `l${i}: &a${i} [${Array.from({ length: width }, () => `*a${i - 1}`).join(', ')}]\n`;
        return `${s}${dangling ? 'api: *missing\n' : ''}api: {base_url: simulated}\n`;
      }),
    fc.string({ unit: fc.constantFrom(...'ab:- \n\t&*!|>"\'{}[],#%@`?~0123456789'.split('')), maxLength: 120 }),
    fc.string({ maxLength: 60 }),
  );

  it(
    'for any file content',
    async () => {
      let loaded = 0;
      let file = 0;
      await fc.assert(
        fc.asyncProperty(yamlText, async (text) => {
          const f = path.join(dir, `c${file++}.yaml`);
          await writeFile(f, text);
          try {
            const c = await loadConfig(f, { env: { OUTFIT_API_KEY: 'sk_live_property' } });
            loaded++;
            expect(c.config.displays.length).toBeGreaterThan(0);
            expect(Array.isArray(c.warnings)).toBe(true);
          } catch (err) {
            if (!(err instanceof ConfigError))
              throw new Error(`loadConfig threw ${String(err)} (not a ConfigError) for:\n${text}`);
            expect(err.problems.length).toBeGreaterThan(0);
            for (const p of err.problems) expect(p).toMatch(/^.+?: \S/s);
          } finally {
            await rm(f, { force: true });
          }
        }),
        { numRuns: runs(250) },
      );
      expect(loaded).toBeGreaterThan(10);
    },
    timeout(30_000),
  );
});
