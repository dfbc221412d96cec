import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const run = promisify(execFile);
const SCRIPT = path.join(ROOT, 'systemd/install.sh');

async function install(root: string, systemctlLog: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const stub = path.join(root, 'systemctl-stub');
  await writeFile(stub, `#!/bin/sh\necho "$*" >> ${systemctlLog}\n`);
  await chmod(stub, 0o755);
  return run('bash', [SCRIPT, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, OUTFIT_ROOT: root, SYSTEMCTL: stub, ...env },
    timeout: 120_000,
  });
}

describe('systemd/install.sh', () => {
  it('installs, is idempotent, keeps the owner config and key, and uninstalls', { timeout: 240_000 }, async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'outfit-install-'));
    const log = path.join(root, 'systemctl.log');

    const first = await install(root, log, [], { OUTFIT_API_KEY: 'sk_live_install_test' });
    expect(first.stdout).toContain('outfit-display is running');
    expect(await readFile(path.join(root, 'etc/systemd/system/outfit-display.service'), 'utf8')).toBe(
      await readFile(path.join(ROOT, 'systemd/outfit-display.service'), 'utf8'),
    );
    const key = path.join(root, 'etc/outfit-display/api-key');
    expect((await readFile(key, 'utf8')).trim()).toBe('sk_live_install_test');
    expect((await stat(key)).mode & 0o777).toBe(0o600);
    const config = await readFile(path.join(root, 'etc/outfit-display/config.yaml'), 'utf8');
    expect(config).toMatch(/^output_dir: \/run\/outfit-display\/frames/m);
    expect(config).not.toMatch(/^ {2}key_file: \//m);
    expect(await readdir(path.join(root, 'opt/outfit-display'))).toEqual(
      expect.arrayContaining(['dist', 'node_modules', 'display', 'package.json']),
    );
    // Production dependencies only.
    await expect(stat(path.join(root, 'opt/outfit-display/node_modules/vitest'))).rejects.toThrow();
    await expect(stat(path.join(root, 'opt/outfit-display/node_modules/canvas'))).resolves.toBeTruthy();
    // Not the stage or the previous copy.
    expect((await readdir(path.join(root, 'opt'))).sort()).toEqual(['outfit-display']);

    // The owner edits the config; a second run (an update) keeps it, and adds the MQTT password credential and one
    // credential per TRMNL token file (trmnl-<mac>.token, left world-readable by the owner); a file named otherwise
    // is named in a warning and left alone.
    const etc = path.join(root, 'etc/outfit-display');
    await writeFile(path.join(etc, 'config.yaml'), `${config}# edited\n`);
    await writeFile(path.join(etc, 'mqtt-password'), 'pw\n');
    await writeFile(path.join(etc, 'trmnl-aabbccddee01.token'), 'tok-1\n', { mode: 0o644 });
    await writeFile(path.join(etc, 'trmnl-aabbccddee02.token'), 'tok-2\n', { mode: 0o644 });
    await writeFile(path.join(etc, 'trmnl-hallway.token'), 'tok-3\n', { mode: 0o644 });
    const second = await install(root, log);
    expect(await readFile(path.join(etc, 'config.yaml'), 'utf8')).toContain('# edited');
    expect(
      await readFile(path.join(root, 'etc/systemd/system/outfit-display.service.d/mqtt-password.conf'), 'utf8'),
    ).toBe('[Service]\nLoadCredential=mqtt-password:/etc/outfit-display/mqtt-password\n');
    expect(
      await readFile(path.join(root, 'etc/systemd/system/outfit-display.service.d/trmnl-tokens.conf'), 'utf8'),
    ).toBe(
      '[Service]\n' +
        'LoadCredential=trmnl-aabbccddee01:/etc/outfit-display/trmnl-aabbccddee01.token\n' +
        'LoadCredential=trmnl-aabbccddee02:/etc/outfit-display/trmnl-aabbccddee02.token\n',
    );
    for (const f of ['mqtt-password', 'trmnl-aabbccddee01.token', 'trmnl-aabbccddee02.token']) {
      expect((await stat(path.join(etc, f))).mode & 0o777, f).toBe(0o600);
    }
    expect(second.stderr).toContain('trmnl-hallway.token');
    // The unit with its drop-ins, as systemd reads them: no warning.
    const verify = await run('systemd-analyze', ['verify', 'outfit-display.service'], {
      env: { ...process.env, SYSTEMD_UNIT_PATH: `${path.join(root, 'etc/systemd/system')}:` },
    });
    expect(verify.stderr).toBe('');
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual([
      'daemon-reload',
      'enable outfit-display.service',
      'restart outfit-display.service',
      'daemon-reload',
      'enable outfit-display.service',
      'restart outfit-display.service',
    ]);

    const un = await install(root, log, ['--uninstall']);
    expect(un.stdout).toContain('kept');
    await expect(stat(path.join(root, 'opt/outfit-display'))).rejects.toThrow();
    await expect(stat(path.join(root, 'etc/systemd/system/outfit-display.service'))).rejects.toThrow();
    expect(await readFile(path.join(root, 'etc/outfit-display/config.yaml'), 'utf8')).toContain('# edited');
  });

  it('without a key it installs but does not start, and says where the key goes', { timeout: 240_000 }, async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'outfit-install-'));
    const log = path.join(root, 'systemctl.log');
    // A drop-in for TRMNL tokens that are gone: removed, as systemd would refuse to start with a missing credential.
    await mkdir(path.join(root, 'etc/systemd/system/outfit-display.service.d'), { recursive: true });
    await writeFile(
      path.join(root, 'etc/systemd/system/outfit-display.service.d/trmnl-tokens.conf'),
      '[Service]\nLoadCredential=trmnl-aabbccddee01:/etc/outfit-display/trmnl-aabbccddee01.token\n',
    );
    const res = await install(root, log);
    expect(res.stdout).toContain('put your API key in');
    expect(await readFile(log, 'utf8')).not.toContain('restart');
    await expect(stat(path.join(root, 'etc/systemd/system/outfit-display.service.d'))).rejects.toThrow();
  });
});
