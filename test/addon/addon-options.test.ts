import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { ADDON_HTTP_LISTEN, convertAddonOptions, type AddonPaths } from '../../src/config/addon-options.js';

const paths: AddonPaths = {
  keyFile: '/data/api-key',
  outputDir: '/data/frames',
  stateDir: '/data',
  userFile: '/config/outfit-display.yaml',
};

const form = {
  api_key: 'sk_live_formkey123456',
  api_base_url: 'https://api.example.com/v1',
  credits_per_month: 3000,
  displays: [{ id: 'hallway', name: 'Hallway', lat: 52.52, lon: 13.405, panel: 'waveshare-7in5-v2', schedule: 'auto' }],
};

function ok(options: unknown, yaml: string | null = null) {
  const r = convertAddonOptions(options, yaml, paths);
  if (!r.ok) throw new Error(`expected a config, got ${r.problems.join('; ')}`);
  return r;
}

function problems(options: unknown, yaml: string | null = null): string[] {
  const r = convertAddonOptions(options, yaml, paths);
  if (r.ok) throw new Error('expected problems');
  return r.problems;
}

describe('add-on options → config', () => {
  it('gives a config the schema accepts, with the add-on paths, the key as a file and no key in it', () => {
    const r = ok(form);
    expect(r.apiKey).toBe(form.api_key);
    expect(r.config).toMatchObject({
      api: { base_url: form.api_base_url, key_file: '/data/api-key' },
      budget: { credits_per_month: 3000 },
      output_dir: '/data/frames',
      state_dir: '/data',
      http: { listen: ADDON_HTTP_LISTEN },
    });
    expect(JSON.stringify(r.config)).not.toContain(form.api_key);
    expect(parseConfig(r.config).ok).toBe(true);
  });

  it('leaves api.key_file out when the form has no key (simulated service)', () => {
    const r = ok({ ...form, api_key: '', api_base_url: 'simulated' });
    expect(r.apiKey).toBeNull();
    expect(r.config.api).toEqual({ base_url: 'simulated' });
  });

  it('the file adds what the form cannot say; the form wins on keys both set; displays merge by id', () => {
    const yaml = [
      'api: { base_url: "https://other.example/v1", timeout_s: 30, key_file: /config/key }',
      'budget: { credits_per_month: 10, credits_per_day: 50, pace_over_budget: false }',
      'timezone: America/New_York',
      'http: { listen: "127.0.0.1:9000", allowed_hosts: [ha.example] }',
      'output_dir: /share/outfit-display',
      'mqtt: { url: "mqtt://10.0.0.2:1883" }',
      'displays:',
      '  - { id: kitchen, lat: 1, lon: 2 }',
      '  - { id: hallway, lat: 0, lon: 0, panel: waveshare-4in2, rotation: 90, dither: atkinson }',
    ].join('\n');
    const r = ok({ ...form, timezone: 'Europe/Berlin' }, yaml);
    const c = r.config;
    expect(c.api).toEqual({ base_url: form.api_base_url, timeout_s: 30, key_file: '/data/api-key' });
    expect(c.budget).toEqual({ credits_per_month: 3000, credits_per_day: 50, pace_over_budget: false });
    expect(c.timezone).toBe('Europe/Berlin');
    expect(c.http).toEqual({ listen: '127.0.0.1:9000', allowed_hosts: ['ha.example'] });
    expect(c.output_dir).toBe('/share/outfit-display');
    expect(c.state_dir).toBe('/data');
    expect(c.mqtt).toEqual({ url: 'mqtt://10.0.0.2:1883' });
    expect(c.displays).toEqual([
      {
        id: 'hallway',
        name: 'Hallway',
        lat: 52.52,
        lon: 13.405,
        panel: 'waveshare-7in5-v2',
        schedule: 'auto',
        rotation: 90,
        dither: 'atkinson',
      },
      { id: 'kitchen', lat: 1, lon: 2 },
    ]);
    expect(parseConfig(c).ok).toBe(true);
  });

  it('an optional key the form leaves out comes from the file', () => {
    const r = ok(form, 'timezone: Asia/Tokyo\nlog_level: debug\n');
    expect(r.config).toMatchObject({ timezone: 'Asia/Tokyo', log_level: 'debug' });
    // The form's key file wins over the file's only when the form has a key.
    const keyless = ok({ ...form, api_key: '' }, 'api: { key_file: /config/key }\n');
    expect(keyless.config.api).toEqual({ base_url: form.api_base_url, key_file: '/config/key' });
  });

  it('passes timezone, locale and log_level on when the form sets them', () => {
    const r = ok({ ...form, timezone: 'Europe/Berlin', locale: 'de', log_level: 'debug' });
    expect(r.config).toMatchObject({ timezone: 'Europe/Berlin', locale: 'de', log_level: 'debug' });
    expect(parseConfig(r.config).ok).toBe(true);
  });

  it('refuses bad options, each naming the option', () => {
    const p = problems({
      ...form,
      credits_per_month: -1,
      extra: 1,
      displays: [{ id: 'Hall way', lat: 95, lon: 13, panel: 'nope' }],
    });
    expect(p).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^option credits_per_month: /),
        expect.stringMatching(/^option \(top level\): unknown option extra/),
        expect.stringMatching(/^option displays\[0\]\.id: /),
        expect.stringMatching(/^option displays\[0\]\.lat: must be between -90 and 90/),
        expect.stringMatching(/^option displays\[0\]\.panel: must be one of .*waveshare-7in5-v2/),
      ]),
    );
    expect(problems({ api_key: '' })).toEqual(
      expect.arrayContaining(['option api_base_url: required', 'option displays: required']),
    );
    expect(problems({ ...form, api_key: 42 }).join('\n')).toMatch(/^option api_key: /);
  });

  it('refuses a user file that is no YAML mapping, naming the file', () => {
    expect(problems(form, '- a\n- b\n')).toEqual([`${paths.userFile}: must be a mapping (key: value lines)`]);
    expect(problems(form, 'a: [\n')[0]).toMatch(/^\/config\/outfit-display\.yaml: /);
  });

  it("says a loader problem as the form's option or the file's key", () => {
    const r = ok(
      { ...form, displays: [...form.displays, { id: 'b', lat: 1, lon: 1, panel: 'waveshare-4in2', schedule: 'x' }] },
      'displays:\n  - { id: c, lat: 1, lon: 1, rotation: 45 }\n  - { id: b, lat: 0, lon: 0, dither: nope }\n',
    );
    expect(r.describe('displays[1].schedule: not a valid cron expression "x"')).toBe(
      'option displays[1].schedule: not a valid cron expression "x"',
    );
    expect(r.describe('displays[1].dither: must be one of "floyd-steinberg"')).toBe(
      `${paths.userFile}: displays[1].dither: must be one of "floyd-steinberg"`,
    );
    expect(r.describe('displays[2].rotation: must be one of 0, 90')).toBe(
      `${paths.userFile}: displays[0].rotation: must be one of 0, 90`,
    );
    expect(r.describe('budget.credits_per_month: too big')).toBe('option credits_per_month: too big');
    expect(r.describe('budget.credits_per_day: too big')).toBe(`${paths.userFile}: budget.credits_per_day: too big`);
    expect(r.describe('api.key_file: /data/api-key is empty (E_SECRET_EMPTY)')).toBe(
      'option api_key: /data/api-key is empty (E_SECRET_EMPTY)',
    );
  });
});
