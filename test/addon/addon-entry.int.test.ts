import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { runAddonEntry } from '../../src/config/addon-entry.js';
import { loadConfig } from '../../src/config/load.js';
import { buildDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { EXIT } from '../../src/shared/exit-codes.js';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { freePort } from '../helpers/free-port.js';

const KEY = 'sk_live_addontestkey_0123456789';

const form = {
  api_key: KEY,
  api_base_url: 'https://api.example.com/v1',
  credits_per_month: 3000,
  displays: [{ id: 'hallway', name: 'Hallway', lat: 52.52, lon: 13.405, panel: 'waveshare-7in5-v2', schedule: 'auto' }],
};

interface Run {
  code: number;
  out: string[];
  err: string[];
  dir: string;
  file: (name: string) => string;
}

/** The entry with every path inside a temp folder (the add-on's /data and /config), and an empty environment. */
async function entry(options: unknown, userYaml?: string, raw?: string): Promise<Run> {
  const dir = await mkdtemp(path.join(tmpdir(), 'outfit-addon-'));
  const file = (name: string): string => path.join(dir, name);
  await writeFile(file('options.json'), raw ?? JSON.stringify(options));
  if (userYaml !== undefined) await writeFile(file('outfit-display.yaml'), userYaml);
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAddonEntry(
    [
      '--options',
      file('options.json'),
      '--user-config',
      file('outfit-display.yaml'),
      '--out',
      file('config.yaml'),
      '--key-file',
      file('api-key'),
      '--output-dir',
      file('frames'),
      '--state-dir',
      file('state'),
    ],
    { out: (l) => out.push(l), err: (l) => err.push(l), env: {} },
  );
  return { code, out, err, dir, file };
}

function codes(lines: string[]): string[] {
  return lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
}

let daemon: Daemon | null = null;
afterEach(async () => {
  await daemon?.stop();
  daemon = null;
});

describe('add-on entry', () => {
  it('writes the key to a 0600 file the config names, never printing it, and a config the loader accepts', async () => {
    const r = await entry(form);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(EXIT.OK);
    expect((await stat(r.file('api-key'))).mode & 0o777).toBe(0o600);
    expect((await readFile(r.file('api-key'), 'utf8')).trim()).toBe(KEY);
    const yaml = await readFile(r.file('config.yaml'), 'utf8');
    expect(yaml).not.toContain(KEY);
    expect([...r.out, ...r.err].join('\n')).not.toContain(KEY);
    const loaded = await loadConfig(r.file('config.yaml'), { env: {} });
    expect(loaded.secrets.apiKey).toBe(KEY);
    expect(loaded.config.api.key_file).toBe(r.file('api-key'));
    expect(loaded.config.http?.listen).toBe('0.0.0.0:8321');
  });

  it('options with the simulated service become a daemon that draws a frame and keeps its state', async () => {
    const port = await freePort();
    // The user's file moves the HTTP server onto loopback (the add-on's 0.0.0.0:8321 would be taken or exposed here).
    const r = await entry(
      { ...form, api_key: DEMO_API_KEY, api_base_url: 'simulated', timezone: 'Europe/Berlin' },
      `http:\n  listen: 127.0.0.1:${port}\n`,
    );
    expect(r.err).toEqual([]);
    expect(r.code).toBe(EXIT.OK);
    const loaded = await loadConfig(r.file('config.yaml'), { env: {} });
    const { logger, text } = capturingLogger();
    daemon = await buildDaemon({ loaded, logger });
    const results = await daemon.runOnce();
    expect([...results.values()].map((x) => x.published)).toEqual([true]);
    const png = PNG.sync.read(await readFile(r.file('frames/hallway.png')));
    expect([png.width, png.height]).toEqual([800, 480]);
    expect((await stat(r.file('frames/hallway.json'))).isFile()).toBe(true);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    await daemon.stop();
    daemon = null;
    // The state in state_dir: the last good answer and the credit ledger.
    expect((await stat(r.file('state/last/hallway.json'))).isFile()).toBe(true);
    expect((await stat(r.file('state/budget-ledger.json'))).isFile()).toBe(true);
    expect(text()).not.toContain(DEMO_API_KEY);
  });

  it('bad options: exit 2, one E_CONFIG line naming each option, no config written', async () => {
    const r = await entry({ ...form, credits_per_month: 'lots', displays: [{ ...form.displays[0], lon: 200 }] });
    expect(r.code).toBe(EXIT.USAGE);
    const msgs = codes(r.err);
    expect(msgs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^E_CONFIG: option credits_per_month: /),
        expect.stringMatching(/^E_CONFIG: option displays\[0\]\.lon: /),
      ]),
    );
    expect(r.err.every((l) => (JSON.parse(l) as { code: string }).code === 'E_CONFIG')).toBe(true);
    await expect(stat(r.file('config.yaml'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(r.err.join('\n')).not.toContain(KEY);
  });

  it('what only the loader can check is said as the option too (cron, budget, the key)', async () => {
    const r = await entry({
      ...form,
      api_key: '',
      credits_per_month: undefined,
      displays: [{ ...form.displays[0], schedule: 'every day' }],
    });
    expect(r.code).toBe(EXIT.USAGE);
    const msgs = codes(r.err);
    expect(msgs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^E_CONFIG: option displays\[0\]\.schedule: not a valid cron expression/),
        expect.stringMatching(/^E_CONFIG: option credits_per_month \(or credits_per_day\): /),
      ]),
    );
    // Schema problems stop the loader before the secrets; with the rest fixed, a missing key is the form's api_key.
    const noKey = await entry({ ...form, api_key: '' });
    expect(codes(noKey.err)).toEqual([expect.stringMatching(/^E_CONFIG: option api_key: .*E_SECRET_MISSING/)]);
    const none = await entry({ ...form, displays: [] });
    expect(codes(none.err)).toEqual([
      expect.stringMatching(/^E_CONFIG: option displays: must list at least one display/),
    ]);
    // Nothing is left for a daemon to start with: neither the config nor the file it was checked under.
    for (const run of [r, noKey, none]) expect(await readdir(run.dir)).not.toContain('config.yaml');
    expect((await readdir(none.dir)).filter((f) => f.includes('candidate'))).toEqual([]);
  });

  it('options that are not JSON: exit 2 without quoting the text (it may hold the key)', async () => {
    const r = await entry(null, undefined, `{"api_key": "${KEY}",`);
    expect(r.code).toBe(EXIT.USAGE);
    expect(codes(r.err)).toEqual([expect.stringMatching(/options\.json: not JSON$/)]);
    expect(r.err.join('\n')).not.toContain(KEY);
  });

  it('a user file with a bad key is named as the file and key', async () => {
    const r = await entry(form, 'http:\n  listen: nowhere\n');
    expect(r.code).toBe(EXIT.USAGE);
    expect(codes(r.err)).toEqual([
      expect.stringContaining(`E_CONFIG: ${r.file('outfit-display.yaml')}: http.listen: `),
    ]);
  });
});
