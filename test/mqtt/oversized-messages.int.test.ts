import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MqttPublisher } from '../../src/mqtt/mqtt-publisher.js';
import { startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';
import { testViews } from '../helpers/views.js';
import { budgetStatus } from '../fixtures/budget-status.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { display } from '../fixtures/display.js';
import { mqttConfig } from '../fixtures/mqtt-config.js';
import { watch } from '../helpers/mqtt-watch.js';

/** The codes of the log lines written so far, in order. */
function codes(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { code?: string }).code)
    .filter((c): c is string => c !== undefined);
}

describe('messages larger than the daemon takes, from an external broker (Mosquitto)', () => {
  let broker: Mosquitto;
  beforeAll(async () => {
    broker = await startMosquitto();
  });
  afterAll(async () => {
    await broker?.dispose();
  });

  it('skips a huge message unread and ignores a large press, logging each once; a press after them still works', async () => {
    const base = 'od-big';
    const displays = [display('hallway'), display('porch')];
    const { logger, text } = capturingLogger();
    const calls: string[] = [];
    const p = new MqttPublisher({
      mqtt: mqttConfig(broker.url, { base_topic: base }),
      password: null,
      displays,
      views: testViews({ displays, budget: budgetStatus }).views,
      timezone: 'Europe/Berlin',
      logger,
      onRefresh: (id) => calls.push(id),
      swVersion: '0.1.0',
    });
    await p.start();
    const sender = await watch(broker.url, []);
    try {
      // Over the packet limit (256 KiB): never reaches mqtt.js's parser. Then over the command limit (1 KiB) only.
      await sender.client.publishAsync(`${base}/hallway/refresh`, Buffer.alloc(4 * 1024 * 1024, 0x41), { qos: 1 });
      await sender.client.publishAsync(`${base}/hallway/refresh`, Buffer.alloc(10 * 1024, 0x42), { qos: 1 });
      await sender.client.publishAsync('homeassistant/status', Buffer.alloc(2 * 1024, 0x43), { qos: 1 });
      // Again on both topics: ignored, and not logged again.
      await sender.client.publishAsync(`${base}/hallway/refresh`, Buffer.alloc(10 * 1024, 0x44), { qos: 1 });
      await sender.client.publishAsync('homeassistant/status', Buffer.alloc(2 * 1024, 0x45), { qos: 1 });
      await sender.client.publishAsync(`${base}/hallway/refresh`, 'PRESS', { qos: 1 });
      // The positive sign: a last press on another display (the broker delivers in order: the rest came before it).
      await sender.client.publishAsync(`${base}/porch/refresh`, 'PRESS', { qos: 1 });
      await vi.waitFor(() => expect(calls).toContain('porch'), { timeout: 10_000 });
      expect(calls).toEqual(['hallway', 'porch']);
      const seen = codes(text());
      expect(seen.filter((c) => c === 'W_MQTT_MESSAGE_TOO_LARGE')).toHaveLength(1);
      expect(seen.filter((c) => c === 'W_MQTT_COMMAND_TOO_LARGE')).toHaveLength(2);
      // The connection was not dropped for it.
      expect(seen).not.toContain('W_MQTT_DISCONNECTED');
      expect(p.connected).toBe(true);
    } finally {
      await sender.close();
      await p.stop();
    }
  });
});
