import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lookupSupervisorMqtt } from '../../src/config/supervisor-mqtt.js';
import { codesIn } from '../../src/shared/codes.js';
import { memoryPeak } from '../helpers/memory-peak.js';
import { until } from '../helpers/until.js';
import { hasMosquittoPasswd, MOSQUITTO_BIN, startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';
import { daemonTests, linesWithCode } from './helpers.js';
import { watch } from '../helpers/mqtt-watch.js';

/**
 * Inside a Home Assistant add-on the broker comes from the Supervisor's services API. A stand-in for that API on
 * 127.0.0.1 answers as the Supervisor does; a real Mosquitto with a login is the broker it names.
 */

const TOKEN = 'supervisor-token-for-the-test';
const PASSWORD = 'addon-mqtt-password-9f3c';

interface StandIn {
  url: string;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  /** What GET /services/mqtt answers next. */
  answer: { status: number; body: unknown };
  close(): Promise<void>;
}

async function standIn(): Promise<StandIn> {
  const requests: StandIn['requests'] = [];
  const s: { answer: StandIn['answer'] } = { answer: { status: 404, body: { result: 'error', message: 'not set' } } };
  const server: Server = createServer((req, res) => {
    requests.push({ path: req.url ?? '', headers: req.headers });
    const ok = req.headers.authorization === `Bearer ${TOKEN}` && req.url === '/services/mqtt' && req.method === 'GET';
    const { status, body } = ok ? s.answer : { status: 401, body: { result: 'error', message: 'Unauthorized' } };
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    get answer() {
      return s.answer;
    },
    set answer(a) {
      s.answer = a;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the MQTT broker from the Home Assistant Supervisor', () => {
  const t = daemonTests({ broker: false });
  let broker: Mosquitto;
  let supervisor: StandIn;

  beforeAll(async () => {
    if (MOSQUITTO_BIN === null || !hasMosquittoPasswd())
      throw new Error('mosquitto is not installed: run bash .ci/setup --tests');
    broker = await startMosquitto({ users: { addons: PASSWORD } });
  });
  afterAll(async () => broker.dispose());
  beforeAll(async () => {
    supervisor = await standIn();
  });
  afterAll(async () => supervisor.close());
  afterEach(() => {
    supervisor.requests.length = 0;
  });

  it('asks the Supervisor with the token and publishes discovery and state to its broker, the password nowhere', async () => {
    supervisor.answer = {
      status: 200,
      body: {
        result: 'ok',
        data: {
          host: '127.0.0.1',
          port: broker.port,
          ssl: false,
          protocol: '3.1.1',
          username: 'addons',
          password: PASSWORD,
          addon: 'core_mosquitto',
        },
      },
    };
    const w = await watch(broker.url, ['outfit-display/#', 'homeassistant/device/+/config'], {
      username: 'addons',
      password: PASSWORD,
    });
    try {
      const r = await t.rig({ env: { SUPERVISOR_TOKEN: TOKEN }, supervisorUrl: supervisor.url });
      await r.daemon.runOnce('hallway', 'schedule');
      await w.waitFor(
        (all) =>
          all.some((m) => m.topic === 'outfit-display/hallway/state') &&
          all.some((m) => m.topic.startsWith('homeassistant/device/')),
        'state and discovery on the Supervisor’s broker',
      );
      expect(supervisor.requests).toEqual([expect.objectContaining({ path: '/services/mqtt' })]);
      expect(supervisor.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(linesWithCode(r.logText(), 'W_MQTT_SERVICE_NONE')).toEqual([]);
      expect(r.logText()).toContain('MQTT broker from the Home Assistant Supervisor');
      const page = await (await fetch(`${r.http}/`)).text();
      const state = await (await fetch(`${r.http}/displays/hallway/state.json`)).text();
      for (const text of [r.logText(), page, state, ...w.all.map((m) => m.payload.toString('latin1'))]) {
        expect(text).not.toContain(PASSWORD);
        expect(text).not.toContain(TOKEN);
      }
    } finally {
      await w.close();
    }
  });

  it('no MQTT service (400 "Service not enabled"): one W_MQTT_SERVICE_NONE, and the daemon runs without MQTT', async () => {
    supervisor.answer = { status: 400, body: { result: 'error', message: 'Service not enabled' } };
    const r = await t.rig({ env: { SUPERVISOR_TOKEN: TOKEN }, supervisorUrl: supervisor.url });
    const results = await r.daemon.runOnce('hallway', 'schedule');
    expect(results.get('hallway')?.published).toBe(true);
    expect(r.published).toHaveLength(1);
    const warned = linesWithCode(r.logText(), 'W_MQTT_SERVICE_NONE');
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ status: 400, reason: 'Service not enabled' });
    expect(r.logText()).not.toMatch(/MQTT connected|"part":"mqtt"/);
  });

  it('the Supervisor unreachable: W_SUPERVISOR_UNREACHABLE, and the daemon runs without MQTT', async () => {
    const gone = await standIn();
    await gone.close();
    const r = await t.rig({ env: { SUPERVISOR_TOKEN: TOKEN }, supervisorUrl: gone.url });
    expect((await r.daemon.runOnce('hallway', 'schedule')).get('hallway')?.published).toBe(true);
    expect(linesWithCode(r.logText(), 'W_SUPERVISOR_UNREACHABLE')).toHaveLength(1);
  });

  it('an answer of another shape counts as unreachable, and its password is not logged', async () => {
    supervisor.answer = {
      status: 200,
      body: { result: 'ok', data: { host: 'evil/path@x', port: 1883, password: PASSWORD } },
    };
    const r = await t.rig({ env: { SUPERVISOR_TOKEN: TOKEN }, supervisorUrl: supervisor.url });
    expect(linesWithCode(r.logText(), 'W_SUPERVISOR_UNREACHABLE')).toHaveLength(1);
    expect(r.logText()).not.toContain(PASSWORD);
  });

  it('ssl makes it mqtts; an IPv6 host is bracketed; an empty password is none; a 403 is no service', async () => {
    supervisor.answer = {
      status: 200,
      body: { result: 'ok', data: { host: '::1', port: 8883, ssl: true, username: 'u', password: '' } },
    };
    expect(await lookupSupervisorMqtt({ token: TOKEN, baseUrl: supervisor.url })).toEqual({
      kind: 'found',
      url: 'mqtts://[::1]:8883',
      username: 'u',
      password: null,
      addon: null,
    });
    supervisor.answer = { status: 403, body: { result: 'error', message: 'No access to mqtt service!' } };
    expect(await lookupSupervisorMqtt({ token: TOKEN, baseUrl: supervisor.url })).toMatchObject({
      kind: 'none',
      status: 403,
    });
    supervisor.answer = { status: 502, body: null };
    expect(await lookupSupervisorMqtt({ token: TOKEN, baseUrl: supervisor.url })).toMatchObject({
      kind: 'unreachable',
    });
  });

  it('an answer of 300 MB (valid JSON, padded) is read to 64 KiB only: unreachable, the connection closed, memory flat', async () => {
    const total = 300 * 1024 * 1024;
    const head = JSON.stringify({
      result: 'ok',
      data: { host: '127.0.0.1', port: broker.port, username: 'addons', password: PASSWORD },
    });
    const pad = Buffer.alloc(64 * 1024, 0x20);
    let sent = -1;
    // Made as it is sent, never held: the head, then spaces as the socket drains, until the client leaves.
    const server = createServer((_req, res) => {
      let n = 0;
      res.once('close', () => (sent = n));
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(head);
      const pump = (): void => {
        while (n < total && !res.destroyed) {
          n += pad.length;
          if (!res.write(pad)) return void res.once('drain', pump);
        }
        if (n >= total) res.end();
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const m = await memoryPeak(() =>
        lookupSupervisorMqtt({
          token: TOKEN,
          baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          timeoutMs: 20_000,
        }),
      );
      expect(m.value).toMatchObject({ kind: 'unreachable', reason: expect.stringContaining('over 64 KiB') as unknown });
      await until('the stand-in saw the connection close', () => sent >= 0);
      console.log(
        `Supervisor answer of 300 MB: ${(sent / 1024 / 1024).toFixed(1)} MB written before the lookup closed the connection; peak growth RSS ${m.rssMb.toFixed(1)} MB, heap+external ${m.heapMb.toFixed(1)} MB`,
      );
      expect(sent).toBeLessThan(total / 10);
      expect(m.rssMb).toBeLessThan(48);
      expect(m.heapMb).toBeLessThan(48);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 60_000);

  it('without SUPERVISOR_TOKEN, or with an mqtt section, the Supervisor is not asked', async () => {
    await t.rig({ env: {}, supervisorUrl: supervisor.url });
    await t.rig({
      env: { SUPERVISOR_TOKEN: TOKEN },
      supervisorUrl: supervisor.url,
      mqttUrl: `mqtt://addons:${PASSWORD}@127.0.0.1:${broker.port}`,
    });
    expect(supervisor.requests).toEqual([]);
  });
});

describe('the Supervisor lookup in docs/guides/container.md', () => {
  const doc = readFileSync(path.join(import.meta.dirname, '../../docs/guides/container.md'), 'utf8');
  it.each(codesIn('supervisor'))('%s is documented in docs/guides/container.md', (code) => {
    expect(doc).toMatch(new RegExp(`\\| \`${code}\` \\|`));
  });
});
