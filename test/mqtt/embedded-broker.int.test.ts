import { createServer } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { simulatedConfig, tempConfig } from '../helpers/cli.js';
import { startEmbeddedBroker } from '../../src/mqtt/broker/embedded-broker.js';
import { MqttPublisher } from '../../src/mqtt/mqtt-publisher.js';
import { checkDeviceDiscovery } from './ha-checker.js';
import { testViews } from '../helpers/views.js';
import { budgetStatus } from '../fixtures/budget-status.js';
import { capturingLogger, silentLogger } from '../helpers/capturing-logger.js';
import { display } from '../fixtures/display.js';
import { mqttConfig } from '../fixtures/mqtt-config.js';
import { readRetained, watch } from '../helpers/mqtt-watch.js';
import { rec } from '../fixtures/rec.js';
import { update } from '../fixtures/frames.js';

const hallway = display('hallway');

describe('embedded broker (mqtt.url: embedded)', () => {
  it('lets the publisher publish and take refresh presses with nothing installed, on 127.0.0.1', async () => {
    const refreshes: string[] = [];
    const pViews = testViews({ displays: [hallway], budget: budgetStatus });
    const p = new MqttPublisher({
      mqtt: mqttConfig('embedded'),
      password: null,
      displays: [hallway],
      views: pViews.views,
      timezone: 'Europe/Berlin',
      logger: silentLogger(),
      onRefresh: (id) => refreshes.push(id),
      embeddedPort: 0,
    });
    try {
      await p.start();
      expect(p.connected).toBe(true);
      expect(p.url).toMatch(/^mqtt:\/\/127\.0\.0\.1:\d+$/);
      await p.publish(pViews.show(update(hallway, 'demo', { rec: rec() })));
      // publish() does not wait for the broker's acknowledgements: read until the display's topics are there.
      const retained = await vi.waitFor(async () => {
        const got = await readRetained(p.url, ['#']);
        expect([...got.keys()]).toEqual(
          expect.arrayContaining([
            'outfit-display/hallway/state',
            'outfit-display/hallway/image',
            'outfit-display/hallway/diagnostics',
          ]),
        );
        return got;
      });
      expect(retained.get('outfit-display/status')?.toString()).toBe('online');
      const topic = 'homeassistant/device/outfit-display_hallway/config';
      expect(checkDeviceDiscovery(topic, JSON.parse(retained.get(topic)!.toString()))).toEqual([]);

      const w = await watch(p.url, []);
      await w.client.publishAsync('outfit-display/hallway/refresh', 'PRESS', { qos: 1 });
      await w.close();
      await expect.poll(() => refreshes).toEqual(['hallway']);
    } finally {
      await p.stop();
    }
  });

  it('falls back to a free port when the wanted one is taken, or fails when told not to', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const b = await startEmbeddedBroker({ port: taken });
      expect(b.port).not.toBe(taken);
      const w = await watch(b.url, ['x']);
      await w.close();
      await b.close();
      await expect(startEmbeddedBroker({ port: taken, fallbackToFreePort: false })).rejects.toThrow(
        /cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)/,
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('listens where mqtt.embedded.listen says (warning W_MQTT_ANONYMOUS_NETWORK without a login); the daemon connects through loopback', async () => {
    const log = capturingLogger();
    const pViews = testViews({ displays: [hallway] });
    const p = new MqttPublisher({
      mqtt: mqttConfig('embedded', { embedded: { listen: '0.0.0.0:0' } }),
      password: null,
      displays: [hallway],
      views: pViews.views,
      timezone: 'Europe/Berlin',
      logger: log.logger,
      onRefresh: () => undefined,
    });
    try {
      await p.start();
      expect(p.connected).toBe(true);
      expect(p.url).toMatch(/^mqtt:\/\/127\.0\.0\.1:\d+$/);
      expect(log.text()).toContain('"code":"W_MQTT_ANONYMOUS_NETWORK"');
    } finally {
      await p.stop();
    }
  });

  it('mqtt.embedded is checked: host:port, and only with url: embedded', () => {
    const base = {
      api: { base_url: 'simulated' },
      budget: { credits_per_day: 10 },
      timezone: 'UTC',
      displays: [{ id: 'a', name: 'A', lat: 1, lon: 2, panel: 'trmnl', schedule: '0 * * * *' }],
    };
    const issues = (mqtt: unknown): string[] => {
      const r = ConfigSchema.safeParse({ ...base, mqtt });
      return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
    };
    expect(issues({ url: 'embedded', embedded: { listen: '0.0.0.0:1883' } })).toEqual([]);
    expect(issues({ url: 'embedded', embedded: { listen: '1883' } })).toContain('mqtt.embedded.listen');
    expect(issues({ url: 'mqtt://10.0.0.2:1883', embedded: { listen: '0.0.0.0:1883' } })).toContain('mqtt.embedded');
  });

  it('a login for other clients (mqtt.username) without a password is a config error naming the key', async () => {
    const { file } = await tempConfig(
      simulatedConfig().replace('output_dir:', 'mqtt:\n  url: embedded\n  username: homeassistant\noutput_dir:'),
    );
    await expect(loadConfig(file, { env: {} })).rejects.toMatchObject({
      code: 'E_CONFIG',
      message: expect.stringContaining('mqtt.username') as string,
    });
    const ok = await loadConfig(file, { env: { OUTFIT_MQTT_PASSWORD: 'ha-secret-pw-4711' } });
    expect(ok.secrets.mqttPassword).toBe('ha-secret-pw-4711');
  });
});
