import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfig } from '../helpers/cli.js';
import { configYaml } from '../helpers/config-yaml.js';

/**
 * `openepaperlink.access_point` through the real CLI: a login in it is refused by `check-config` (and `run`) with the
 * key path and without the password; a query or a fragment is refused as a path is.
 */

const PASSWORD = 's3cr3t-ap-pass';

function yaml(accessPoint: string): string {
  return configYaml({
    creditsPerDay: 100,
    timezone: 'UTC',
    displays: [{ id: 'hallway' }],
    sections: [
      'openepaperlink:',
      `  access_point: "${accessPoint}"`,
      '  tags:',
      '    - { mac: "0000021EEF5A3B1C", display: hallway, panel: oepl-2in9-bwr }',
    ],
  });
}

async function checkConfig(
  accessPoint: string,
  command = 'check-config',
): Promise<{ code: number | null; out: string }> {
  const { dir, file } = await tempConfig(yaml(accessPoint));
  try {
    const r = await runCli([command, '--config', file]);
    return { code: r.code, out: r.stdout + r.stderr };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('openepaperlink.access_point through check-config', () => {
  it('a login in the URL: exit 2, the key named, the password nowhere; run refuses it the same', async () => {
    for (const command of ['check-config', 'run']) {
      const r = await checkConfig(`http://owner:${PASSWORD}@192.168.1.60`, command);
      expect(r.code).toBe(2);
      expect(r.out).toMatch(/openepaperlink\.access_point: must not carry a login \(user:password@host\)/);
      expect(r.out).not.toContain(PASSWORD);
      expect(r.out).not.toContain('owner');
    }
  });

  it('a query or a fragment is refused like a path; the base URL alone passes', async () => {
    for (const url of [
      'http://192.168.1.60/?token=x',
      'http://192.168.1.60?x=1',
      'http://192.168.1.60#tag',
      'http://192.168.1.60/api',
    ]) {
      const r = await checkConfig(url);
      expect(r.code, url).toBe(2);
      expect(r.out, url).toMatch(
        /openepaperlink\.access_point: must be an absolute http\(s\) base URL such as http:\/\/192\.168\.1\.60, without a path, query or fragment/,
      );
    }
    const ok = await checkConfig('http://192.168.1.60/');
    expect(ok.out).not.toContain('openepaperlink');
    expect(ok.code).toBe(0);
  });
});
