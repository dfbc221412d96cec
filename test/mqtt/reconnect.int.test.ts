import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MqttConnection, RECONNECT_BACKOFF } from '../../src/mqtt/connection.js';
import { backoffDelay } from '../../src/time/backoff-delay.js';
import { MqttPublisher } from '../../src/mqtt/mqtt-publisher.js';
import { freePort } from '../helpers/free-port.js';
import { startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';
import { checkDeviceDiscovery } from './ha-checker.js';
import { systemClock } from '../../src/time/clock.js';
import { testViews } from '../helpers/views.js';
import { budgetStatus } from '../fixtures/budget-status.js';
import { display } from '../fixtures/display.js';
import { mqttConfig } from '../fixtures/mqtt-config.js';
import { readRetained } from '../helpers/mqtt-watch.js';
import { rec } from '../fixtures/rec.js';
import { silentLogger } from '../helpers/capturing-logger.js';
import { update } from '../fixtures/frames.js';

const hallway = display('hallway');

describe('reconnect backoff and the offline outbox', () => {
  it('doubles the delay up to the maximum, with jitter between half and all of it', () => {
    const b = RECONNECT_BACKOFF;
    // Counted in connections lost in a row: the first reconnect waits after one.
    expect([1, 2, 3, 4, 7, 8, 51].map((n) => backoffDelay(n, b, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 60_000, 60_000, 60_000,
    ]);
    expect(backoffDelay(3, b, () => 0)).toBe(2000);
  });

  it('keeps only the newest message a topic while disconnected, within a bounded number of topics', async () => {
    const timers: number[] = [];
    const conn = new MqttConnection({
      url: `mqtt://127.0.0.1:${await freePort()}`,
      clientId: 'outbox-test',
      statusTopic: 't/status',
      logger: silentLogger(),
      maxOutboxTopics: 2,
      random: () => 1,
      clock: { ...systemClock, setTimeout: (_fn, ms) => timers.push(ms) },
    });
    await conn.start(); // nothing listens: resolves on the first failure
    expect(conn.connected).toBe(false);
    expect(timers).toEqual([1000]); // one reconnect scheduled, by our backoff
    conn.publish('t/a', 'a1');
    conn.publish('t/a', 'a2');
    conn.publish('t/b', Buffer.alloc(100_000));
    expect(conn.outboxSize).toBe(2);
    conn.publish('t/c', 'c1');
    expect(conn.outboxSize).toBe(2);
    await conn.stop();
  });
});

describe('broker restart', () => {
  let broker: Mosquitto;
  beforeAll(async () => {
    broker = await startMosquitto();
  });
  afterAll(async () => {
    await broker?.dispose();
  });

  it('reconnects after a broker restart and restores every retained topic with the newest state', async () => {
    const pViews = testViews({ displays: [hallway], budget: budgetStatus });
    const p = new MqttPublisher({
      mqtt: mqttConfig(broker.url),
      password: null,
      displays: [hallway],
      views: pViews.views,
      timezone: 'UTC',
      logger: silentLogger(),
      onRefresh: () => undefined,
      backoff: { baseMs: 50, maxMs: 200 },
      swVersion: '0.1.0',
    });
    try {
      await p.start();
      await p.publish(pViews.show(update(hallway, 'f1', { rec: rec({ outfit: 'first' }) })));
      await broker.stop();
      await vi.waitFor(() => expect(p.connected).toBe(false));
      // While the broker is down: two more cycles; only the newest of each topic may arrive.
      await p.publish(pViews.show(update(hallway, 'f2', { rec: rec({ outfit: 'second' }) })));
      await p.publish(pViews.show(update(hallway, 'f3', { rec: rec({ outfit: 'third' }) })));
      await broker.restart(); // persistence off: the broker comes back with no retained message at all
      await vi.waitFor(() => expect(p.connected).toBe(true), { timeout: 5000 });

      const retained = await readRetained(broker.url, ['#']);
      expect(retained.get('outfit-display/status')?.toString()).toBe('online');
      expect(JSON.parse(retained.get('outfit-display/hallway/state')!.toString())).toMatchObject({ outfit: 'third' });
      expect(retained.get('outfit-display/hallway/image')).toEqual(update(hallway, 'f3', { rec: null }).frame.png);
      expect(retained.has('outfit-display/hallway/diagnostics')).toBe(true);
      const topic = 'homeassistant/device/outfit-display_hallway/config';
      expect(checkDeviceDiscovery(topic, JSON.parse(retained.get(topic)!.toString()))).toEqual([]);
    } finally {
      await p.stop();
    }
  });

  it('starts with the broker down and connects when it comes up', async () => {
    await broker.stop();
    const pViews = testViews({ displays: [hallway] });
    const p = new MqttPublisher({
      mqtt: mqttConfig(broker.url, { base_topic: 'late' }),
      password: null,
      displays: [hallway],
      views: pViews.views,
      timezone: 'UTC',
      logger: silentLogger(),
      onRefresh: () => undefined,
      backoff: { baseMs: 50, maxMs: 200 },
    });
    try {
      await p.start();
      expect(p.connected).toBe(false);
      await p.publish(pViews.show(update(hallway, 'late', { rec: rec() })));
      await broker.restart();
      await vi.waitFor(() => expect(p.connected).toBe(true), { timeout: 5000 });
      const retained = await readRetained(broker.url, ['late/#', 'homeassistant/#']);
      expect([...retained.keys()].sort()).toEqual([
        'homeassistant/device/late_hallway/config',
        'late/hallway/diagnostics',
        'late/hallway/image',
        'late/hallway/state',
        'late/status',
      ]);
    } finally {
      await p.stop();
    }
  });
});

describe('start()', () => {
  it('resolves only once the broker has taken the subscriptions, so a message sent right after is received', async () => {
    // A broker that is slow to take a SUBSCRIBE (an aedes broker whose authorization takes 400 ms): before the
    // fix, start() resolved at the CONNACK and a message published at once went to nobody.
    const { Aedes } = await import('aedes');
    const { createServer } = await import('node:net');
    const mqtt = await import('mqtt');
    const aedes = await Aedes.createBroker({
      authorizeSubscribe: (_client, sub, done) => void setTimeout(() => done(null, sub), 400),
    });
    const server = createServer((socket) => aedes.handle(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `mqtt://127.0.0.1:${(server.address() as { port: number }).port}`;
    const got: string[] = [];
    const conn = new MqttConnection({ url, clientId: 'start-test', statusTopic: 't/status', logger: silentLogger() });
    conn.onMessage((topic, payload) => got.push(`${topic}=${payload.toString()}`));
    conn.subscribe('t/press');
    const started = Date.now();
    await conn.start();
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    const other = await mqtt.connectAsync(url, { clientId: 'start-test-presser' });
    await other.publishAsync('t/press', 'once', { qos: 1 });
    await vi.waitFor(() => expect(got).toEqual(['t/press=once']), { timeout: 5_000 });
    await other.endAsync();
    await conn.stop();
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    server.close();
  });
});
