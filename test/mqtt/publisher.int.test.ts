import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { deviceDiscovery } from '../../src/mqtt/ha-discovery.js';
import { MqttPublisher, type MqttPublisherOptions } from '../../src/mqtt/mqtt-publisher.js';
import { startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';
import { checkDeviceDiscovery, checkStates } from './ha-checker.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { testViews, type TestViews } from '../helpers/views.js';
import type { DisplayState } from '../../src/state/display-state.js';
import { budgetStatus } from '../fixtures/budget-status.js';
import { capturingLogger, silentLogger } from '../helpers/capturing-logger.js';
import { display } from '../fixtures/display.js';
import { mqttConfig } from '../fixtures/mqtt-config.js';
import { readRetained, watch } from '../helpers/mqtt-watch.js';
import { rec } from '../fixtures/rec.js';
import { update } from '../fixtures/frames.js';

const hallway = display('hallway');
const porch = display('porch', { unit: 'imperial', name: 'Front porch' });

describe('MQTT publisher against Mosquitto', () => {
  let broker: Mosquitto;
  const publishers: MqttPublisher[] = [];

  beforeAll(async () => {
    broker = await startMosquitto();
  });
  afterEach(async () => {
    await Promise.all(publishers.splice(0).map((p) => p.stop()));
  });
  afterAll(async () => {
    await broker?.dispose();
  });

  /** Each publisher's display book and views (the daemon's side). */
  const viewsOf = new Map<MqttPublisher, TestViews>();

  function make(over: Partial<MqttPublisherOptions> = {}): MqttPublisher {
    const displays = over.displays ?? [hallway, porch];
    const side = testViews({ displays, budget: budgetStatus, ...(over.clock !== undefined && { clock: over.clock }) });
    const p = new MqttPublisher({
      mqtt: mqttConfig(broker.url, over.mqtt),
      password: null,
      displays,
      views: side.views,
      timezone: 'Europe/Berlin',
      logger: silentLogger(),
      onRefresh: () => undefined,
      expireAfterS: () => 9000,
      swVersion: '0.1.0',
      ...over,
    });
    viewsOf.set(p, side);
    publishers.push(p);
    return p;
  }

  /** As a display's cycle does: records its state in the display book, then hands the publisher the display's view. */
  function publish(p: MqttPublisher, state: DisplayState): Promise<void> {
    return p.publish(viewsOf.get(p)!.show(state));
  }

  it('leaves every topic retained, and HA accepts every discovery payload and state', async () => {
    const base = 'od-retained';
    const p = make({ mqtt: mqttConfig(broker.url, { base_topic: base, discovery_prefix: 'ha-retained' }) });
    await p.start();
    expect(p.connected).toBe(true);
    const long = 'Thermal base layer, fleece, waterproof shell, '.repeat(10);
    await publish(p, update(hallway, 'h1', { rec: rec({ outfit: long, alerts: [{ title: 'Gale warning' }] }) }));
    await publish(
      p,
      update(porch, 'p1', {
        rec: rec({ imperial: true }),
        status: {
          kind: 'unreachable',
          since: new Date('2026-01-31T06:00:00Z'),
          message: 'timeout',
        },
      }),
    );

    // publish() does not wait for the broker's acknowledgements, so a watcher may get some topics live (not flagged
    // retained): once all nine have reached the broker, read what it keeps retained.
    const filters = [`${base}/#`, 'ha-retained/#'];
    const w = await watch(broker.url, filters);
    await w.waitFor((all) => new Set(all.map((m) => m.topic)).size >= 9, 'nine topics');
    await w.close();
    const retained = await readRetained(broker.url, filters);
    expect(retained.size).toBe(9);
    expect(retained.get(`${base}/status`)?.toString()).toBe('online');
    expect(retained.get(`${base}/hallway/image`)).toEqual(update(hallway, 'h1', { rec: null }).frame.png);
    expect(JSON.parse(retained.get(`${base}/porch/state`)!.toString())).toMatchObject({
      stale: true,
      weather: { temp_unit: '°F' },
    });
    expect(JSON.parse(retained.get(`${base}/porch/diagnostics`)!.toString())).toMatchObject({
      status: 'unreachable',
      status_detail: 'timeout',
      credits_spent_today: 12,
      rate_limit_remaining: 57,
    });

    for (const d of [hallway, porch]) {
      const topic = `ha-retained/device/${base}_${d.id}/config`;
      const payload: unknown = JSON.parse(retained.get(topic)!.toString());
      expect(checkDeviceDiscovery(topic, payload, 'ha-retained')).toEqual([]);
      const { problems, states } = checkStates(payload as never, retained);
      expect(problems).toEqual([]);
      expect(Array.from(states.outfit ?? '').length).toBeLessThanOrEqual(255);
    }
    const porchConfig = JSON.parse(retained.get(`ha-retained/device/${base}_porch/config`)!.toString()) as ReturnType<
      typeof deviceDiscovery
    >['payload'];
    expect(porchConfig.components.temperature).toMatchObject({ unit_of_measurement: '°F', expire_after: 9000 });
    expect(porchConfig.components.wind_speed).toMatchObject({ unit_of_measurement: 'mph' });
  });

  it('re-sends discovery and states a random delay after homeassistant/status online', async () => {
    // A fake clock: its timers are counted (the SUBACK bound's is cleared with the SUBACK, so none is left of it).
    const clock = new FakeClock();
    const presses: string[] = [];
    const p = make({
      mqtt: mqttConfig(broker.url, { base_topic: 'od-ha', discovery_prefix: 'ha-online' }),
      onRefresh: (id) => presses.push(id),
      random: () => 0.5,
      clock,
    });
    await p.start();
    await publish(p, update(hallway, 'h1', { rec: rec() }));
    const w = await watch(broker.url, ['ha-online/device/+/config', 'od-ha/hallway/state']);
    await w.waitFor((all) => all.length >= 3, 'retained configs and state');
    w.all.length = 0;

    await w.client.publishAsync('ha-online/status', 'online');
    await vi.waitFor(() => expect(clock.pendingTimers()).toBe(1));
    expect(clock.msToNextTimer()).toBe(3000); // 1 s + 0.5 × 4 s
    await w.client.publishAsync('ha-online/status', 'online'); // a second announcement while one is pending: one re-send
    // A press sent after it by the same client arrives after it: once it is seen, the announcement was handled.
    await w.client.publishAsync('od-ha/hallway/refresh', 'PRESS');
    await vi.waitFor(() => expect(presses).toEqual(['hallway']));
    expect(w.all).toEqual([]);
    expect(clock.pendingTimers()).toBe(1);

    clock.runNext();
    await w.waitFor((all) => all.length >= 3, 're-sent configs and state');
    expect(w.all.map((m) => m.topic).sort()).toEqual([
      'ha-online/device/od-ha_hallway/config',
      'ha-online/device/od-ha_porch/config',
      'od-ha/hallway/state',
    ]);
    expect(w.all.every((m) => !m.retain)).toBe(true); // live copies of retained messages
    await w.close();
  });

  it('calls onRefresh once a press with the display id; retained, unknown and malformed topics do not', async () => {
    const base = 'od-refresh';
    const seed = await watch(broker.url, []);
    // Left retained by somebody: must not fire at every (re)start.
    await seed.client.publishAsync(`${base}/hallway/refresh`, 'PRESS', { retain: true, qos: 1 });
    const calls: string[] = [];
    const p = make({ mqtt: mqttConfig(broker.url, { base_topic: base }), onRefresh: (id) => calls.push(id) });
    await p.start();
    // start() returns once the broker has taken the subscriptions: a press sent now is received. It arrives after the
    // retained one would have (the broker sends retained messages with the subscription): once it is seen, the
    // retained one was not.
    await seed.client.publishAsync(`${base}/porch/refresh`, 'PRESS', { qos: 1 });
    await vi.waitFor(() => expect(calls).toContain('porch'), { timeout: 10_000 });
    expect(calls).toEqual(['porch']);
    calls.length = 0;
    await seed.client.publishAsync(`${base}/hallway/refresh`, '', { retain: true, qos: 1 });

    for (const t of [
      `${base}/attic/refresh`,
      `${base}/Hallway/refresh`,
      `${base}/hallway/refresh/x`,
      `${base}//refresh`,
      `${base}/hallway/refreshx`,
    ]) {
      await seed.client.publishAsync(t, 'PRESS', { qos: 1 });
    }
    await seed.client.publishAsync(`${base}/hallway/refresh`, 'PRESS', { qos: 1 });
    await seed.client.publishAsync(`${base}/porch/refresh`, '{"any":"payload"}', { qos: 1 });
    await seed.client.publishAsync(`${base}/hallway/refresh`, 'again', { qos: 1 });
    // A last press to mark the end: the unknown and malformed topics before it have been seen by then.
    await seed.client.publishAsync(`${base}/porch/refresh`, 'last', { qos: 1 });
    await vi.waitFor(() => expect(calls.at(-1)).toBe('porch'), { timeout: 10_000 });
    expect(calls).toEqual(['hallway', 'porch', 'hallway', 'porch']);
    await seed.close();
  });

  it('a failing onRefresh is logged, not thrown', async () => {
    const { logger, text } = capturingLogger();
    const p = make({
      mqtt: mqttConfig(broker.url, { base_topic: 'od-refresh-fail' }),
      logger,
      onRefresh: () => Promise.reject(new Error('no budget')),
    });
    await p.start();
    const w = await watch(broker.url, []);
    await w.client.publishAsync('od-refresh-fail/hallway/refresh', 'PRESS', { qos: 1 });
    await vi.waitFor(() => expect(text()).toContain('refresh failed'));
    expect(text()).toContain('no budget');
    expect(p.connected).toBe(true);
    await w.close();
  });

  it('removes the HA device and retained data of a display no longer configured, and nothing else', async () => {
    const mq = mqttConfig(broker.url, { base_topic: 'od-removal', discovery_prefix: 'ha-removal' });
    const attic = display('attic');
    const first = make({ mqtt: mq, displays: [hallway, attic] });
    await first.start();
    await publish(first, update(hallway, 'h1', { rec: rec() }));
    await publish(first, update(attic, 'a1', { rec: rec() }));
    const foreign = await watch(broker.url, []);
    const other = { device: { identifiers: ['z'] }, origin: { name: 'zigbee2mqtt' }, components: {} };
    await foreign.client.publishAsync('ha-removal/device/od-removal_zigbee/config', JSON.stringify(other), {
      retain: true,
      qos: 1,
    });
    await first.stop();
    const before = await readRetained(broker.url, ['ha-removal/#', 'od-removal/#']);
    expect([...before.keys()]).toContain('ha-removal/device/od-removal_attic/config');
    expect([...before.keys()]).toContain('od-removal/attic/image');

    const second = make({ mqtt: mq, displays: [hallway] });
    await second.start();
    await expect
      .poll(async () => [...(await readRetained(broker.url, ['ha-removal/#', 'od-removal/#'])).keys()].sort(), {
        timeout: 10_000,
      })
      .toEqual([
        'ha-removal/device/od-removal_hallway/config',
        'ha-removal/device/od-removal_zigbee/config',
        'od-removal/hallway/diagnostics',
        'od-removal/hallway/image',
        'od-removal/hallway/state',
        'od-removal/status',
      ]);
    await foreign.client.publishAsync('ha-removal/device/od-removal_zigbee/config', '', { retain: true, qos: 1 });
    await foreign.close();
  });

  it('clears the HA device of a display with discovery switched off, and keeps its data topics', async () => {
    const mq = mqttConfig(broker.url, { base_topic: 'od-toggle', discovery_prefix: 'ha-toggle' });
    const on = make({ mqtt: mq, displays: [hallway] });
    await on.start();
    await publish(on, update(hallway, 'h1', { rec: rec() }));
    await on.stop();
    expect([...(await readRetained(broker.url, ['ha-toggle/#'])).keys()]).toEqual([
      'ha-toggle/device/od-toggle_hallway/config',
    ]);
    const off = make({ mqtt: mq, displays: [hallway], haDiscovery: () => false });
    await off.start();
    await publish(off, update(hallway, 'h2', { rec: rec() }));
    await expect
      .poll(async () => [...(await readRetained(broker.url, ['ha-toggle/#'])).keys()], { timeout: 10_000 })
      .toEqual([]);
    expect([...(await readRetained(broker.url, ['od-toggle/hallway/#'])).keys()].sort()).toEqual([
      'od-toggle/hallway/diagnostics',
      'od-toggle/hallway/image',
      'od-toggle/hallway/state',
    ]);
  });

  it('publishes offline (retained) on a clean stop', async () => {
    const p = make({ mqtt: mqttConfig(broker.url, { base_topic: 'od-stop' }) });
    await p.start();
    await p.stop();
    const retained = await readRetained(broker.url, ['od-stop/status']);
    expect(retained.get('od-stop/status')?.toString()).toBe('offline');
  });
});
