import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../src/mqtt/broker/embedded-broker.js';
import { DEFAULT_BROKER_LIMITS } from '../../src/mqtt/broker/policy.js';
import { MqttConnection } from '../../src/mqtt/connection.js';
import { until } from '../helpers/until.js';
import { outsider, type Outsider } from './broker-clients.js';
import { capturingLogger } from '../helpers/capturing-logger.js';

/**
 * The embedded broker bounds what each guest subscribes to: any client could send 3,000 filters a
 * SUBSCRIBE, again and again, until the daemon ran out of heap. Real broker, real sockets, mqtt.js clients.
 */

const {
  guestSubscriptionsPerClient: PER_CLIENT,
  guestSubscriptionsTotal: TOTAL,
  guestSubscriptionsGuaranteed: GUARANTEED,
} = DEFAULT_BROKER_LIMITS;
const REFUSED = 128;

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function broker(): Promise<{ b: EmbeddedBroker; lines: () => { code?: string; err?: { code?: string } }[] }> {
  const log = capturingLogger();
  const b = await startEmbeddedBroker({ port: 0, logger: log.logger });
  cleanup.push(() => b.close());
  const lines = () =>
    log
      .text()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { code?: string; err?: { code?: string } });
  return { b, lines };
}

async function guest(url: string): Promise<Outsider> {
  const o = await outsider(url);
  cleanup.push(() => o.end());
  return o;
}

/** The SUBACK's return code for each filter of one SUBSCRIBE (mqtt.js rejects when any is 0x80, with the packet). */
async function suback(client: MqttClient, filters: string[], qos: 0 | 1 = 0): Promise<number[]> {
  try {
    return (await client.subscribeAsync(filters, { qos })).map((g) => g.qos);
  } catch (err) {
    const packet = (err as { packet?: { granted?: number[] } }).packet;
    if (packet?.granted === undefined) throw err;
    return packet.granted;
  }
}

/** SUBSCRIBEs `filters` in one packet; how many the SUBACK granted and how many it refused (0x80). */
async function subscribe(client: MqttClient, filters: string[]): Promise<{ granted: number; refused: number }> {
  const codes = await suback(client, filters);
  const refused = codes.filter((c) => c === REFUSED).length;
  return { granted: codes.length - refused, refused };
}

const flood = (who: string, round: number): string[] =>
  Array.from({ length: 3000 }, (_, i) => `flood/${who}/${round}/${i}`);

