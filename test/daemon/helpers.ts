import { configYaml } from '../helpers/config-yaml.js';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { FakeClock } from '../helpers/fake-clock.js';
import { loadConfig } from '../../src/config/load.js';
import { buildDaemon, type Daemon } from '../../src/daemon/daemon.js';
import type { Publisher } from '../../src/publish/publisher.js';
import type { DrawFrame } from '../../src/render/display-frame.js';
import type { ShownView } from '../../src/state/display-views.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { httpRequest } from '../helpers/http-client.js';
import { freePort } from '../helpers/free-port.js';
import { MOSQUITTO_BIN, startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';

/**
 * A whole daemon in this process, built from a config file through the real loader: the built-in simulated service
 * over real HTTP, the HTTP frame server on a free loopback port, MQTT when a broker URL is given, and a fake clock
 * (started now, so the clock guard trusts it) that the test moves. A counting publisher records every publish.
 */

export interface DaemonRig {
  daemon: Daemon;
  clock: FakeClock;
  dir: string;
  http: string;
  logger: Logger;
  logText: () => string;
  /** Every view handed to the publishers, in order. */
  published: ShownView[];
  /** The display's schedule as written in the config ({HH} and {MM} filled in): a restart passes it on. */
  schedule: string;
  /** Paid requests the simulated service answered (POST /recweather and /recommend). */
  paidRequests: () => Promise<number>;
  stop: () => Promise<void>;
}

export interface RigOptions {
  /** Extra YAML under `budget:` (indented by the caller's two spaces). */
  budget?: string;
  /** Extra YAML under `api:` (indented by the caller's two spaces), e.g. `timeout_s: 0.5`. */
  api?: string;
  /** An `mqtt:` section's URL; none: no MQTT. */
  mqttUrl?: string;
  /** The display's schedule; default every 10 minutes. `{HH}` and `{MM}` stand for the hour and minute (local time) of
   * the rig's start, so a test can name the slot it starts in ("{MM} {HH} * * *": daily, at the start's minute). */
  schedule?: string;
  /** Runs on the folder before the daemon is built (break the state folder, plant a last good file). */
  prepare?: (dir: string, start: number) => Promise<void>;
  /** The daemon's environment (default: none, so a SUPERVISOR_TOKEN of the test's own never counts). */
  env?: NodeJS.ProcessEnv;
  /** A stand-in for the Home Assistant Supervisor's API (with env.SUPERVISOR_TOKEN). */
  supervisorUrl?: string;
  /** Extra YAML lines of the display (indented by the caller under `    `), e.g. an `attached:` panel. */
  display?: string[];
  /** Extra top-level YAML lines after `http:` (an `openepaperlink:` section, say). */
  sections?: string[];
  /** Draws the frames (a render process's draw, say); default in this process. */
  draw?: DrawFrame;
  /** The folder of an earlier rig, for a restart (its state and output kept); default a new one. */
  dir?: string;
  /** When the fake clock starts (ms); default half a minute after a slot of the default schedule. */
  at?: number;
}

export async function daemonRig(opts: RigOptions = {}): Promise<DaemonRig> {
  const dir = opts.dir ?? (await mkdtemp(path.join(tmpdir(), 'outfit-daemon-')));
  const port = await freePort();
  // Half a minute after a slot of the rig's schedule (every 10 min): a start then makes up that slot at once, never
  // leaving it to a slot due seconds later, whatever the time the test runs at.
  const start = opts.at ?? Math.floor(Date.now() / 600_000) * 600_000 + 30_000;
  const [hh, mm] = new Date(start).toLocaleTimeString('en-GB', { timeZone: 'Europe/Berlin', hour12: false }).split(':');
  const schedule = (opts.schedule ?? '*/10 * * * *')
    .replaceAll('{HH}', String(Number(hh)))
    .replaceAll('{MM}', String(Number(mm)));
  const yaml = configYaml({
    ...(opts.api ? { api: [opts.api] } : {}),
    creditsPerDay: 3000,
    ...(opts.budget ? { budget: [opts.budget] } : {}),
    displays: [{ id: 'hallway', panel: 'waveshare-4in2', schedule, more: opts.display ?? [] }],
    sections: [
      'http:',
      `  listen: 127.0.0.1:${port}`,
      ...(opts.mqttUrl ? ['mqtt:', `  url: ${opts.mqttUrl}`] : []),
      ...(opts.sections ?? []),
    ],
  });
  await writeFile(path.join(dir, 'config.yaml'), yaml);
  await opts.prepare?.(dir, start);
  const loaded = await loadConfig(path.join(dir, 'config.yaml'));
  const clock = new FakeClock(start);
  const { logger, text } = capturingLogger();
  const published: ShownView[] = [];
  const counter: Publisher = {
    name: 'counter',
    start: () => Promise.resolve(),
    publish: (u) => {
      published.push(u);
      return Promise.resolve();
    },
    stop: () => Promise.resolve(),
  };
  const daemon = await buildDaemon({
    loaded,
    logger,
    clock,
    publishers: [counter],
    env: opts.env ?? {},
    ...(opts.supervisorUrl !== undefined && { supervisorUrl: opts.supervisorUrl }),
    ...(opts.draw !== undefined && { draw: opts.draw }),
  });
  return {
    daemon,
    clock,
    dir,
    http: `http://127.0.0.1:${port}`,
    logger,
    logText: text,
    published,
    schedule,
    async paidRequests() {
      const res = await fetch(`${daemon.baseUrl.replace(/\/v1$/, '')}/_sim/stats`);
      const stats = (await res.json()) as { requests: { path: string; status: number }[] };
      return stats.requests.filter((r) => /\/(recweather|recommend)$/.test(r.path)).length;
    },
    stop: () => daemon.stop(),
  };
}

/** Writes `state/last/hallway.json` under a rig's folder: a last good answer with `outfit`, bought at `at` (ISO). */
export async function plantLastGood(dir: string, outfit: string, at: string): Promise<void> {
  await mkdir(path.join(dir, 'state', 'last'), { recursive: true });
  const rec = {
    outfit,
    reasoning: 'planted',
    weather: {
      temp: 5,
      feels_like: 3,
      temp_unit: '°C',
      humidity_pct: 50,
      wind_speed: 10,
      wind_speed_unit: 'km/h',
      wind_dir: 'N',
      description: 'Cloudy',
      rain_chance_pct: 10,
      uv_index: 1,
      is_day: true,
      alerts: [],
    },
    model: 'planted',
    generated_at: at,
    fetched_at: at,
  };
  await writeFile(path.join(dir, 'state', 'last', 'hallway.json'), JSON.stringify(rec));
}

/** Queues a fault in the rig's simulated service (`/_sim/faults`: `{ kind: 'status', status, count }`, …). */
export async function injectFault(r: DaemonRig, fault: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${r.daemon.baseUrl.replace(/\/v1$/, '')}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  });
  expect(res.status).toBe(201);
}

