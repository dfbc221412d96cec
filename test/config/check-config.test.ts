import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
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

  it('exits 2 on an output_dir that is a file and a state_dir under a file, naming each key; `run` refuses the same before it starts anything', async () => {
    const port = await freePort();
    const { dir, file } = await tempConfig(yaml(['  - id: hallway', '    lat: 1', '    lon: 2'], ['http:', `  listen: 127.0.0.1:${port}`]).replace('state_dir: state', 'state_dir: blocker/state'));
    try {
      // The probe's case: a file where the frames folder should be (passed check-config, then stopped the daemon: EEXIST).
      await writeFile(path.join(dir, 'frames'), 'not a folder\n');
      await writeFile(path.join(dir, 'blocker'), 'a file on the path of state_dir\n');
      const r = await runCli(['check-config', '--config', file]);
      expect(r.code).toBe(2);
      const lines = r.stderr.split('\n').map((l) => l.trim());
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^output_dir: "${path.join(dir, 'frames')}" is a file, not a folder: move it away, or set output_dir to a folder`)));
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^state_dir: "${path.join(dir, 'blocker', 'state')}" cannot be created: "${path.join(dir, 'blocker')}" on its path is a file`)));

      // `run` with the same config: exit 2 at once, nothing started (no state folder, no HTTP server, no frames).
      const run = await runCli(['run', '--config', file]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('output_dir:');
      expect(run.stdout).not.toContain('listening');

      // A folder in place and a path that can be created: ok.
      await rm(path.join(dir, 'frames'));
      await rm(path.join(dir, 'blocker'));
      await mkdir(path.join(dir, 'frames'));
      expect((await runCli(['check-config', '--config', file])).code).toBe(0);
      expect(existsSync(path.join(dir, 'blocker'))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
