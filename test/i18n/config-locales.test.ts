import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseConfig } from '../../src/config/load.js';
import { frameContent } from '../../src/render/layout/content.js';
import { formatNumber } from '../../src/render/layout/format.js';
import { NORMAL, SAMPLE_NOW, SAMPLE_TIMEZONE } from '../fixtures/samples.js';

const CONFIG = `api:
  base_url: simulated
budget:
  credits_per_day: 200
timezone: Europe/Berlin
displays:
  - id: hallway
    lat: 52.52
    lon: 13.405
  - id: kitchen
    lat: 52.52
    lon: 13.405
    locale: fr
output_dir: frames
state_dir: state
`;

async function configDir(extra = '', locales: Record<string, string> = {}, dirName = 'locales'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'outfit-locale-'));
  await writeFile(path.join(dir, 'config.yaml'), CONFIG + extra);
  if (Object.keys(locales).length > 0) await mkdir(path.join(dir, dirName));
  for (const [name, text] of Object.entries(locales)) await writeFile(path.join(dir, dirName, name), text);
  return path.join(dir, 'config.yaml');
}

async function problems(file: string): Promise<string[]> {
  const err = await loadConfig(file, { env: {} }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  expect((err as ConfigError).code).toBe('E_CONFIG');
  return (err as ConfigError).problems;
}

describe('the locale key', () => {
  it('is English by default; a display’s own locale wins over the config’s', async () => {
    const en = await loadConfig(await configDir(), { env: {} });
    expect(en.config.locale).toBe('en');
    expect(en.locales?.get('hallway')?.code).toBe('en');
    expect(en.locales?.get('kitchen')?.code).toBe('fr');
    const de = await loadConfig(await configDir('locale: de\n'), { env: {} });
    expect(de.locales?.get('hallway')?.labels.feels_like).toBe('Gefühlt {temp}');
    expect(de.locales?.get('kitchen')?.code).toBe('fr');
  });

  it('refuses an unknown locale, naming the key, the value and the known ones', async () => {
    const p = await problems(await configDir('locale: tlh\n'));
    expect(p).toEqual([
      expect.stringMatching(/^locale: unknown locale "tlh" \(known: en, en-US, de, fr, es, it, nl, pl, sv\)$/),
    ]);
    const r = parseConfig({
      api: { base_url: 'simulated' },
      budget: { credits_per_day: 1 },
      displays: [{ id: 'a', lat: 0, lon: 0, locale: 'xx' }],
    });
    expect(r.ok ? [] : r.problems).toEqual([
      expect.stringContaining('displays[0].locale: unknown locale "xx" (known: en,'),
    ]);
    const bad = parseConfig({
      api: { base_url: 'simulated' },
      budget: { credits_per_day: 1 },
      displays: [{ id: 'a', lat: 0, lon: 0 }],
      locale: 'de_DE!',
    });
    expect(bad.ok ? [] : bad.problems).toEqual(
      expect.arrayContaining([expect.stringContaining('locale: must be a locale code')]),
    );
  });
});

describe("a user's own locale file", () => {
  const PT = `tag: pt-PT
labels:
  feels_like: "Sensação {temp}"
  updated: "Atualizado {time}"
  stale_badge: "ANTIGO"
`;

  it('adds a language without code: its labels, its Intl tag, and English with W_LOCALE_LABELS_MISSING for the rest', async () => {
    const loaded = await loadConfig(await configDir('locale: pt\n', { 'pt.yaml': PT, 'README.md': 'not a locale' }), {
      env: {},
    });
    const pt = loaded.locales?.get('hallway');
    expect(pt).toMatchObject({ code: 'pt', tag: 'pt-PT' });
    expect(pt?.labels.feels_like).toBe('Sensação {temp}');
    expect(pt?.labels.stale_title).toBe('Out of date');
    const warning = loaded.warnings.find((w) => w.startsWith('W_LOCALE_LABELS_MISSING'));
    expect(warning).toContain('pt.yaml');
    expect(warning).toContain('weather_alert');
    // feels_like is in the file; its short form (a newer label) is not.
    expect(warning).not.toMatch(/feels_like(?!_short)/);
    expect(warning).toContain('feels_like_short');
    const c = frameContent({
      rec: NORMAL,
      displayName: 'Hall',
      timezone: SAMPLE_TIMEZONE,
      status: { kind: 'ok' },
      now: SAMPLE_NOW,
      locale: pt!,
    });
    expect(c.updated).toBe('07:30');
    expect(formatNumber(2.5, pt)).toBe('2,5');
  });

  it('falls back to the built-in language of its tag, and may replace a built-in locale', async () => {
    const loaded = await loadConfig(
      await configDir('locale: de-AT\n', {
        'de-AT.yaml': 'labels:\n  updated: "Stand: {time}"\n',
        'fr.json': '{"labels": {"feels_like": "Température ressentie {temp}"}}',
      }),
      { env: {} },
    );
    expect(loaded.locales?.get('hallway')).toMatchObject({
      tag: 'de-AT',
      labels: { updated: 'Stand: {time}', feels_like: 'Gefühlt {temp}' },
    });
    expect(loaded.locales?.get('kitchen')?.labels).toMatchObject({
      feels_like: 'Température ressentie {temp}',
      updated: 'Mis à jour {time}',
    });
    expect(loaded.warnings.filter((w) => w.startsWith('W_LOCALE_LABELS_MISSING'))).toHaveLength(2);
  });

  it('comes from locales_dir when the config names one', async () => {
    const file = await configDir('locales_dir: my-languages\nlocale: pt\n', { 'pt.yml': PT }, 'my-languages');
    expect((await loadConfig(file, { env: {} })).locales?.get('hallway')?.code).toBe('pt');
    expect(await problems(await configDir('locales_dir: nowhere\n'))).toEqual([
      expect.stringMatching(/^locales_dir: cannot read .*nowhere: ENOENT$/),
    ]);
  });

  it('is refused, with every problem named, for unknown labels, placeholders and tags', async () => {
    const bad = 'tag: "not a tag!"\nlabels:\n  feels_lik: "x"\n  updated: "Atualizado {hora}"\n  stale_badge: ""\n';
    const p = await problems(await configDir('locale: pt\n', { 'pt.yaml': bad }));
    expect(p).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/pt\.yaml: tag: must be a BCP 47 language tag/),
        expect.stringMatching(/pt\.yaml: labels\.feels_lik: unknown key$/),
        expect.stringMatching(/pt\.yaml: labels\.stale_badge: must not be empty$/),
      ]),
    );
    const placeholder = await problems(
      await configDir('locale: pt\n', { 'pt.yaml': 'labels:\n  updated: "Atualizado {hora}"\n' }),
    );
    expect(placeholder).toEqual([
      expect.stringMatching(/pt\.yaml: labels\.updated: unknown placeholder \{hora\} \(this label can use \{time\}\)$/),
    ]);
    const yaml = await problems(await configDir('locale: pt\n', { 'pt.yaml': 'labels: [unclosed\n' }));
    expect(yaml).toEqual([expect.stringContaining('pt.yaml: ')]);
  });

  it('stops nothing when it is broken but unused', async () => {
    const loaded = await loadConfig(await configDir('', { 'pt.yaml': 'labels: 3\n' }), { env: {} });
    expect(loaded.warnings.filter((w) => w.includes('LOCALE'))).toEqual([]);
  });
});
