import { readdir, readFile, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { EXIT } from '../../src/shared/exit-codes.js';
import { codes, entry, form, KEY } from './entry.js';

/** The add-on's entry: the form's options become a config and a key file (the daemon built from them: addon-entry.int.test.ts). */

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
