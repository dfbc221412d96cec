import type { ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import { simulatedConfig, startCli, tempConfig } from '../helpers/cli.js';
import { httpRequest } from '../helpers/http-client.js';
import { freePort } from '../helpers/free-port.js';
import { startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';
import { startSimProcess, type SimProcess } from '../helpers/service-sim-process.js';
import { until } from '../helpers/until.js';

let broker: Mosquitto;
let sim: SimProcess;
beforeAll(async () => {
  [broker, sim] = await Promise.all([startMosquitto(), startSimProcess()]);
});
afterAll(async () => {
  await Promise.all([broker.dispose(), sim.stop()]);
});

/** The real daemon process, publishing to the test's Mosquitto, polling the test's simulated service. */
async function startDaemon(
  extra = '',
): Promise<{ child: ChildProcess; exited: Promise<unknown>; output: () => string }> {
  const { dir, file } = await tempConfig('');
  await writeFile(path.join(dir, 'key'), `${DEMO_API_KEY}\n`, { mode: 0o600 });
  const yaml = simulatedConfig({ baseUrl: sim.url, keyFile: 'key' })
    .replace('credits_per_day: 300', 'credits_per_day: 300\n  refresh_reserve_credits: 30')
    .replace('output_dir:', `mqtt:\n  url: ${broker.url}\n${extra}output_dir:`);
  await writeFile(file, yaml);
  const child = startCli(['run', '--config', file]);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return { child, exited, output: () => out };
}

function subscriber(topics: string[]): Promise<{ client: MqttClient; seen: Map<string, string[]> }> {
  return new Promise((resolve) => {
    const client = mqtt.connect(broker.url, { reconnectPeriod: 0 });
    const seen = new Map<string, string[]>();
    client.on('message', (topic, payload) => seen.set(topic, [...(seen.get(topic) ?? []), payload.toString()]));
    client.on('connect', () => client.subscribe(topics, () => resolve({ client, seen })));
  });
}

function recweatherCalls(stats: Awaited<ReturnType<SimProcess['stats']>>): number {
  return stats.requests.filter((r) => r.path.endsWith('/recweather')).length;
}

describe('the daemon process and the broker', () => {
  it('two refresh presses during a slow call make one API call, not two', async () => {
    const d = await startDaemon();
    const { client, seen } = await subscriber(['outfit-display/#']);
    try {
      await until('the first state', () => seen.has('outfit-display/hallway/state'));
      const before = recweatherCalls(await sim.stats());
      await sim.injectFault({ kind: 'slow', delay_ms: 1500, path: 'recweather' });
      client.publish('outfit-display/hallway/refresh', 'PRESS');
      // The first press's call has reached the service, which holds it (the slow fault is taken).
      await until('the slow call', async () => !(await sim.stats()).pendingFaults.some((f) => f.kind === 'slow'));
      const states = seen.get('outfit-display/hallway/state')?.length ?? 0;
      client.publish('outfit-display/hallway/refresh', 'PRESS');
      // The daemon takes MQTT messages in order: once it has warned about a press for an unknown display sent after
      // the second press, it has taken that one too, and any call of its own started then.
      client.publish('outfit-display/nope/refresh', 'PRESS');
      await until('the press after the second', () => d.output().includes('"code":"W_REFRESH_UNKNOWN_DISPLAY"'));
      await until('the refreshed state', () => (seen.get('outfit-display/hallway/state')?.length ?? 0) > states);
      // The slow call took 1.5 s: a second call (no fault left) would have been answered long before it, and counted.
      expect(recweatherCalls(await sim.stats()) - before).toBe(1);
    } finally {
      client.end(true);
      d.child.kill('SIGTERM');
      await d.exited;
      await sim.clearFaults();
    }
  });

  it('kill -9 of the daemon: the broker delivers the retained offline (last will)', async () => {
    const d = await startDaemon();
    const { client, seen } = await subscriber(['outfit-display/status']);
    try {
      await until('online', () => seen.get('outfit-display/status')?.at(-1) === 'online');
      d.child.kill('SIGKILL');
      await d.exited;
      await until('offline', () => seen.get('outfit-display/status')?.at(-1) === 'offline', { timeoutMs: 15_000 });
    } finally {
      client.end(true);
    }
    // Retained: a client that connects now is told at once.
    const late = await subscriber(['outfit-display/status']);
    await until('retained offline', () => late.seen.get('outfit-display/status')?.[0] === 'offline');
    late.client.end(true);
  });

  it('a TRMNL device’s battery and signal reach MQTT as a Home Assistant device of its own, via the display', async () => {
    const port = await freePort();
    const mac = 'AA:BB:CC:DD:EE:01';
    const d = await startDaemon(
      `http:\n  listen: 127.0.0.1:${port}\ntrmnl:\n  devices:\n    - mac: "${mac}"\n      display: hallway\n      token: trmnl-token-0123\n`,
    );
    const state = 'outfit-display/hallway/devices/trmnl-aabbccddee01';
    const configTopic = 'homeassistant/device/outfit-display_hallway_DEV_trmnl-aabbccddee01/config';
    const { client, seen } = await subscriber([state, `${state}/availability`, 'homeassistant/device/+/config']);
    try {
      // Earlier tests left a retained config without the pairing button: wait for the one this daemon sends.
      await until('the display’s discovery with the pairing button', () =>
        (seen.get('homeassistant/device/outfit-display_hallway/config')?.at(-1) ?? '').includes('device_pair'),
      );
      await until(
        'the HTTP server',
        async () => (await httpRequest(`http://127.0.0.1:${port}/healthz`).catch(() => null)) !== null,
      );
      const res = await httpRequest(`http://127.0.0.1:${port}/api/display`, {
        headers: {
          ID: mac,
          'Access-Token': 'trmnl-token-0123',
          'Battery-Voltage': '3.91',
          RSSI: '-61',
          'FW-Version': '1.5.2',
          Model: 'og',
          'Update-Source': 'timer',
        },
      });
      expect(res.status).toBe(200);
      await until('the device’s state and discovery', () => seen.has(state) && seen.has(configTopic));
      expect(JSON.parse(seen.get(state)?.at(-1) ?? '{}')).toMatchObject({
        battery_voltage: 3.91,
        battery_pct: 75.8,
        rssi: -61,
        fw_version: '1.5.2',
        model: 'og',
      });
      const config = JSON.parse(seen.get(configTopic)?.at(-1) ?? '{}') as {
        device: { via_device?: string };
        components: Record<string, { state_topic?: string; device_class?: string }>;
      };
      expect(config.device.via_device).toBe('outfit-display_hallway');
      expect(config.components.battery).toMatchObject({ device_class: 'battery', state_topic: state });
      expect(seen.get(`${state}/availability`)?.at(-1)).toBe('online');
    } finally {
      client.end(true);
      d.child.kill('SIGTERM');
      await d.exited;
    }
  });

  it('a clean stop publishes offline', async () => {
    const d = await startDaemon();
    const { client, seen } = await subscriber(['outfit-display/status']);
    try {
      await until('online', () => seen.get('outfit-display/status')?.at(-1) === 'online');
      d.child.kill('SIGTERM');
      expect(await d.exited).toBe(0);
      await until('offline', () => seen.get('outfit-display/status')?.at(-1) === 'offline');
    } finally {
      client.end(true);
    }
  });
});
