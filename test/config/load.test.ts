import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPath } from '../../src/shared/describe-issue.js';
import { ConfigError, loadConfig, parseConfig } from '../../src/config/load.js';

const base = {
  api: { base_url: 'https://outfit.example/v1' },
  budget: { credits_per_day: 200 },
  timezone: 'Europe/Berlin',
  displays: [{ id: 'hallway', lat: 52.52, lon: 13.405, schedule: '*/30 6-22 * * *' }],
};

async function tmp(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'outfit-config-'));
}

async function configError(p: Promise<unknown>): Promise<ConfigError> {
  const err = await p.then(
    () => new Error('expected a ConfigError'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return err as ConfigError;
}

async function writeConfig(dir: string, yaml: string): Promise<string> {
  const file = path.join(dir, 'config.yaml');
  await writeFile(file, yaml);
  return file;
}

function problems(raw: unknown): string[] {
  const r = parseConfig(raw);
  if (r.ok) throw new Error('expected problems');
  return r.problems;
}

describe('parseConfig', () => {
  it('applies the documented defaults', () => {
    const r = parseConfig(base);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const d = r.config.displays[0];
    expect(d).toMatchObject({
      unit: 'metric',
      gender: '',
      panel: 'waveshare-7in5-v2',
      rotation: 0,
      endpoint: 'recweather',
    });
    expect(r.config.api.timeout_s).toBe(20);
    expect(r.config.budget.rate_limit_per_minute).toBe(60);
    expect(r.config.budget.weather_credit_cost).toBe(1);
    expect(r.config.log_level).toBe('info');
  });

  it('reports every problem at once, each with its key path', () => {
    const p = problems({
      ...base,
      displays: [
        { id: 'ok', lat: 1, lon: 2 },
        { id: 'Bad Id', lat: 91, lon: -200, unit: 'kelvin', gender: 'x'.repeat(31), rotation: 45 },
      ],
    });
    expect(p).toEqual(
      expect.arrayContaining([
        'displays[1].id: must match [a-z0-9_-]+',
        'displays[1].lat: must be between -90 and 90',
        'displays[1].lon: must be between -180 and 180',
        'displays[1].unit: must be one of "metric", "imperial" (got "kelvin")',
        'displays[1].gender: must be at most 30 characters',
        'displays[1].rotation: must be one of 0, 90, 180, 270 (got 45)',
      ]),
    );
    expect(p).toHaveLength(6);
  });

  it('names the allowed values of every enum and literal union, and what it got', () => {
    const p = problems({
      ...base,
      log_level: 'loud',
      displays: [{ id: 'a', lat: 0, lon: 0, rotation: 45, endpoint: 'weather', dither: 'x'.repeat(100) }],
    });
    expect(p).toEqual([
      'displays[0].rotation: must be one of 0, 90, 180, 270 (got 45)',
      'displays[0].endpoint: must be one of "recweather", "recommend" (got "weather")',
      `displays[0].dither: must be one of "floyd-steinberg", "atkinson", "ordered" (got "${'x'.repeat(36)}...)`,
      'log_level: must be one of "fatal", "error", "warn", "info", "debug", "trace", "silent" (got "loud")',
    ]);
    expect(p.join('\n')).not.toContain('Invalid input');
    // Whatever it got: a value YAML cannot even produce, a cycle.
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(problems({ ...base, log_level: [10n], displays: [{ id: 'a', lat: 0, lon: 0, rotation: cycle }] })).toEqual([
      'displays[0].rotation: must be one of 0, 90, 180, 270 (got <ref *1> { self: [Circular *1] })',
      'log_level: must be one of "fatal", "error", "warn", "info", "debug", "trace", "silent" (got [ 10n ])',
    ]);
  });

  it('reports a duplicate display id, an unknown panel and a TRMNL device without its display along with other problems', () => {
    const p = problems({
      ...base,
      displays: [
        { id: 'hallway', lat: 0, lon: 0 },
        { id: 'hallway', lat: 0, lon: 0, panel: 'crt-9000' },
        { id: 'porch', lat: 'north', lon: 0, colour: 'red' },
      ],
      trmnl: { devices: [{ mac: 'AA:BB:CC:DD:EE:FF', display: 'kitchen', token: 'abcdefgh' }] },
    });
    expect(p).toEqual(
      expect.arrayContaining([
        'displays[2].lat: must be a number',
        'displays[2].colour: unknown key',
        'displays[1].id: duplicate display id "hallway" (also displays[0].id)',
        'trmnl.devices[0].display: no display with id "kitchen"',
      ]),
    );
    expect(p.some((x) => x.startsWith('displays[1].panel: unknown panel "crt-9000"'))).toBe(true);
    expect(p).toHaveLength(5);
  });

  it('refuses an http.listen port above 65535 or a host that is no address, naming the key; port 0 means any free port', () => {
    const listen = (l: string): ReturnType<typeof parseConfig> => parseConfig({ ...base, http: { listen: l } });
    for (const ok of ['127.0.0.1:0', '127.0.0.1:65535', '[::1]:8321', 'localhost:1', '0.0.0.0:80']) {
      expect(listen(ok).ok, ok).toBe(true);
    }
    for (const bad of [
      '127.0.0.1:99999',
      '127.0.0.1:65536',
      '999.1.1.1:80',
      '[fe80::1::2]:80',
      '127.0.0.1',
      'nonsense',
    ]) {
      const r = listen(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.problems, bad).toEqual([expect.stringMatching(/^http\.listen: /)]);
    }
    const r = listen('127.0.0.1:99999');
    expect(!r.ok && r.problems[0]).toMatch(/port 99999 .*0\.\.65535/);
  });

  it('rejects unknown keys anywhere, naming them', () => {
    const p = problems({ ...base, colour: 'red', api: { ...base.api, timeout: 5 } });
    expect(p).toEqual(expect.arrayContaining(['colour: unknown key', 'api.timeout: unknown key']));
  });

  it('rejects duplicate display ids', () => {
    const p = problems({ ...base, displays: [base.displays[0], { id: 'hallway', lat: 0, lon: 0 }] });
    expect(p).toEqual(['displays[1].id: duplicate display id "hallway" (also displays[0].id)']);
  });

  it('rejects a base_url without /v1, an unknown time zone, a missing budget, an empty display list', () => {
    const p = problems({
      api: { base_url: 'https://x.example/v2' },
      budget: {},
      timezone: 'Mars/Olympus',
      displays: [],
    });
    expect(p).toEqual(
      expect.arrayContaining([
        'api.base_url: must be an http(s) URL ending with /v1, or "simulated"',
        'budget: set credits_per_day, credits_per_month, or both',
        'timezone: must be an IANA time zone such as Europe/Berlin',
        'displays: must list at least one display',
      ]),
    );
  });

  it('reports required keys and wrong types', () => {
    const p = problems({
      api: { base_url: 'simulated' },
      budget: { credits_per_day: 'many' },
      displays: [{ id: 'a' }],
    });
    expect(p).toEqual(
      expect.arrayContaining([
        'budget.credits_per_day: must be a number',
        'displays[0].lat: required',
        'displays[0].lon: required',
      ]),
    );
  });

  it('rejects an unknown panel and a bad cron expression, listing the known panels', () => {
    const p = problems({ ...base, displays: [{ id: 'a', lat: 0, lon: 0, panel: 'crt-9000', schedule: '61 * * * *' }] });
    expect(p).toHaveLength(2);
    expect(p[0]).toMatch(/^displays\[0\]\.panel: unknown panel "crt-9000" \(known: .*waveshare-7in5-v2/);
    expect(p[1]).toMatch(/^displays\[0\]\.schedule: not a valid cron expression "61 \* \* \* \*"/);
  });

  it('rejects a TRMNL device that names no display, or has both a token and a token file', () => {
    const p = problems({
      ...base,
      trmnl: { devices: [{ mac: 'AA:BB:CC:DD:EE:FF', display: 'kitchen', token: 'abcdefgh', token_file: 't' }] },
    });
    expect(p).toEqual(
      expect.arrayContaining([
        'trmnl.devices[0]: set token_file or token, not both',
        'trmnl.devices[0].display: no display with id "kitchen"',
      ]),
    );
    // Neither is fine here: the token may come from the systemd credential (test/config/secrets.test.ts).
    expect(parseConfig({ ...base, trmnl: { devices: [{ mac: 'AA:BB:CC:DD:EE:FF', display: 'hallway' }] } }).ok).toBe(
      true,
    );
  });

  it('formats key paths the way a user reads them', () => {
    expect(formatPath(['displays', 1, 'lat'])).toBe('displays[1].lat');
    expect(formatPath([])).toBe('(top level)');
  });
});

describe('loadConfig', () => {
  const yaml = `api:\n  base_url: https://outfit.example/v1\n  key_file: key\nbudget:\n  credits_per_day: 200\ntimezone: Europe/Berlin\ndisplays:\n  - id: hallway\n    lat: 52.52\n    lon: 13.405\noutput_dir: frames\nstate_dir: state\n`;

  it('resolves relative paths against the config file and reads the key file', async () => {
    const dir = await tmp();
    await writeFile(path.join(dir, 'key'), 'sk_live_abc123\n', { mode: 0o600 });
    const loaded = await loadConfig(await writeConfig(dir, yaml), { env: {} });
    expect(loaded.config.output_dir).toBe(path.join(dir, 'frames'));
    expect(loaded.config.state_dir).toBe(path.join(dir, 'state'));
    expect(loaded.secrets.apiKey).toBe('sk_live_abc123');
    expect(loaded.warnings).toEqual([]);
  });

  it('takes the key from the systemd credential first, then OUTFIT_API_KEY, then key_file', async () => {
    const dir = await tmp();
    await writeFile(path.join(dir, 'key'), 'sk_live_file\n', { mode: 0o600 });
    const creds = await tmp();
    await writeFile(path.join(creds, 'outfit-api-key'), 'sk_live_cred\n', { mode: 0o600 });
    const file = await writeConfig(dir, yaml);
    expect((await loadConfig(file, { env: { OUTFIT_API_KEY: 'sk_live_env' } })).secrets.apiKey).toBe('sk_live_env');
    const both = await loadConfig(file, { env: { OUTFIT_API_KEY: 'sk_live_env', CREDENTIALS_DIRECTORY: creds } });
    expect(both.secrets.apiKey).toBe('sk_live_cred');
    expect(both.secrets.apiKeySource).toBe('systemd credential outfit-api-key');
  });

  it('warns about a key without the sk_live_ prefix without printing the key', async () => {
    const dir = await tmp();
    const loaded = await loadConfig(await writeConfig(dir, yaml.replace('  key_file: key\n', '')), {
      env: { OUTFIT_API_KEY: 'hunter2-secret' },
    });
    expect(loaded.warnings).toEqual([
      'W_KEY_PREFIX: environment variable OUTFIT_API_KEY: the API key does not start with the expected prefix sk_live_',
    ]);
    expect(loaded.warnings.join('')).not.toContain('hunter2');
  });

  it('warns about a world-readable key file', async () => {
    const dir = await tmp();
    await writeFile(path.join(dir, 'key'), 'sk_live_abc\n');
    await chmod(path.join(dir, 'key'), 0o644);
    const loaded = await loadConfig(await writeConfig(dir, yaml), { env: {} });
    expect(loaded.warnings).toEqual([
      `W_SECRET_READABLE: api.key_file: ${path.join(dir, 'key')} is readable by every user on this machine; chmod 600 it`,
    ]);
  });

  it('is a config error when a real service has no key at all', async () => {
    const dir = await tmp();
    const file = await writeConfig(dir, yaml.replace('  key_file: key\n', ''));
    const err = await configError(loadConfig(file, { env: {} }));
    expect(err.problems).toEqual([
      'api.key_file: no API key: set api.key_file, the environment variable OUTFIT_API_KEY, or the systemd credential outfit-api-key (E_SECRET_MISSING)',
    ]);
  });

  it('reports a missing key file, a YAML syntax error with its line, and a missing config file', async () => {
    const dir = await tmp();
    const e1 = await configError(loadConfig(await writeConfig(dir, yaml), { env: {} }));
    expect(e1.problems).toEqual([`api.key_file: cannot read ${path.join(dir, 'key')} (ENOENT) (E_SECRET_UNREADABLE)`]);
    const e2 = await configError(loadConfig(await writeConfig(dir, 'api:\n  base_url: [unclosed\n'), { env: {} }));
    expect(e2.problems[0]).toMatch(/^line \d+, column \d+: /);
    const e3 = await configError(loadConfig(path.join(dir, 'nope.yaml')));
    expect(e3.problems).toEqual(['cannot read the file: ENOENT']);
  });

  it('needs no key for the simulated service', async () => {
    const dir = await tmp();
    const file = await writeConfig(dir, yaml.replace('https://outfit.example/v1\n  key_file: key', 'simulated'));
    const loaded = await loadConfig(file, { env: {} });
    expect(loaded.secrets.apiKey).toBeNull();
  });

  it('loads the shipped demo and example configs', async () => {
    await expect(loadConfig('config/demo.yaml', { env: {} })).resolves.toBeTruthy();
    await expect(loadConfig('config/example.yaml', { env: { OUTFIT_API_KEY: 'sk_live_x' } })).resolves.toBeTruthy();
  });
});
