import { randomUUID } from 'node:crypto';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { vi } from 'vitest';

/** MQTT test clients: one that records what it receives, and a reader of every retained message. */

export interface Received {
  topic: string;
  payload: Buffer;
  retain: boolean;
}

/** A test client that records everything it receives on the given filters. */
export interface Watcher {
  client: MqttClient;
  all: Received[];
  /** The newest message a topic. */
  latest(topic: string): Received | undefined;
  waitFor(pred: (all: Received[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function watch(url: string, filters: string[], opts: IClientOptions = {}): Promise<Watcher> {
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 5000, ...opts });
  const all: Received[] = [];
  client.on('message', (topic, payload, packet) => all.push({ topic, payload, retain: packet.retain }));
  if (filters.length > 0) await client.subscribeAsync(filters, { qos: 1 });
  return {
    client,
    all,
    latest: (topic) => [...all].reverse().find((m) => m.topic === topic),
    async waitFor(pred, what, timeoutMs = 5000) {
      await vi.waitFor(
        () => {
          if (!pred(all)) throw new Error(`timed out waiting for ${what}; got ${all.map((m) => m.topic).join(', ')}`);
        },
        { timeout: timeoutMs, interval: 20 },
      );
    },
    close: () => client.endAsync(true),
  };
}

/**
 * Every retained message under the filters, read by a fresh client (the way HA reads them after a restart). Read to
 * the end, not for a while: the client then sends itself a marker and waits for it. Mosquitto queues a SUBSCRIBE's
 * retained messages before it reads the client's next packet, so they all come before the marker; the embedded
 * broker streams them from memory as it acknowledges the SUBSCRIBE, well before the marker's round trip.
 */
export async function readRetained(
  url: string,
  filters: string[],
  opts: IClientOptions = {},
): Promise<Map<string, Buffer>> {
  const w = await watch(url, filters, opts);
  const marker = `test-marker/${randomUUID()}`;
  await w.client.subscribeAsync(marker, { qos: 1 });
  await w.client.publishAsync(marker, 'end', { qos: 1 });
  await w.waitFor((all) => all.some((m) => m.topic === marker), 'the marker after the retained messages');
  await w.close();
  const out = new Map<string, Buffer>();
  for (const m of w.all) if (m.retain && m.payload.length > 0) out.set(m.topic, m.payload);
  return out;
}
