import { configYaml } from '../helpers/config-yaml.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { BrokerPolicy, DEFAULT_BROKER_LIMITS } from '../../src/mqtt/broker/policy.js';
import { HttpPublisher } from '../../src/http/http-publisher.js';
import { mqttTopics } from '../../src/mqtt/topics.js';
import type { Publisher } from '../../src/publish/publisher.js';
import { buildPublishers } from '../../src/daemon/publishers.js';
import { resolveSchedules } from '../../src/budget/planner.js';
import { tempConfig } from '../helpers/cli.js';
import { testViews } from '../helpers/views.js';
import { httpRequest } from '../helpers/http-client.js';
import { startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';
import { checkDeviceDiscovery } from '../mqtt/ha-checker.js';
import { systemClock } from '../../src/time/clock.js';
import { budgetStatus } from '../fixtures/budget-status.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { watch } from '../helpers/mqtt-watch.js';

const MAC = 'AA:BB:CC:DD:EE:01';
const TOKEN = 'tok-hallway-0123456789';

describe('the Home Assistant pairing button', () => {
  let broker: Mosquitto;
  const started: Publisher[] = [];
  beforeAll(async () => {
    broker = await startMosquitto();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.stop()));
  });
  afterAll(async () => {
    await broker?.dispose();
  });

  it('a display with a TRMNL device gets a pair button; a press on <base>/<id>/pair opens pairing, a retained one does not', async () => {
    const base = 'od-pair';
    const { file } = await tempConfig(
      configYaml({
        displays: [
          { id: 'hallway', panel: 'trmnl' },
          { id: 'porch', panel: 'trmnl' },
        ],
        sections: [
          'mqtt:',
          `  url: ${broker.url}`,
          `  base_topic: ${base}`,
          '  discovery_prefix: ha-pair',
          'http:',
          '  listen: 127.0.0.1:0',
          'trmnl:',
          '  devices:',
          `    - mac: "${MAC}"`,
          '      display: hallway',
          `      token: ${TOKEN}`,
        ],
      }),
    );
    const loaded = await loadConfig(file, { env: {} });
    const seed = await watch(broker.url, ['ha-pair/device/+/config']);
    // Left retained by somebody: must not open pairing at every (re)start.
    await seed.client.publishAsync(`${base}/hallway/pair`, 'PRESS', { retain: true, qos: 1 });
    const cap = capturingLogger();
    const publishers = await buildPublishers(loaded, {
      logger: cap.logger,
      clock: systemClock,
      views: testViews({ displays: loaded.config.displays, clock: systemClock, budget: budgetStatus }).views,
      runs: { refresh: () => Promise.resolve(null) },
      schedules: resolveSchedules(loaded.config),
      refreshUnavailable: null,
    });
    started.push(...publishers);
    for (const p of publishers) await p.start();
    const http = publishers.find((p): p is HttpPublisher => p instanceof HttpPublisher)!;
    const setup = () => httpRequest(`${http.url!}/api/setup/`, { headers: { ID: MAC } });

    await seed.waitFor((all) => all.some((m) => m.topic.endsWith(`${base}_hallway/config`)), 'the hallway discovery');
    const discovery = (topic: string) =>
      JSON.parse(seed.latest(topic)!.payload.toString()) as { components: Record<string, Record<string, unknown>> };
    const hallway = discovery(`ha-pair/device/${base}_hallway/config`);
    expect(checkDeviceDiscovery(`ha-pair/device/${base}_hallway/config`, hallway, 'ha-pair')).toEqual([]);
    expect(hallway.components.device_pair).toMatchObject({
      platform: 'button',
      command_topic: `${base}/hallway/pair`,
      retain: false,
    });
    expect(hallway.components.refresh).toMatchObject({ platform: 'button' }); // existing entities keep their ids
    await seed.waitFor((all) => all.some((m) => m.topic.endsWith(`${base}_porch/config`)), 'the porch discovery');
    expect(discovery(`ha-pair/device/${base}_porch/config`).components.device_pair).toBeUndefined();

    expect((await setup()).status).toBe(404);
    await seed.client.publishAsync(`${base}/hallway/pair`, '', { retain: true, qos: 1 });
    // A display without a TRMNL device, and a malformed topic: nothing.
    await seed.client.publishAsync(`${base}/porch/pair`, 'PRESS', { qos: 1 });
    await seed.client.publishAsync(`${base}/hallway/pair/x`, 'PRESS', { qos: 1 });
    expect((await setup()).status).toBe(404);
    await seed.client.publishAsync(`${base}/hallway/pair`, 'PRESS', { qos: 1 });
    await expect.poll(async () => (await setup()).status, { timeout: 5_000, interval: 50 }).toBe(200);
    expect((await setup()).status).toBe(404);
    const opened = cap
      .text()
      .split('\n')
      .filter((l) => l.includes('TRMNL pairing opened over MQTT'));
    expect(opened).toHaveLength(1);
    await seed.close();
  });
});

describe('the embedded broker and the pairing button', () => {
  it('lets Home Assistant press <base>/<id>/pair, not retained and small, like refresh', () => {
    const policy = new BrokerPolicy({
      daemonLogin: { username: 'daemon', password: 'daemon-pw-0123' },
      guestLogin: null,
      topics: mqttTopics('outfit-display', 'homeassistant'),
      limits: DEFAULT_BROKER_LIMITS,
    });
    const press = (topic: string, retain = false, payload = 'PRESS') =>
      policy.authorizePublish('guest', 'ha', { topic, payload: Buffer.from(payload), retain });
    expect(press('outfit-display/hallway/pair')).toBeNull();
    expect(press('outfit-display/hallway/pair', true)?.code).toBe('E_MQTT_NOT_ALLOWED');
    expect(press('outfit-display/hallway/pair', false, 'x'.repeat(DEFAULT_BROKER_LIMITS.refreshBytes + 1))?.code).toBe(
      'E_MQTT_NOT_ALLOWED',
    );
    expect(press('outfit-display/hallway/device')?.code).toBe('E_MQTT_NOT_ALLOWED');
  });
});