describe('embedded broker: subscriptions of other clients are bounded', () => {
  it('a flood gets 0x80 beyond the limits, logged once a client; Home Assistant and the daemon still subscribe and talk', async () => {
    const { b, lines } = await broker();
    const flooders: Outsider[] = [];
    const granted: number[] = [];
    let refused = 0;
    for (let f = 0; f < 5; f++) {
      const o = await guest(b.url);
      flooders.push(o);
      let g = 0;
      for (let round = 0; round < 2; round++) {
        const r = await subscribe(o.client, flood(`c${f}`, round));
        g += r.granted;
        refused += r.refused;
      }
      granted.push(g);
    }
    // Four clients at their own limit fill the total; the fifth gets only the filters every connection may hold.
    expect(granted).toEqual([PER_CLIENT, PER_CLIENT, PER_CLIENT, PER_CLIENT, GUARANTEED]);
    expect(TOTAL).toBe(4 * PER_CLIENT);
    expect(b.guestSubscriptions).toBe(TOTAL + GUARANTEED);
    // Refused filters leave the connection open, and are logged once a connection, counted every one.
    expect(flooders.every((o) => !o.isClosed())).toBe(true);
    const full = lines().filter((l) => l.err?.code === 'E_MQTT_SUBSCRIPTIONS_FULL');
    expect(full).toHaveLength(5);
    expect(b.refusals().E_MQTT_SUBSCRIPTIONS_FULL).toBe(refused);

    // Home Assistant's handful is taken whatever the flood holds, and so are the daemon's own.
    const ha = await guest(b.url);
    const haFilters = [
      'homeassistant/status',
      'homeassistant/device/+/config',
      'outfit-display/status',
      'outfit-display/hallway/state',
      'outfit-display/hallway/image',
    ];
    expect(await subscribe(ha.client, haFilters)).toEqual({ granted: haFilters.length, refused: 0 });
    const got: string[] = [];
    const daemon = new MqttConnection({
      url: b.url,
      ...login(b),
      clientId: 'daemon-under-flood',
      statusTopic: 'outfit-display/status',
      logger: capturingLogger().logger,
    });
    cleanup.push(() => daemon.stop());
    daemon.subscribe('outfit-display/hallway/refresh');
    daemon.subscribe('homeassistant/status');
    daemon.onMessage((topic, payload) => got.push(`${topic}=${payload.toString()}`));
    await daemon.start();
    expect(daemon.connected).toBe(true);
    const seen: string[] = [];
    ha.client.on('message', (topic, payload) => seen.push(`${topic}=${payload.toString()}`));
    daemon.publish('outfit-display/hallway/state', '{"outfit":"coat"}');
    await until('the state at Home Assistant', () => seen.includes('outfit-display/hallway/state={"outfit":"coat"}'));
    await ha.client.publishAsync('outfit-display/hallway/refresh', 'PRESS', { qos: 1 });
    await until('the press at the daemon', () => got.includes('outfit-display/hallway/refresh=PRESS'));

    // A connection's subscriptions end with it: the flooders gone, Home Assistant's alone are held.
    for (const o of flooders) await o.end();
    await until('the flood released', () => b.guestSubscriptions === haFilters.length);
  });

  it('refuses a filter longer than 256 bytes or deeper than 16 levels; a filter held again or unsubscribed is counted once', async () => {
    const { b, lines } = await broker();
    const o = await guest(b.url);
    const long = `a/${'x'.repeat(300)}`;
    const deep = Array.from({ length: 17 }, (_, i) => `l${i}`).join('/');
    expect(await suback(o.client, [long, deep, 'ok/topic', 'ok/+/other'], 1)).toEqual([REFUSED, REFUSED, 1, 1]);
    expect(lines().filter((l) => l.err?.code === 'E_MQTT_FILTER_TOO_LONG')).toHaveLength(1);
    expect(b.refusals().E_MQTT_FILTER_TOO_LONG).toBe(2);
    expect(b.guestSubscriptions).toBe(2);
    await o.client.subscribeAsync('ok/topic', { qos: 0 });
    expect(b.guestSubscriptions).toBe(2);
    await o.client.unsubscribeAsync(['ok/topic', 'never/held']);
    await until('the unsubscribed filter released', () => b.guestSubscriptions === 1);
    expect(o.isClosed()).toBe(false);
  });

  it('keeps no session after a connection: a client that asked for one subscribes again, and its filters count again', async () => {
    const { b } = await broker();
    const first = await mqtt.connectAsync(b.url, { clientId: 'persistent', clean: false, reconnectPeriod: 0 });
    await first.subscribeAsync(flood('p', 0).slice(0, 500), { qos: 1 });
    expect(b.guestSubscriptions).toBe(500);
    await first.endAsync();
    await until('released with the connection', () => b.guestSubscriptions === 0);
    const again = await mqtt.connectAsync(b.url, { clientId: 'persistent', clean: false, reconnectPeriod: 0 });
    cleanup.push(() => again.endAsync(true));
    // No session present: nothing was kept of the first connection (it would be delivered to, uncounted).
    expect(again.connected).toBe(true);
    const received: string[] = [];
    again.on('message', (t) => received.push(t));
    const pub = await guest(b.url);
    await pub.client.publishAsync('flood/p/0/1', 'x', { qos: 1 });
    await again.subscribeAsync('marker', { qos: 1 });
    await pub.client.publishAsync('marker', 'x', { qos: 1 });
    await until('the marker', () => received.includes('marker'));
    expect(received).toEqual(['marker']);
  });
});

function login(b: EmbeddedBroker): { username: string; password: string } {
  return b.daemonLogin();
}
