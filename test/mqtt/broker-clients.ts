import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { vi } from 'vitest';

/** MQTT.js clients for the embedded broker's tests: an outsider that may be thrown out, and retained-message reads. */

export interface Outsider {
  client: MqttClient;
  /** Resolves when the broker closed the connection (or the client ended). */
  closed: Promise<void>;
  isClosed(): boolean;
  end(): Promise<void>;
}

export async function outsider(url: string, opts: IClientOptions = {}): Promise<Outsider> {
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 5000, ...opts });
  let closed = false;
  const closedP = new Promise<void>((resolve) =>
    client.once('close', () => {
      closed = true;
      resolve();
    }),
  );
  client.on('error', () => undefined);
  return { client, closed: closedP, isClosed: () => closed, end: () => client.endAsync(true) };
}

/** Publishes with QoS 1 and tells whether the broker acknowledged it or closed the connection instead. */
export function publishOutcome(
  o: Outsider,
  topic: string,
  payload: string | Buffer,
  retain: boolean,
): Promise<'acked' | 'closed'> {
  const acked = new Promise<'acked'>((resolve) => {
    o.client.publish(topic, payload, { qos: 1, retain }, (err) => {
      if (!err) resolve('acked');
    });
  });
  return Promise.race([acked, o.closed.then(() => 'closed' as const)]);
}

/**
 * The retained message of `topic`, or undefined, as a fresh client sees it. Retained messages come after the SUBACK,
 * so the positive sign that they have come is the retained `marker` (a topic the daemon always retains), asked for
 * in a second SUBSCRIBE after the first.
 */
export async function retainedOf(
  url: string,
  topic: string,
  marker: string,
  opts: IClientOptions = {},
): Promise<Buffer | undefined> {
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 5000, ...opts });
  try {
    let found: Buffer | undefined;
    let markerSeen = false;
    client.on('message', (t, payload, packet) => {
      if (t === topic && packet.retain) found = payload;
      if (t === marker && packet.retain) markerSeen = true;
    });
    await client.subscribeAsync(topic, { qos: 1 });
    await client.subscribeAsync(marker, { qos: 1 });
    await vi.waitFor(
      () => {
        if (!markerSeen) throw new Error(`no retained ${marker}`);
      },
      { timeout: 5000, interval: 10 },
    );
    return found;
  } finally {
    await client.endAsync(true);
  }
}
