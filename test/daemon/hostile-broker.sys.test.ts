import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SUBACK_TIMEOUT_MS } from '../../src/mqtt/connection.js';
import { simulatedConfig, startCli, tempConfig } from '../helpers/cli.js';
import { freePort } from '../helpers/free-port.js';
import { httpRequest } from '../helpers/http-client.js';
import { until } from '../helpers/until.js';
import { startHostileBroker, type HostileBroker } from '../mqtt/hostile-broker.js';

/**
 * The real daemon process with a broker in its config that takes the CONNECT and never answers the SUBSCRIBE.
 * Before: no frame, /healthz 503, and SIGTERM ignored (mqtt.js held its DISCONNECT for the SUBACK, so
 * the connection never closed, the start never ended, and the stop waited for the start). Now the daemon starts
 * after the SUBACK bound, with its frame file and HTTP frames, and SIGTERM ends it at once with exit 0.
 */

interface Daemon {
  child: ChildProcess;
  exited: Promise<number | null>;
  dir: string;
  http: string;
  output: () => string;
}

let running: { broker: HostileBroker; daemon: Daemon } | null = null;
afterEach(async () => {
  if (running === null) return;
  const { broker, daemon } = running;
  running = null;
  if (daemon.child.exitCode === null && daemon.child.signalCode === null) {
    daemon.child.kill('SIGKILL');
    await daemon.exited;
  }
  await broker.close();
  await rm(daemon.dir, { recursive: true, force: true });
});

async function start(): Promise<{ broker: HostileBroker; daemon: Daemon }> {
  const broker = await startHostileBroker();
  const port = await freePort();
  const yaml = simulatedConfig().replace(
    'output_dir:',
    `http:\n  listen: 127.0.0.1:${port}\nmqtt:\n  url: ${broker.url}\noutput_dir:`,
  );
  const { dir, file } = await tempConfig(yaml);
  const child = startCli(['run', '--config', file], { cwd: dir });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  running = { broker, daemon: { child, exited, dir, http: `http://127.0.0.1:${port}`, output: () => out } };
  return running;
}

/** SIGTERM, and the time until the process has exited, with its code. */
async function sigterm(d: Daemon): Promise<{ code: number | null; ms: number }> {
  const t0 = performance.now();
  d.child.kill('SIGTERM');
  const code = await Promise.race([
    d.exited,
    new Promise<'alive'>((resolve) => setTimeout(() => resolve('alive'), 15_000)),
  ]);
  if (code === 'alive') throw new Error(`still running 15 s after SIGTERM\n${d.output().slice(-3000)}`);
  return { code, ms: performance.now() - t0 };
}

describe('a broker that never answers SUBSCRIBE cannot hold the daemon', () => {
  it('the daemon writes its frame file and serves /healthz after the SUBACK bound; SIGTERM ends it with exit 0', async () => {
    const { broker, daemon } = await start();
    const context = { context: () => daemon.output().slice(-3000) };
    await until('the SUBSCRIBE at the broker', () => broker.received('subscribe') >= 1, context);
    await until('the frame file', () => existsSync(path.join(daemon.dir, 'frames', 'hallway.png')), {
      timeoutMs: SUBACK_TIMEOUT_MS + 15_000,
      ...context,
    });
    const health = await until(
      '/healthz 200',
      async () => {
        const res = await httpRequest(`${daemon.http}/healthz`).catch(() => null);
        return res?.status === 200 ? res : null;
      },
      context,
    );
    expect(health.status).toBe(200);
    expect(daemon.output()).toContain('"code":"W_MQTT_SUBACK_TIMEOUT"');
    const { code, ms } = await sigterm(daemon);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(8_000);
  }, 60_000);

  it('SIGTERM in the middle of a start held by the broker ends the process with exit 0', async () => {
    const { broker, daemon } = await start();
    await until('the SUBSCRIBE at the broker', () => broker.received('subscribe') >= 1, {
      context: () => daemon.output().slice(-3000),
    });
    const { code, ms } = await sigterm(daemon);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(8_000);
    expect(existsSync(path.join(daemon.dir, 'frames', 'hallway.png'))).toBe(false);
  }, 30_000);
});
