import { afterEach, describe, expect, it } from 'vitest';
import { MqttConnection, SUBACK_TIMEOUT_MS } from '../../src/mqtt/connection.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { until } from '../helpers/until.js';
import { startHostileBroker, type HostileBroker } from './hostile-broker.js';
import { capturingLogger } from '../helpers/capturing-logger.js';

/**
 * A broker that takes the CONNECT and never answers the SUBSCRIBE: start() used to wait for the SUBACK
 * for ever, and with it the daemon's start, its first frame and its stop. Now the SUBACK wait is bounded on the
 * injected clock; then the connection is dropped and made again with the backoff.
 */

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

function codes(text: string): string[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { code?: string }).code ?? '')
    .filter(Boolean);
}

async function hostile(answerSubscribeFrom?: number): Promise<HostileBroker> {
  const b = await startHostileBroker({ answerSubscribeFrom });
  cleanup.push(() => b.close());
  return b;
}

function connection(url: string, clock: FakeClock) {
  const log = capturingLogger();
  const conn = new MqttConnection({
    url,
    clientId: 'suback-test',
    statusTopic: 't/status',
    logger: log.logger,
    clock,
    random: () => 1,
    backoff: { baseMs: 1000, maxMs: 60_000 },
  });
  conn.subscribe('t/press');
  cleanup.push(() => conn.stop());
  return { conn, log };
}

describe('the SUBACK wait is bounded', () => {
  it('start() resolves at the bound; the connection is made again, with a backoff that grows, until the broker takes the subscription', async () => {
    const broker = await hostile(3);
    const clock = new FakeClock();
    const { conn, log } = connection(broker.url, clock);
    let started = false;
    void conn.start().then(() => (started = true));
    await until('the SUBSCRIBE at the broker', () => broker.received('subscribe') === 1);
    expect(started).toBe(false);
    expect(clock.msToNextTimer()).toBe(SUBACK_TIMEOUT_MS);

    clock.advance(SUBACK_TIMEOUT_MS);
    await until('start() resolved', () => started);
    expect(codes(log.text())).toContain('W_MQTT_SUBACK_TIMEOUT');
    await until('the connection dropped', () => broker.closed === 1 && !conn.connected);
    // Reconnect after the first backoff step (random 1: the whole of it), subscribe again, time out again.
    expect(clock.msToNextTimer()).toBe(1000);
    clock.advance(1000);
    await until('the second SUBSCRIBE', () => broker.received('subscribe') === 2);
    expect(broker.connections).toBe(2);
    clock.advance(SUBACK_TIMEOUT_MS);
    await until('the second connection dropped', () => broker.closed === 2);
    // The backoff restarts only once a broker takes the subscriptions: this one is retried less and less often.
    expect(clock.msToNextTimer()).toBe(2000);

    // The broker comes round: the third SUBSCRIBE is taken, and the bound's timer is cleared with its SUBACK (tests
    // that count a fake clock's timers see none left behind).
    clock.advance(2000);
    await until('the third SUBSCRIBE', () => broker.received('subscribe') === 3);
    await until('connected', () => conn.connected);
    await until('the SUBACK taken', () => clock.pendingTimers() === 0);
    expect(codes(log.text()).filter((c) => c === 'W_MQTT_SUBACK_TIMEOUT')).toHaveLength(2);
  });

  it('stop() ends a start that still waits for the SUBACK, and closes the socket', async () => {
    const broker = await hostile();
    const clock = new FakeClock();
    const { conn } = connection(broker.url, clock);
    let started = false;
    void conn.start().then(() => (started = true));
    await until('the SUBSCRIBE at the broker', () => broker.received('subscribe') === 1);
    await conn.stop();
    await until('start() resolved', () => started);
    // mqtt.js would hold its DISCONNECT for the SUBACK for ever, socket open: the socket is destroyed instead.
    await until('the socket closed', () => broker.closed === 1, { timeoutMs: 5000 });
    expect(clock.pendingTimers()).toBe(0);
  });
});
