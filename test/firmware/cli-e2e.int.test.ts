import type { ChildProcess } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { awaySchedule, runCli, simulatedConfig, startCli, tempConfig } from '../helpers/cli.js';
import { freePort } from '../helpers/free-port.js';
import { httpRequest } from '../helpers/http-client.js';

/**
 * The chain through real processes: `outfit-display run` (simulated service, HTTP server on a free port) and
 * `outfit-display simulate --via http|trmnl` against it; the glass equals the frame file the daemon wrote.
 */

function rgba(png: Buffer): Buffer {
  return PNG.sync.read(png).data;
}

describe('outfit-display run → outfit-display simulate (real processes)', () => {
  let daemon: ChildProcess | null = null;
  let dir: string | null = null;
  afterEach(async () => {
    if (daemon && daemon.exitCode === null) {
      const gone = new Promise((r) => daemon!.once('exit', r));
      daemon.kill('SIGTERM');
      await gone;
    }
    daemon = null;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each(['trmnl', 'http'] as const)(
    'via %s: the glass equals the daemon’s frame',
    { timeout: 60_000 },
    async (via) => {
      const port = await freePort();
      const yaml = simulatedConfig({
        displays: [
          '  - id: hallway',
          '    lat: 52.52',
          '    lon: 13.405',
          '    panel: trmnl',
          `    schedule: "${awaySchedule()}"`,
        ].join('\n'),
      }).replace(
        'log_level: debug',
        `log_level: info\nhttp:\n  listen: 127.0.0.1:${port}\ntrmnl:\n  devices:\n    - mac: "AA:BB:CC:DD:EE:77"\n      display: hallway\n      token: cli-e2e-token-123456`,
      );
      const t = await tempConfig(yaml);
      dir = t.dir;
      daemon = startCli(['run', '--config', t.file], { cwd: t.dir });
      let stderr = '';
      daemon.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      daemon.stdout?.resume();
      await expect
        .poll(async () => (await httpRequest(`http://127.0.0.1:${port}/healthz`).catch(() => ({ status: 0 }))).status, {
          timeout: 30_000,
          interval: 250,
        })
        .toBe(200);

      const out = path.join(t.dir, 'sim');
      // The owner opens pairing first, as for a real device: the daemon reads <state_dir>/pairing.json at setup.
      if (via === 'trmnl')
        expect((await runCli(['pair', '--config', t.file, '--display', 'hallway'], { cwd: t.dir })).code).toBe(0);
      const r = await runCli(
        [
          'simulate',
          '--config',
          t.file,
          '--display',
          'hallway',
          '--wakes',
          '2',
          '--out',
          out,
          '--via',
          via,
          '--max-sleep',
          '0',
        ],
        {
          cwd: t.dir,
          timeoutMs: 30_000,
        },
      );
      expect(r.code, r.stderr + stderr).toBe(0);
      const glass = await readFile(path.join(out, 'wake-0001.png'));
      const frame = await readFile(path.join(t.dir, 'frames', 'hallway.png'));
      expect(rgba(glass).equals(rgba(frame))).toBe(true);
      const lines = (await readFile(path.join(out, 'timeline.jsonl'), 'utf8')).trim().split('\n');
      expect(lines).toHaveLength(2);
    },
  );
});
