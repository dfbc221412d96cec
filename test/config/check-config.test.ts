import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfig } from '../helpers/cli.js';

/** `check-config` through the real process: what `run` would refuse, it refuses first, every problem at once. */

const yaml = (displays: string[], extra: string[] = []): string =>
  [
    'api:',
    '  base_url: simulated',
    'budget:',
    '  credits_per_day: 100',
    'timezone: UTC',
    'displays:',
    ...displays,
    ...extra,
    'output_dir: frames',
    'state_dir: state',
    '',
  ].join('\n');

describe('check-config', () => {
  it('exits 2 on an http.listen port above 65535, naming the key (run would fail to listen)', async () => {
    const { dir, file } = await tempConfig(yaml(['  - id: hallway', '    lat: 1', '    lon: 2'], ['http:', '  listen: 127.0.0.1:99999']));
    try {
      const r = await runCli(['check-config', '--config', file]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^ {2}http\.listen: port 99999 .*0\.\.65535/m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reports a duplicate display id together with another display\'s problems and names the allowed rotations', async () => {
    const { dir, file } = await tempConfig(
      yaml([
        '  - id: hallway',
        '    lat: 1',
        '    lon: 2',
        '  - id: hallway',
        '    lat: 1',
        '    lon: 2',
        '  - id: porch',
        '    lat: north',
        '    lon: 2',
        '    rotation: 45',
      ]),
    );
    try {
      const r = await runCli(['check-config', '--config', file]);
      expect(r.code).toBe(2);
      const lines = r.stderr.split('\n').map((l) => l.trim());
      expect(lines).toEqual(
        expect.arrayContaining([
          'displays[1].id: duplicate display id "hallway" (also displays[0].id)',
          'displays[2].lat: must be a number',
          'displays[2].rotation: must be one of 0, 90, 180, 270 (got 45)',
        ]),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
