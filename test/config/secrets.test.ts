import { mkdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { envWithoutSecrets, MAX_SECRET_BYTES, trmnlCredentialName } from '../../src/config/secrets.js';
import { codesIn } from '../../src/shared/codes.js';
import { ROOT } from '../helpers/cli.js';
import { expectNoSecret, KEY_A, KEY_B, problemsOf, secretConfigs } from './secret-configs.js';

/**
 * Secret files and variables are checked when the config is loaded: a secret is read only up to a small cap (its
 * size checked before reading), the whitespace around it is stripped, and whitespace or control characters inside,
 * an empty secret, or a file that is no regular file are each a config problem (exit 2) that names the source and
 * never the content. The same for every secret: the API key, the MQTT password and the TRMNL tokens.
 * The checks that need a process (a FIFO, the peak memory of `check-config`, the shipped CLI) are in
 * secrets.int.test.ts.
 */

const setup = secretConfigs();

describe('secret files are checked at load', () => {
  it('a key file with a line break inside is refused, naming the file and never the key', async () => {
    const c = await setup(['  key_file: key']);
    await writeFile(c.at('key'), `${KEY_A}\n${KEY_B}\n`, { mode: 0o600 });
    const p = await problemsOf(loadConfig(c.file, { env: {} }));
    expect(p).toEqual([expect.stringMatching(/^api\.key_file: /)]);
    expect(p[0]).toContain(c.at('key'));
    expect(p[0]).toContain('(E_SECRET_CHARACTERS)');
    expectNoSecret(p.join('\n'), KEY_A, KEY_B);
  });

  it('whitespace or a control character inside the key is refused from every source, naming the source', async () => {
    const c = await setup(['  key_file: key']);
    const creds = c.at('creds');
    await mkdir(creds);
    for (const bad of [
      `${KEY_A} ${KEY_B}`,
      `${KEY_A}\t${KEY_B}`,
      `${KEY_A}\r\n${KEY_B}`,
      `${KEY_A}\u0000${KEY_B}`,
      `${KEY_A}\u00a0${KEY_B}`,
      `${KEY_A}é`,
    ]) {
      await writeFile(c.at('key'), `${bad}\n`, { mode: 0o600 });
      const fromFile = await problemsOf(loadConfig(c.file, { env: {} }));
      expect(fromFile, JSON.stringify(bad)).toEqual([
        expect.stringMatching(/^api\.key_file: .*\(E_SECRET_CHARACTERS\)$/),
      ]);
      const fromEnv = await problemsOf(loadConfig(c.file, { env: { OUTFIT_API_KEY: bad } }));
      expect(fromEnv).toEqual([
        expect.stringMatching(/^environment variable OUTFIT_API_KEY: .*\(E_SECRET_CHARACTERS\)$/),
      ]);
      await writeFile(path.join(creds, 'outfit-api-key'), bad, { mode: 0o600 });
      const fromCred = await problemsOf(loadConfig(c.file, { env: { CREDENTIALS_DIRECTORY: creds } }));
      expect(fromCred).toEqual([
        expect.stringMatching(/^systemd credential outfit-api-key: .*\(E_SECRET_CHARACTERS\)$/),
      ]);
      expectNoSecret([...fromFile, ...fromEnv, ...fromCred].join('\n'), KEY_A, KEY_B);
    }
  });

  it('the whitespace around a key (a trailing newline, CRLF, a BOM) is stripped', async () => {
    const c = await setup(['  key_file: key']);
    for (const text of [`${KEY_A}\n`, `${KEY_A}\r\n`, `  ${KEY_A}  \n\n`, `\ufeff${KEY_A}\n`]) {
      await writeFile(c.at('key'), text, { mode: 0o600 });
      expect((await loadConfig(c.file, { env: {} })).secrets.apiKey).toBe(KEY_A);
    }
  });

  it('an empty key file, a folder and a file that is not UTF-8 are refused, each with its code', async () => {
    const c = await setup(['  key_file: key']);
    const cases: Array<[string, () => Promise<void>]> = [
      ['E_SECRET_EMPTY', () => writeFile(c.at('key'), ' \n', { mode: 0o600 })],
      ['E_SECRET_ENCODING', () => writeFile(c.at('key'), Buffer.from([0x73, 0x6b, 0xff, 0xfe, 0x0a]), { mode: 0o600 })],
      [
        'E_SECRET_NOT_A_FILE',
        async () => {
          await rm(c.at('key'), { force: true });
          await mkdir(c.at('key'));
        },
      ],
    ];
    for (const [code, make] of cases) {
      await make();
      const p = await problemsOf(loadConfig(c.file, { env: {} }));
      expect(p).toEqual([`api.key_file: ${c.at('key')} ${p[0]!.slice(`api.key_file: ${c.at('key')} `.length)}`]);
      expect(p[0]).toMatch(new RegExp(`\\(${code}\\)$`));
    }
  });

  it('a 200 MB key file is refused from its size', async () => {
    const c = await setup(['  key_file: key']);
    // Sparse: 200 MB of size, no disk.
    await writeFile(c.at('key'), '');
    await truncate(c.at('key'), 200 * 1024 * 1024);
    const p = await problemsOf(loadConfig(c.file, { env: {} }));
    expect(p).toEqual([
      `api.key_file: ${c.at('key')} has ${200 * 1024 * 1024} bytes; a secret may have at most ${MAX_SECRET_BYTES} (E_SECRET_TOO_LARGE)`,
    ]);
  });

  it('an environment variable over the cap is refused; an empty one counts as not set', async () => {
    const c = await setup(['  key_file: key']);
    await writeFile(c.at('key'), `${KEY_A}\n`, { mode: 0o600 });
    const p = await problemsOf(
      loadConfig(c.file, { env: { OUTFIT_API_KEY: `sk_live_${'x'.repeat(MAX_SECRET_BYTES)}` } }),
    );
    expect(p).toEqual([expect.stringMatching(/^environment variable OUTFIT_API_KEY: .*\(E_SECRET_TOO_LARGE\)$/)]);
    expect((await loadConfig(c.file, { env: { OUTFIT_API_KEY: '' } })).secrets.apiKey).toBe(KEY_A);
  });

  it('the MQTT password: a line break or tab inside is refused, a space inside is kept', async () => {
    const c = await setup([
      '  key_file: key',
      'mqtt:',
      '  url: mqtt://127.0.0.1:1883',
      '  username: u',
      '  password_file: pw',
    ]);
    await writeFile(c.at('key'), KEY_A, { mode: 0o600 });
    await writeFile(c.at('pw'), 'correct horse\nbattery staple\n', { mode: 0o600 });
    const p = await problemsOf(loadConfig(c.file, { env: {} }));
    expect(p).toEqual([expect.stringMatching(/^mqtt\.password_file: .*\(E_SECRET_CHARACTERS\)$/)]);
    expectNoSecret(p.join(''), 'correct horse', 'battery staple');
    const big = await problemsOf(loadConfig(c.file, { env: { OUTFIT_MQTT_PASSWORD: 'a\tb' } }));
    expect(big).toEqual([
      expect.stringMatching(/^environment variable OUTFIT_MQTT_PASSWORD: .*\(E_SECRET_CHARACTERS\)$/),
    ]);
    await writeFile(c.at('pw'), 'correct horse battery stäple\n', { mode: 0o600 });
    expect((await loadConfig(c.file, { env: {} })).secrets.mqttPassword).toBe('correct horse battery stäple');
  });

  it('TRMNL tokens: a token file or an inline token with whitespace inside is refused, naming the key', async () => {
    const c = await setup([
      '  key_file: key',
      'trmnl:',
      '  devices:',
      '    - mac: "AA:BB:CC:DD:EE:01"',
      '      display: hallway',
      '      token_file: tok',
      '    - mac: "AA:BB:CC:DD:EE:02"',
      '      display: hallway',
      '      token: "tok en 12345"',
    ]);
    await writeFile(c.at('key'), KEY_A, { mode: 0o600 });
    await writeFile(c.at('tok'), 'tokenONE-4c9e1a\ntokenTWO-7b3d5f\n', { mode: 0o600 });
    const p = await problemsOf(loadConfig(c.file, { env: {} }));
    expect(p).toEqual([
      expect.stringMatching(/^trmnl\.devices\[0\]\.token_file: .*\(E_SECRET_CHARACTERS\)$/),
      expect.stringMatching(/^trmnl\.devices\[1\]\.token: .*\(E_SECRET_CHARACTERS\)$/),
    ]);
    expectNoSecret(p.join(''), 'tokenONE', 'tokenTWO', 'tok en 12345');
  });
});

describe('the embedded broker login', () => {
  it('a refused password file is reported once, as what is wrong with it, not also as missing', async () => {
    const c = await setup([
      '  key_file: key',
      'mqtt:',
      '  url: embedded',
      '  username: homeassistant',
      '  password_file: mqtt-pw',
    ]);
    await writeFile(c.at('key'), KEY_A, { mode: 0o600 });
    await writeFile(c.at('mqtt-pw'), 'first\nsecond\n', { mode: 0o600 });
    const p = await problemsOf(loadConfig(c.file, { env: {} }));
    expect(p).toHaveLength(1);
    expect(p[0]).toMatch(/^mqtt\.password_file: .*\(E_SECRET_CHARACTERS\)$/);
  });
});

describe('TRMNL tokens as systemd credentials', () => {
  it('the credential trmnl-<mac> comes before token_file and token; with none of them it is a problem', async () => {
    expect(trmnlCredentialName('AA:BB:CC:DD:EE:0F')).toBe('trmnl-aabbccddee0f');
    const c = await setup([
      '  key_file: key',
      'trmnl:',
      '  devices:',
      '    - mac: "AA:BB:CC:DD:EE:01"',
      '      display: hallway',
      // Not readable by the service (root only, as install.sh leaves it): the credential is used instead.
      '      token_file: /nonexistent/trmnl-aabbccddee01.token',
      '    - mac: "aa:bb:cc:dd:ee:02"',
      '      display: hallway',
      '    - mac: "AA:BB:CC:DD:EE:03"',
      '      display: hallway',
    ]);
    await writeFile(c.at('key'), KEY_A, { mode: 0o600 });
    const creds = c.at('creds');
    await mkdir(creds);
    await writeFile(path.join(creds, 'trmnl-aabbccddee01'), 'cred-token-01\n', { mode: 0o400 });
    await writeFile(path.join(creds, 'trmnl-aabbccddee02'), 'cred-token-02\n', { mode: 0o400 });
    const p = await problemsOf(loadConfig(c.file, { env: { CREDENTIALS_DIRECTORY: creds } }));
    expect(p).toEqual([
      'trmnl.devices[2]: no token: set token_file, token, or the systemd credential trmnl-aabbccddee03 (E_SECRET_MISSING)',
    ]);

    await writeFile(path.join(creds, 'trmnl-aabbccddee03'), 'cred-token-03', { mode: 0o400 });
    const loaded = await loadConfig(c.file, { env: { CREDENTIALS_DIRECTORY: creds } });
    expect(Object.fromEntries(loaded.secrets.trmnlTokens)).toEqual({
      'AA:BB:CC:DD:EE:01': 'cred-token-01',
      'AA:BB:CC:DD:EE:02': 'cred-token-02',
      'AA:BB:CC:DD:EE:03': 'cred-token-03',
    });
    expect(loaded.warnings).toEqual([]);
  });
});

describe('secret codes', () => {
  it.each(codesIn('secret'))('%s is documented in docs/reference/configuration.md', async (code) => {
    const doc = await readFile(path.join(ROOT, 'docs/reference/configuration.md'), 'utf8');
    expect(doc).toMatch(new RegExp(`\\| \`${code}\` \\|`));
  });
});

describe('envWithoutSecrets (the render process’s environment)', () => {
  it('drops the variables that hold or lead to a secret, and any that holds a secret’s value; keeps the rest', () => {
    const secrets = {
      apiKey: 'sk_live_abc',
      apiKeySource: 'x',
      mqttPassword: 'hunter2 x',
      trmnlTokens: new Map([['AA:BB', 'tok-123']]),
    };
    const env = {
      PATH: '/usr/bin',
      TMPDIR: '/tmp',
      LANG: 'de_DE.UTF-8',
      OUTFIT_API_KEY: 'sk_live_abc',
      OUTFIT_MQTT_PASSWORD: 'hunter2 x',
      CREDENTIALS_DIRECTORY: '/run/credentials/outfit-display.service',
      SUPERVISOR_TOKEN: 'supervisor',
      COPY: 'Bearer sk_live_abc',
      TOKEN_AGAIN: 'tok-123',
      PASSWORD_AGAIN: 'hunter2 x',
    };
    expect(envWithoutSecrets(env, secrets)).toEqual({ PATH: '/usr/bin', TMPDIR: '/tmp', LANG: 'de_DE.UTF-8' });
    // Without secrets (the simulated service's demo key), only the names go.
    expect(
      envWithoutSecrets(
        { PATH: '/usr/bin', OUTFIT_API_KEY: '' },
        { apiKey: null, apiKeySource: null, mqttPassword: null, trmnlTokens: new Map() },
      ),
    ).toEqual({ PATH: '/usr/bin' });
  });
});
