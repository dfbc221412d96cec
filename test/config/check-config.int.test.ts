import { configYaml } from '../helpers/config-yaml.js';
import { existsSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { runCli, simulatedConfig, startCli, tempConfig } from '../helpers/cli.js';
import { watchProcess } from '../helpers/daemon-process.js';
import { httpRequest } from '../helpers/http-client.js';
import { until } from '../helpers/until.js';

/** `check-config` through the real process: what `run` would refuse, it refuses first, every problem at once. */

const yaml = (displays: string[], extra: string[] = []): string =>
  configYaml({ creditsPerDay: 100, timezone: 'UTC', displays: displays.join('\n'), sections: extra });

describe('check-config', () => {
  it('exits 2 on an http.listen port above 65535, naming the key (run would fail to listen)', async () => {
    const { dir, file } = await tempConfig(
      yaml(['  - id: hallway', '    lat: 1', '    lon: 2'], ['http:', '  listen: 127.0.0.1:99999']),
    );
    try {
      const r = await runCli(['check-config', '--config', file]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^ {2}http\.listen: port 99999 .*0\.\.65535/m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("reports a duplicate display id together with another display's problems and names the allowed rotations", async () => {
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
    const { dir, file } = await tempConfig(
      yaml(['  - id: hallway', '    lat: 1', '    lon: 2'], ['http:', `  listen: 127.0.0.1:${port}`]).replace(
        'state_dir: state',
        'state_dir: blocker/state',
      ),
    );
    try {
      // The probe's case: a file where the frames folder should be (passed check-config, then stopped the daemon: EEXIST).
      await writeFile(path.join(dir, 'frames'), 'not a folder\n');
      await writeFile(path.join(dir, 'blocker'), 'a file on the path of state_dir\n');
      const r = await runCli(['check-config', '--config', file]);
      expect(r.code).toBe(2);
      const lines = r.stderr.split('\n').map((l) => l.trim());
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^output_dir: "${path.join(dir, 'frames')}" is a file, not a folder: move it away, or set output_dir to a folder`,
          ),
        ),
      );
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^state_dir: "${path.join(dir, 'blocker', 'state')}" cannot be created: "${path.join(dir, 'blocker')}" on its path is a file`,
          ),
        ),
      );

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

/** A config with one display (`schedule`), `budget` lines and `http` lines of its own. */
const config = (o: { budget?: string[]; schedule?: string; http?: string[] }): string =>
  yaml(
    [
      '  - id: hallway',
      '    lat: 1',
      '    lon: 2',
      ...(o.schedule === undefined ? [] : [`    schedule: "${o.schedule}"`]),
    ],
    o.http ?? [],
  ).replace('  credits_per_day: 100\n', `${(o.budget ?? ['  credits_per_day: 100']).join('\n')}\n`);

/** check-config (or another command) on `text`, the folder removed after. */
async function cli(
  text: string,
  command = 'check-config',
): Promise<{ code: number | null; stdout: string; stderr: string; lines: string[] }> {
  const { dir, file } = await tempConfig(text);
  try {
    const r = await runCli([command, '--config', file]);
    return { ...r, lines: r.stderr.split('\n').map((l) => l.trim()) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('check-config: configs that can never work', () => {
  it('a refresh reserve not below the daily or the monthly budget is a config problem at budget.refresh_reserve_credits', async () => {
    const day = await cli(config({ budget: ['  credits_per_day: 50', '  refresh_reserve_credits: 50'] }));
    expect(day.code).toBe(2);
    expect(day.lines).toContainEqual(
      expect.stringMatching(/^budget\.refresh_reserve_credits: 50 is not below budget\.credits_per_day \(50\)/),
    );
    const month = await cli(config({ budget: ['  credits_per_month: 300', '  refresh_reserve_credits: 400'] }));
    expect(month.code).toBe(2);
    expect(month.lines).toContainEqual(
      expect.stringMatching(/^budget\.refresh_reserve_credits: 400 is not below budget\.credits_per_month \(300\)/),
    );
    const below = await cli(config({ budget: ['  credits_per_day: 50', '  refresh_reserve_credits: 49'] }));
    expect(below.code, below.stderr).toBe(0);
  });

  it('a schedule that fires less than once a year is warning W_SCHEDULE_RARE at displays[0].schedule; a yearly one is not', async () => {
    const rare = await cli(config({ schedule: '0 0 29 2 *' }));
    expect(rare.code, rare.stderr).toBe(0);
    expect(rare.lines).toContainEqual(expect.stringMatching(/^warning: W_SCHEDULE_RARE: displays\[0\]\.schedule: /));
    expect(rare.stdout).toContain('; 1 warning)');
    // Both day fields must match: New Year's Day on a Monday comes once in several years.
    expect((await cli(config({ schedule: '0 7 1 1 1' }))).lines).toContainEqual(
      expect.stringMatching(/^warning: W_SCHEDULE_RARE: displays\[0\]\.schedule: /),
    );
    const yearly = await cli(config({ schedule: '0 7 1 1 *' }));
    expect(yearly.code).toBe(0);
    expect(yearly.stderr).not.toContain('W_SCHEDULE_RARE');
    expect(yearly.stdout).toContain('; 0 warnings)');
  });

  it('an http.listen name that does not resolve (nothing is asked of DNS for .invalid) is E_HTTP_LISTEN at http.listen', async () => {
    const r = await cli(config({ http: ['http:', '  listen: no-such-host.invalid:8321'] }));
    expect(r.code).toBe(2);
    expect(r.lines).toContainEqual(expect.stringMatching(/^http\.listen: .*\(ENOTFOUND\) \(E_HTTP_LISTEN\)$/));
  });

  it('an http.listen address not on this machine (TEST-NET: bind refuses it, nothing is sent) is E_HTTP_LISTEN', async () => {
    const r = await cli(config({ http: ['http:', '  listen: 192.0.2.1:8321'] }));
    expect(r.code).toBe(2);
    expect(r.lines).toContainEqual(expect.stringMatching(/^http\.listen: .*\(EADDRNOTAVAIL\) \(E_HTTP_LISTEN\)$/));
  });

  it('an http.listen port another program holds is E_HTTP_LISTEN; `run` fails on it with the same line; a name that resolves binds', async () => {
    // Another program: it greets and hangs up, as an SSH server would; not the daemon's /healthz.
    const sockets = new Set<Socket>();
    const holder = createServer((socket) => {
      sockets.add(socket);
      socket.end('SSH-2.0-OpenSSH_9.2\r\n');
    });
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as AddressInfo).port;
    try {
      const text = config({ http: ['http:', `  listen: 127.0.0.1:${port}`] });
      const check = await cli(text);
      expect(check.code).toBe(2);
      const line = check.lines.find((l) => l.startsWith('http.listen: '));
      expect(line).toMatch(/\(EADDRINUSE\) \(E_HTTP_LISTEN\)$/);
      const run = await cli(text, 'run');
      expect(run.code).toBe(1);
      expect(run.lines).toContain(`error: ${line}`);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => holder.close(resolve));
    }
    const free = await cli(config({ http: ['http:', `  listen: localhost:${await freePort()}`] }));
    expect(free.code, free.stderr).toBe(0);
  });

  it('a port held by a server that answers /healthz as an outfit-display is E_HTTP_LISTEN too, said so after the problem; `run` fails on it with the same line', async () => {
    const daemonLike = createHttpServer((req, res) => {
      res.writeHead(req.url === '/healthz' ? 200 : 404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ ok: true, reason: 'ok', displays: [] }));
    });
    await new Promise<void>((resolve) => daemonLike.listen(0, '127.0.0.1', resolve));
    try {
      const listen = `127.0.0.1:${(daemonLike.address() as AddressInfo).port}`;
      const text = config({ http: ['http:', `  listen: ${listen}`] });
      const check = await cli(text);
      expect(check.code).toBe(2);
      const line = check.lines.find((l) => l.startsWith('http.listen: '));
      expect(line).toMatch(/\(EADDRINUSE\) \(E_HTTP_LISTEN\)$/);
      expect(check.lines.at(-2)).toMatch(new RegExp(`^note: ${listen} answers as an outfit-display`));
      const run = await cli(text, 'run');
      expect(run.code).toBe(1);
      expect(run.lines).toContain(`error: ${line}`);
    } finally {
      daemonLike.closeAllConnections();
      await new Promise((resolve) => daemonLike.close(resolve));
    }
  });

  it('a port held by a second outfit-display that runs (dist/cli.js run) is E_HTTP_LISTEN; once it stops, the same config passes', async () => {
    const port = await freePort();
    const first = await tempConfig(
      simulatedConfig().replace('output_dir:', `http:\n  listen: 127.0.0.1:${port}\noutput_dir:`),
    );
    const daemon = startCli(['run', '--config', first.file]);
    const watched = watchProcess(daemon);
    try {
      await until(
        'the first daemon’s /healthz',
        async () => (await httpRequest(`http://127.0.0.1:${port}/healthz`).catch(() => null)) !== null,
        { context: watched.output },
      );
      // Another config (its own folders) on the same port.
      const text = config({ http: ['http:', `  listen: 127.0.0.1:${port}`] });
      const check = await cli(text);
      expect(check.code, check.stderr).toBe(2);
      const line = check.lines.find((l) => l.startsWith('http.listen: '));
      expect(line).toBe(
        `http.listen: cannot listen on 127.0.0.1:${port}: port ${port} is in use by another program (EADDRINUSE) (E_HTTP_LISTEN)`,
      );
      expect(check.lines).toContainEqual(expect.stringMatching(/^note: .* answers as an outfit-display/));
      const run = await cli(text, 'run');
      expect(run.code).toBe(1);
      expect(run.lines).toContain(`error: ${line}`);
      // The daemon's own config is refused the same way while it runs: `run` could not start beside it.
      expect((await runCli(['check-config', '--config', first.file])).code).toBe(2);
      daemon.kill('SIGTERM');
      expect(await watched.exited).toBe(0);
      const after = await cli(text);
      expect(after.code, after.stderr).toBe(0);
    } finally {
      daemon.kill('SIGTERM');
      await watched.exited;
      await rm(first.dir, { recursive: true, force: true });
    }
  });
});
