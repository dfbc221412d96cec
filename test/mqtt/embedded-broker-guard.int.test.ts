import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codesIn } from '../../src/shared/codes.js';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../src/mqtt/broker/embedded-broker.js';
import { MqttPublisher } from '../../src/mqtt/mqtt-publisher.js';
import type { MqttConfig } from '../../src/config/schema.js';
import { ROOT } from '../helpers/cli.js';
import { outsider, publishOutcome, retainedOf } from './broker-clients.js';
import { testViews } from '../helpers/views.js';
import { budgetStatus } from '../fixtures/budget-status.js';
import { capturingLogger, silentLogger } from '../helpers/capturing-logger.js';
import { display } from '../fixtures/display.js';
import { mqttConfig } from '../fixtures/mqtt-config.js';
import { rec } from '../fixtures/rec.js';
import { update } from '../fixtures/frames.js';
import { watch } from '../helpers/mqtt-watch.js';

const hallway = display('hallway');
const STATUS = 'outfit-display/status';
const STATE = 'outfit-display/hallway/state';

let running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.stop()));
  running = [];
});

/** The daemon's side: the publisher with its embedded broker, one display published. */
async function daemonSide(
  over: {
    mqtt?: Partial<MqttConfig>;
    password?: string | null;
    clientId?: string;
    onRefresh?: (id: string) => void;
  } = {},
) {
  const log = capturingLogger();
  const pViews = testViews({ displays: [hallway], budget: budgetStatus });
  const p = new MqttPublisher({
    mqtt: mqttConfig('embedded', over.mqtt),
    password: over.password ?? null,
    displays: [hallway],
    views: pViews.views,
    timezone: 'Europe/Berlin',
    logger: log.logger,
    onRefresh: over.onRefresh ?? (() => undefined),
    embeddedPort: 0,
    haOnlineDelayMs: { min: 0, max: 0 },
    ...(over.clientId !== undefined && { clientId: over.clientId }),
  });
  running.push(p);
  await p.start();
  await p.publish(pViews.show(update(hallway, 'daemon', { rec: rec() })));
  const w = await watch(
    p.url,
    [STATE],
    over.mqtt?.username ? { username: over.mqtt.username, password: over.password ?? '' } : {},
  );
  await w.waitFor((all) => all.some((m) => m.topic === STATE), 'the daemon’s state');
  await w.close();
  return { p, log, pViews };
}

describe('embedded broker: what other clients may send', () => {
  it('refuses a retained 20 MB message from another client on its header, and keeps nothing of it', async () => {
    const { p } = await daemonSide();
    const o = await outsider(p.url);
    expect(await publishOutcome(o, 'elsewhere/big', Buffer.alloc(20 * 1024 * 1024, 0x61), true)).toBe('closed');
    expect(await retainedOf(p.url, 'elsewhere/big', STATUS)).toBeUndefined();
    expect(p.connected).toBe(true);
  });

  it('an anonymous client cannot overwrite the daemon’s retained topics: the values stay the daemon’s', async () => {
    const { p } = await daemonSide();
    for (const [topic, payload] of [
      [STATE, '{"outfit":"hacked"}'],
      [STATUS, 'offline'],
      ['outfit-display/hallway/image', 'not a png'],
      ['homeassistant/device/outfit-display_hallway/config', '{"device":{}}'],
    ] as const) {
      const o = await outsider(p.url);
      expect(await publishOutcome(o, topic, payload, true), topic).toBe('closed');
    }
    const state = await retainedOf(p.url, STATE, STATUS);
    expect((JSON.parse(state!.toString()) as { outfit: string }).outfit).toBe(rec().outfit);
    expect((await retainedOf(p.url, STATUS, STATE))?.toString()).toBe('online');
  });

  it('anonymous clients still read everything, press refresh and announce Home Assistant', async () => {
    const refreshes: string[] = [];
    const { p } = await daemonSide({ onRefresh: (id) => refreshes.push(id) });
    const w = await watch(p.url, ['outfit-display/#']);
    await w.waitFor((all) => all.some((m) => m.topic === STATE && m.retain), 'the retained state');
    const o = await outsider(p.url);
    expect(await publishOutcome(o, 'outfit-display/hallway/refresh', 'PRESS', false)).toBe('acked');
    await expect.poll(() => refreshes).toEqual(['hallway']);
    const states = w.all.filter((m) => m.topic === STATE).length;
    expect(await publishOutcome(o, 'homeassistant/status', 'online', false)).toBe('acked');
    await w.waitFor((all) => all.filter((m) => m.topic === STATE).length > states, 'the state sent again');
    // Home Assistant deletes a device with an empty retained config; a foreign topic is the client's own business.
    expect(await publishOutcome(o, 'homeassistant/device/outfit-display_hallway/config', '', true)).toBe('acked');
    expect(await publishOutcome(o, 'kitchen/light', 'on', true)).toBe('acked');
    // A retained press would fire at every restart of the daemon.
    expect(await publishOutcome(o, 'outfit-display/hallway/refresh', 'PRESS', true)).toBe('closed');
    await w.close();
  });

  it('a client may not take the daemon’s client id (that would throw the daemon off)', async () => {
    const { p } = await daemonSide({ clientId: 'outfit-daemon-1' });
    await expect(outsider(p.url, { clientId: 'outfit-daemon-1' })).rejects.toThrow(/Identifier rejected/i);
    expect(p.connected).toBe(true);
  });
});

