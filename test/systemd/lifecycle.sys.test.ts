import type { ChildProcess } from 'node:child_process';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import { runCli, simulatedConfig, startCli, tempConfig } from '../helpers/cli.js';
import { startSimProcess, type SimProcess } from '../helpers/service-sim-process.js';
import { watchProcess } from '../helpers/daemon-process.js';
import { until } from '../helpers/until.js';

let sim: SimProcess;
beforeAll(async () => {
  sim = await startSimProcess();
});
afterAll(async () => {
  await sim.stop();
});

interface Daemon {
  child: ChildProcess;
  dir: string;
  file: string;
  notifyLog: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** The real daemon (`run`) under a fake systemd: a stub systemd-notify on PATH records what it is told. */
async function startDaemon(
  opts: { watchdogUsec?: number; name?: string; dir?: string; stub?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Daemon> {
  const { dir, file } =
    opts.dir === undefined ? await tempConfig('') : { dir: opts.dir, file: path.join(opts.dir, 'config.yaml') };
  await writeFile(path.join(dir, 'key'), `${DEMO_API_KEY}\n`, { mode: 0o600 });
  await writeFile(file, simulatedConfig({ baseUrl: sim.url, keyFile: 'key' }));
  const bin = path.join(dir, 'bin');
  await mkdir(bin, { recursive: true });
  const notifyLog = path.join(dir, 'notify.log');
  await writeFile(path.join(bin, 'systemd-notify'), opts.stub ?? `#!/bin/sh\necho "$*" >> ${notifyLog}\n`);
  await chmod(path.join(bin, 'systemd-notify'), 0o755);
  const child = startCli(['run', '--config', file], {
    env: {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      NOTIFY_SOCKET: path.join(dir, 'notify.sock'),
      ...(opts.watchdogUsec !== undefined && { WATCHDOG_USEC: String(opts.watchdogUsec) }),
      ...opts.env,
    },
  });
  const { output, exited } = watchProcess(child);
  return { child, dir, file, notifyLog, output, exited };
}

async function notified(d: Daemon): Promise<string[]> {
  try {
    return (await readFile(d.notifyLog, 'utf8')).trim().split('\n');
  } catch {
    return [];
  }
}

describe('the daemon under systemd (a stub systemd-notify)', () => {
  it('READY after the first frame is published, WATCHDOG while healthy, STOPPING and exit 0 on SIGTERM', async () => {
    const d = await startDaemon({ watchdogUsec: 300_000 });
    const ready = await until('READY=1', async () => (await notified(d)).find((l) => l.includes('READY=1')));
    expect(ready).toMatch(/^--pid=\d+ READY=1 STATUS=1 display$/);
    // READY comes after the frame: it is already on disk.
    await expect(stat(path.join(d.dir, 'frames/hallway.png'))).resolves.toBeTruthy();
    await until(
      'three WATCHDOG=1',
      async () => (await notified(d)).filter((l) => l.endsWith('WATCHDOG=1')).length >= 3,
    ).catch(async (e: unknown) => {
      throw new Error(`${String(e)}: ${(await notified(d)).join('|')} ${d.output()}`);
    });
    d.child.kill('SIGTERM');
    expect(await d.exited).toBe(0);
    const lines = await notified(d);
    expect(lines.at(-1)).toMatch(/STOPPING=1$/);
    expect(d.output()).toContain('"msg":"stopped"');
  });

  it('without a watchdog in the environment, sends no WATCHDOG at all', async () => {
    const d = await startDaemon();
    await until('READY=1', async () => (await notified(d)).some((l) => l.includes('READY=1')));
    // Not a fixed wait that proves nothing on a slow machine: a later sign from the same notifier. A reload (SIGHUP)
    // says RELOADING=1, then READY=1 again once the new daemon has published its frame: a whole first cycle later.
    d.child.kill('SIGHUP');
    await until('READY=1 after RELOADING=1', async () => {
      const lines = await notified(d);
      const reloading = lines.findIndex((l) => l.includes('RELOADING=1'));
      return reloading >= 0 && lines.slice(reloading + 1).some((l) => l.includes('READY=1'));
    });
    d.child.kill('SIGTERM');
    expect(await d.exited).toBe(0);
    const lines = await notified(d);
    expect(lines.at(-1)).toMatch(/STOPPING=1$/);
    expect(lines.filter((l) => l.includes('WATCHDOG'))).toEqual([]);
  });

  it('SIGTERM in the middle of a slow cycle aborts it and exits 0 promptly', async () => {
    await sim.injectFault({ kind: 'slow', delay_ms: 20_000, path: 'recweather' });
    const d = await startDaemon();
    await until('the cycle in flight', () => d.output().includes('"msg":"cycle started"'));
    // Its request has reached the service, which holds it: the slow fault is taken.
    await until(
      'the slow request at the service',
      async () => !(await sim.stats()).pendingFaults.some((f) => f.kind === 'slow'),
    );
    const t0 = Date.now();
    d.child.kill('SIGTERM');
    expect(await d.exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect((await notified(d)).some((l) => l.includes('READY=1'))).toBe(false);
    await sim.clearFaults();
  });

  it('on start, publishes the last good frame from state_dir at once, before the first poll', async () => {
    const { dir, file } = await tempConfig('');
    await writeFile(path.join(dir, 'key'), `${DEMO_API_KEY}\n`, { mode: 0o600 });
    await writeFile(file, simulatedConfig({ baseUrl: sim.url, keyFile: 'key' }));
    expect((await runCli(['once', '--config', file])).code).toBe(0);
    const good = await readFile(path.join(dir, 'frames/hallway.json'), 'utf8');
    await rm(path.join(dir, 'frames'), { recursive: true });
    const polls = (await sim.stats()).requests.length;
    // A poll now would hang for 20 s: the frame must come from state_dir, not from the service.
    await sim.injectFault({ kind: 'slow', delay_ms: 20_000, path: 'recweather' });
    const d = await startDaemon({ dir });
    try {
      await until('READY=1', async () => (await notified(d)).some((l) => l.includes('READY=1')));
      expect(await readFile(path.join(dir, 'frames/hallway.json'), 'utf8')).toBe(good);
      await expect(stat(path.join(dir, 'frames/hallway.png'))).resolves.toBeTruthy();
      expect((await sim.stats()).requests.length).toBe(polls);
      expect(d.output()).not.toContain('"msg":"cycle started"');
    } finally {
      d.child.kill('SIGTERM');
      await d.exited;
      await sim.clearFaults();
    }
  });

  it('SIGHUP with a good config reloads it; with a bad one it keeps running on the old one', async () => {
    const d = await startDaemon();
    await until('READY=1', async () => (await notified(d)).some((l) => l.includes('READY=1')));

    await writeFile(d.file, (await readFile(d.file, 'utf8')).replace('name: Hallway', 'name: Front door'));
    d.child.kill('SIGHUP');
    await until('config reloaded', () => d.output().includes('"msg":"config reloaded"'));
    expect((await notified(d)).filter((l) => l.includes('READY=1'))).toHaveLength(2);
    expect((await notified(d)).some((l) => l.includes('RELOADING=1'))).toBe(true);

    await writeFile(d.file, (await readFile(d.file, 'utf8')).replace('lat: 52.52', 'lat: 152.52'));
    d.child.kill('SIGHUP');
    await until('reload refused', () => d.output().includes('reload refused'));
    expect(d.output()).toContain('displays[0].lat: must be between -90 and 90');
    expect(d.child.exitCode).toBeNull();

    d.child.kill('SIGTERM');
    expect(await d.exited).toBe(0);
  });

  it('tells systemd RELOADING=1 before READY=1 at every reload however slow systemd-notify is, nothing after STOPPING=1, and no secret', async () => {
    const { dir } = await tempConfig('');
    const notifyLog = path.join(dir, 'notify.log');
    const envLog = path.join(dir, 'notify-env.log');
    // The slowest case for the order: the RELOADING=1 child takes a while before it sends; the READY=1 child does not.
    const stub = `#!/bin/sh\ncase "$*" in *RELOADING=1*) sleep 0.3;; esac\necho "$*" >> ${notifyLog}\nenv >> ${envLog}\n`;
    const d = await startDaemon({ dir, stub, env: { OUTFIT_API_KEY: DEMO_API_KEY } });
    const states = async (): Promise<string[]> =>
      (await notified(d)).map((l) => l.replace(/^--pid=\d+ /, '')).filter((l) => !l.startsWith('WATCHDOG'));
    await until('READY=1', async () => (await states()).length === 1);
    const RELOADS = 4;
    for (let i = 1; i <= RELOADS; i++) {
      d.child.kill('SIGHUP');
      await until(`reload ${i} done`, async () => (await states()).length === 1 + 2 * i);
    }
    // A reload that the stop overtakes: its READY=1 must not follow STOPPING=1.
    d.child.kill('SIGHUP');
    await until(
      'the last reload under way',
      async () =>
        (await states()).includes('RELOADING=1') && d.output().split('reloading the config').length > RELOADS + 1,
    );
    d.child.kill('SIGTERM');
    expect(await d.exited).toBe(0);
    const lines = await states();
    const reloads = Array.from({ length: RELOADS }, () => ['RELOADING=1', 'READY=1 STATUS=1 display']).flat();
    // The last reload may be told (RELOADING=1), not yet told, or already done when SIGTERM lands; whichever, its
    // READY=1 never follows STOPPING=1.
    const orders = [[...reloads, 'RELOADING=1'], reloads, [...reloads, 'RELOADING=1', 'READY=1 STATUS=1 display']].map(
      (r) => ['READY=1 STATUS=1 display', ...r, 'STOPPING=1'],
    );
    expect(orders).toContainEqual(lines);
    const env = await readFile(envLog, 'utf8');
    expect(env).toContain('NOTIFY_SOCKET=');
    expect(env).not.toContain(DEMO_API_KEY);
    expect(env).not.toContain('OUTFIT_API_KEY');
  });
});