/** The rig's `/displays/hallway/state.json`. */
export async function hallwayState(r: DaemonRig): Promise<Record<string, unknown>> {
  return (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Record<string, unknown>>();
}

/** The log lines (JSON) that carry `code`. */
export function linesWithCode(text: string, code: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((l) => l.includes(code))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/**
 * The hooks every daemon test file needs: a Mosquitto for the file (when `broker` is asked for), and the rig of each
 * test stopped after it. `rig()` builds a rig that is stopped after the test.
 */
export function daemonTests(opts: { broker: boolean }): {
  broker: () => Mosquitto;
  rig: (o?: RigOptions) => Promise<DaemonRig>;
} {
  let broker: Mosquitto | null = null;
  let current: DaemonRig | null = null;
  if (opts.broker) {
    beforeAll(async () => {
      if (MOSQUITTO_BIN === null) throw new Error('mosquitto is not installed: run bash .ci/setup --tests');
      broker = await startMosquitto();
    });
    afterAll(async () => broker?.dispose());
  }
  afterEach(async () => {
    await current?.stop();
    current = null;
  });
  return {
    broker: () => {
      if (broker === null) throw new Error('no broker: daemonTests({ broker: true })');
      return broker;
    },
    rig: async (o) => {
      current = await daemonRig(o);
      return current;
    },
  };
}