describe('embedded broker: limits', () => {
  let broker: EmbeddedBroker | null = null;
  afterEach(async () => {
    await broker?.close();
    broker = null;
  });

  it('caps the bytes other clients retain; clearing a message makes room again', async () => {
    broker = await startEmbeddedBroker({ port: 0, limits: { guestRetainedBytes: 10_000 } });
    const o = await outsider(broker.url);
    for (let i = 0; i < 9; i++) expect(await publishOutcome(o, `t/${i}`, Buffer.alloc(1000), true)).toBe('acked');
    expect(broker.guestRetainedBytes).toBe(9 * 1003);
    expect(await publishOutcome(o, 't/0', Buffer.alloc(500), true)).toBe('acked');
    expect(await publishOutcome(o, 't/9', Buffer.alloc(2000), true)).toBe('closed');
    expect(broker.refusals().E_MQTT_RETAINED_FULL).toBe(1);
    const o2 = await outsider(broker.url);
    expect(await publishOutcome(o2, 't/1', '', true)).toBe('acked');
    expect(await publishOutcome(o2, 't/9', Buffer.alloc(2000), true)).toBe('acked');
    await o2.end();
  });

  it('cuts a connection whose CONNECT declares 100 MB, before anything is buffered', async () => {
    broker = await startEmbeddedBroker({ port: 0 });
    const socket = connect(broker.port, '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    // CONNECT (0x10), remaining length 100 MiB as a variable byte integer, then a little of the body.
    socket.write(Buffer.concat([Buffer.from([0x10, 0x80, 0x80, 0x80, 0x32]), Buffer.alloc(1000)]));
    await closed;
    expect(broker.refusals().E_MQTT_TOO_LARGE).toBe(1);
  });

  it('leaves room for the largest frame: a 2 MB image from the daemon is retained whole', async () => {
    const { p, pViews } = await daemonSide();
    const png = randomBytes(2 * 1024 * 1024);
    const u = update(hallway, 'big', { rec: rec() });
    await p.publish(
      pViews.show({ ...u, frame: { ...u.frame, png, hash: createHash('sha256').update(png).digest('hex') } }),
    );
    await expect
      .poll(async () => (await retainedOf(p.url, 'outfit-display/hallway/image', STATUS))?.equals(png), {
        timeout: 5000,
      })
      .toBe(true);
  });
});

describe('embedded broker: a login for Home Assistant (mqtt.username)', () => {
  it('lets in only that login and the daemon; the login reads and presses refresh but cannot write state', async () => {
    const refreshes: string[] = [];
    const password = 'ha-secret-pw-4711';
    const { p, log } = await daemonSide({
      mqtt: { username: 'homeassistant' },
      password,
      onRefresh: (id) => refreshes.push(id),
    });
    await expect(outsider(p.url)).rejects.toThrow(/Bad username or password/i);
    await expect(outsider(p.url, { username: 'homeassistant', password: 'wrong' })).rejects.toThrow(
      /Bad username or password/i,
    );
    const ha = await outsider(p.url, { username: 'homeassistant', password });
    expect(await publishOutcome(ha, 'outfit-display/hallway/refresh', 'PRESS', false)).toBe('acked');
    await expect.poll(() => refreshes).toEqual(['hallway']);
    expect(await publishOutcome(ha, STATE, '{}', true)).toBe('closed');
    expect(log.text()).not.toContain(password);
  });

  it('refuses to start with a username but no password', async () => {
    const pViews = testViews({ displays: [hallway] });
    const p = new MqttPublisher({
      mqtt: mqttConfig('embedded', { username: 'homeassistant' }),
      password: null,
      displays: [hallway],
      views: pViews.views,
      timezone: 'Europe/Berlin',
      logger: silentLogger(),
      onRefresh: () => undefined,
      embeddedPort: 0,
    });
    await expect(p.start()).rejects.toMatchObject({ code: 'E_CONFIG' });
    await p.stop();
  });
});

describe('embedded broker: refusal codes', () => {
  const doc = readFileSync(path.join(ROOT, 'docs/reference/mqtt.md'), 'utf8');
  it.each(codesIn('broker-refusal'))('%s is documented in docs/reference/mqtt.md', (code) => {
    expect(doc).toMatch(new RegExp(`\\| \`${code}\` \\|`));
  });
});
