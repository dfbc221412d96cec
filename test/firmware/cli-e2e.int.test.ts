import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimSummary } from '../../display/firmware/sim-output.js';
import { awaySchedule, runCli, simulatedConfig, startCli, tempConfig } from '../helpers/cli.js';
import { configYaml } from '../helpers/config-yaml.js';
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

describe('outfit-display simulate --day (a real process)', () => {
  let dir: string | null = null;
  let service: Server | null = null;
  afterEach(async () => {
    if (service !== null) await new Promise((r) => service!.close(r));
    service = null;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(
    'measures a day against a daemon of the config on the simulated service, never the configured one',
    { timeout: 120_000 },
    async () => {
      // The owner's real service: the measured day must not ask it anything (it would spend credits).
      let asked = 0;
      service = createServer((_req, res) => {
        asked++;
        res.writeHead(500).end();
      });
      await new Promise<void>((r) => service!.listen(0, '127.0.0.1', r));
      const port = (service.address() as AddressInfo).port;
      const t = await tempConfig(
        configYaml({
          baseUrl: `http://127.0.0.1:${port}/v1`,
          api: ['key_file: api-key'],
          creditsPerDay: 3000,
          displays: [{ id: 'porch', panel: 'waveshare-2in9', schedule: '0 */2 * * *' }],
          sections: ['http:', '  listen: 127.0.0.1:9'],
        }),
      );
      dir = t.dir;
      await writeFile(path.join(t.dir, 'api-key'), 'sk_live_not_a_real_key_0123456789\n', { mode: 0o600 });
      const out = path.join(t.dir, 'sim');
      const r = await runCli(
        ['simulate', '--config', t.file, '--display', 'porch', '--day', '--wakes', '0', '--out', out],
        {
          cwd: t.dir,
          timeoutMs: 100_000,
        },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/"0 \*\/2 \* \* \*".*measured against the daemon on a virtual clock/);
      expect(r.stdout).toMatch(/our refresh_rate\s+12\s+12\s+1\.00/);
      const summary = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8')) as SimSummary;
      expect(summary.day?.rows.map((row) => [row.policy, row.new_frames])).toEqual([
        ['refresh_rate', 12],
        ['stock_15min', 12],
      ]);
      expect(asked).toBe(0);
    },
  );
});
