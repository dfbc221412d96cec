import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const run = promisify(execFile);

/**
 * The unit with a panel on the header: systemd/panel.conf as the drop-in install.sh puts beside the unit. systemd
 * reads it from <unit>.d/ next to the unit file, as it would in /etc/systemd/system.
 */
async function unitWithPanel(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'unit-panel-'));
  const unit = path.join(dir, 'outfit-display.service');
  await copyFile(path.join(ROOT, 'systemd/outfit-display.service'), unit);
  await mkdir(`${unit}.d`);
  await copyFile(path.join(ROOT, 'systemd/panel.conf'), path.join(`${unit}.d`, 'panel.conf'));
  return unit;
}

describe('systemd/panel.conf (the unit with a panel attached)', () => {
  it('keeps the exposure at most 2.0, still private devices, and allows exactly the SPI device and the GPIO chips', async () => {
    const unit = await unitWithPanel();
    const { stdout } = await run('systemd-analyze', ['security', '--offline=true', '--no-pager', unit]);
    const m = /Overall exposure level for outfit-display\.service: (\d+\.\d+)/.exec(stdout);
    expect(Number(m?.[1])).toBeLessThanOrEqual(2.0);
    expect(stdout).toMatch(/✓ PrivateDevices=/);
    // The device ACL as systemd reads it: the clock's (ProtectClock) and ours, nothing else.
    const acl = /device ACL with some special devices: (.*?)\s{2,}/.exec(stdout)?.[1]?.split(' ').sort();
    expect(acl).toEqual(['/dev/gpiochip0:rw', '/dev/gpiochip4:rw', '/dev/spidev0.0:rw', 'char-rtc:r']);
  });

  it('passes systemd-analyze verify with no warning, and joins the spi and gpio groups', async () => {
    const unit = await unitWithPanel();
    const { stdout, stderr } = await run('systemd-analyze', ['verify', unit]);
    expect(stderr).toBe('');
    expect(stdout).toBe('');
    const conf = await readFile(path.join(ROOT, 'systemd/panel.conf'), 'utf8');
    expect(conf.split('\n')).toContain('SupplementaryGroups=spi gpio');
    expect(conf).not.toMatch(/^PrivateDevices=no/m);
  });

  it(
    'install.sh installs it for a config with an attached panel, and removes it again',
    { timeout: 240_000 },
    async () => {
      const root = await mkdtemp(path.join(tmpdir(), 'outfit-install-panel-'));
      const stub = path.join(root, 'systemctl-stub');
      await writeFile(stub, '#!/bin/sh\nexit 0\n');
      await chmod(stub, 0o755);
      const install = () =>
        run('bash', [path.join(ROOT, 'systemd/install.sh')], {
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            OUTFIT_ROOT: root,
            SYSTEMCTL: stub,
            OUTFIT_API_KEY: 'sk_live_panel_test',
          },
          timeout: 120_000,
        });
      const dropin = path.join(root, 'etc/systemd/system/outfit-display.service.d/panel.conf');
      const config = path.join(root, 'etc/outfit-display/config.yaml');

      // The example config (its `attached:` commented out): no devices for the service.
      await install();
      expect(existsSync(dropin)).toBe(false);

      // A display with a panel on the header: the drop-in, as in systemd/.
      const plain = await readFile(config, 'utf8');
      await writeFile(config, plain.replace('    # attached:', '    attached: {}\n    # attached:'));
      const withPanel = await install();
      expect(withPanel.stdout).toContain('a panel is attached');
      expect(await readFile(dropin, 'utf8')).toBe(await readFile(path.join(ROOT, 'systemd/panel.conf'), 'utf8'));

      // Only a capture file: no hardware, no drop-in.
      await writeFile(
        config,
        plain.replace('    # attached:', '    attached:\n      capture: /tmp/x.jsonl\n    # attached:'),
      );
      await install();
      expect(existsSync(dropin)).toBe(false);
    },
  );
});
