import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpPublisher } from '../../src/http/http-publisher.js';
import { MqttPublisher } from '../../src/mqtt/mqtt-publisher.js';
import { MAX_INCOMING_PACKET_BYTES } from '../../src/mqtt/connection-options.js';
import { MAX_SENSOR_KINDS, DeviceBook } from '../../src/state/device-book.js';
import type { Publisher } from '../../src/publish/publisher.js';
import { FakeClock, clockAt } from '../helpers/fake-clock.js';
import { httpRequest } from '../helpers/http-client.js';
import { startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';
import { testViews } from '../helpers/views.js';
import { checkDeviceDiscovery, checkStates } from '../mqtt/ha-checker.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { mqttConfig } from '../fixtures/mqtt-config.js';
import { readRetained, watch } from '../helpers/mqtt-watch.js';
import { display } from '../fixtures/display.js';
import { rec } from '../fixtures/rec.js';
import { update } from '../fixtures/frames.js';

/**
 * Item 3 of "devices that speak back": each device's battery, power, signal, firmware and room sensors become entities
 * of its own Home Assistant device, through a real Mosquitto; a Kindle appears at its first frame request that carries
 * its battery; a device that missed three of its periods goes unavailable. Home Assistant's view is read from the
 * retained discovery and states, and checked with its acceptance rules (ha-checker.ts).
 */

const X = 'AA:BB:CC:DD:EE:71';
const OG = 'AA:BB:CC:DD:EE:72';
const TOKEN = 'telemetry-token-0123456789';
const BASE = 'od-dev';
const PREFIX = 'ha-dev';

describe('devices in Home Assistant, through Mosquitto', () => {
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

  async function setup() {
    const hallway = display('hallway');
    const fake = new FakeClock(Date.parse('2026-01-31T07:00:00.000Z'));
    const clock = clockAt(() => fake.now());
    const cap = capturingLogger();
    const book = new DeviceBook({ clock: fake, logger: cap.logger });
    // The next update 20 minutes away: refresh_rate 1230 s, so a device is quiet after 3 × 1230 s.
    const side = testViews({ displays: [hallway], clock, nextUpdateAt: () => new Date(fake.now() + 20 * 60_000) });
    const mqtt = new MqttPublisher({
      mqtt: mqttConfig(broker.url, { base_topic: BASE, discovery_prefix: PREFIX }),
      password: null,
      displays: [hallway],
      views: side.views,
      timezone: 'Europe/Berlin',
      logger: cap.logger,
      onRefresh: () => undefined,
      hasDevice: () => true,
      devices: book,
      trmnlMacs: () => [X, OG],
      swVersion: '0.1.0',
    });
    const http = new HttpPublisher({
      listen: '127.0.0.1:0',
      displays: [hallway],
      views: side.views,
      timezone: 'Europe/Berlin',
      clock,
      trmnlDevices: [
        { mac: X, display: 'hallway' },
        { mac: OG, display: 'hallway' },
      ],
      trmnlTokens: new Map([
        [X, TOKEN],
        [OG, TOKEN],
      ]),
      devices: book,
    });
    started.push(mqtt, http);
    await mqtt.start();
    await http.start();
    const state = update(hallway, 1, { rec: rec() });
    const view = side.show(state);
    await mqtt.publish(view);
    await http.publish(view);
    return { fake, http, url: http.url!, book, logs: cap.text };
  }

  const node = (key: string) => `${BASE}_hallway_DEV_${key}`;

  it('a TRMNL X with a CO₂ sensor, an OG and a Kindle each become a device with the right classes and units; HA accepts every config and state', async () => {
    const { url } = await setup();
    const w = await watch(broker.url, [`${PREFIX}/device/+/config`, `${BASE}/hallway/devices/#`]);
    const sensors =
      'make=Sensirion;model=SCD41;kind=carbon_dioxide;value=612;unit=parts_per_million;created_at=1767225600,make=Sensirion;model=SCD41;kind=temperature;value=21.500000;unit=celsius;created_at=1767225600,make=Sensirion;model=SCD41;kind=humidity;value=40;unit=percent;created_at=1767225600';
    const base = { 'Access-Token': TOKEN, 'Refresh-Rate': '1830', 'FW-Version': '1.7.2', 'Update-Source': 'timer' };
    expect(
      (
        await httpRequest(`${url}/api/display`, {
          headers: {
            ...base,
            ID: X,
            Model: 'x',
            Width: '1872',
            Height: '1404',
            'Battery-Voltage': '4.02',
            'Percent-Charged': '83',
            'Battery-Charging': '1',
            'USB-Connected': 'true',
            RSSI: '-55',
            SENSORS: sensors,
          },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await httpRequest(`${url}/api/display`, {
          headers: { ...base, ID: OG, Model: 'og', Width: '800', Height: '480', 'Battery-Voltage': '3.6', RSSI: '-70' },
        })
      ).status,
    ).toBe(200);
    expect((await httpRequest(`${url}/displays/hallway/frame.png?batteryLevel=64&isCharging=No`)).status).toBe(200);

    const keys = ['trmnl-aabbccddee71', 'trmnl-aabbccddee72', 'kindle'];
    await w.waitFor(
      (all) => keys.every((k) => all.some((m) => m.topic === `${PREFIX}/device/${node(k)}/config`)),
      'three device configs',
    );
    await w.waitFor(
      (all) =>
        keys.every((k) =>
          all.some((m) => m.topic === `${BASE}/hallway/devices/${k}/availability` && m.payload.toString() === 'online'),
        ),
      'three devices online',
    );
    await w.close();
    const retained = await readRetained(broker.url, [`${PREFIX}/device/+/config`, `${BASE}/#`]);
    const states: Record<string, Record<string, string>> = {};
    for (const k of keys) {
      const topic = `${PREFIX}/device/${node(k)}/config`;
      const payload = JSON.parse(retained.get(topic)!.toString()) as {
        device: Record<string, unknown>;
        components: Record<string, Record<string, unknown>>;
      };
      expect(checkDeviceDiscovery(topic, payload, PREFIX), k).toEqual([]);
      expect(payload.device.via_device).toBe(`${BASE}_hallway`);
      const checked = checkStates(payload, retained);
      expect(checked.problems, k).toEqual([]);
      states[k] = checked.states;
    }
    expect(states['trmnl-aabbccddee71']).toMatchObject({
      battery: '83',
      battery_voltage: '4.02',
      charging: 'ON',
      usb_power: 'ON',
      rssi: '-55',
      firmware: '1.7.2',
      sensor_carbon_dioxide: '612',
      sensor_temperature: '21.5',
      sensor_humidity: '40',
    });
    // The OG sends neither Percent-Charged nor charging: its percent comes from the voltage curve, and it has no
    // charging or USB entity.
    expect(states['trmnl-aabbccddee72']).toMatchObject({ battery: '50', battery_voltage: '3.6' });
    expect(Object.keys(states['trmnl-aabbccddee72']!)).not.toContain('charging');
    expect(states.kindle).toEqual({ battery: '64', charging: 'OFF', seen: '2026-01-31T08:00:00.000+01:00' });
    const x = JSON.parse(retained.get(`${PREFIX}/device/${node('trmnl-aabbccddee71')}/config`)!.toString()) as {
      components: Record<string, Record<string, unknown>>;
    };
    expect(x.components.sensor_carbon_dioxide).toMatchObject({
      device_class: 'carbon_dioxide',
      unit_of_measurement: 'ppm',
      state_class: 'measurement',
    });
    expect(x.components.sensor_temperature).toMatchObject({ device_class: 'temperature', unit_of_measurement: '°C' });
    expect(x.components.charging).toMatchObject({ platform: 'binary_sensor', device_class: 'battery_charging' });
    // The display's own device no longer carries device figures: only the pairing button.
    const display = JSON.parse(retained.get(`${PREFIX}/device/${BASE}_hallway/config`)!.toString()) as {
      components: Record<string, unknown>;
    };
    expect(Object.keys(display.components).filter((k) => k.startsWith('device_'))).toEqual(['device_pair']);
  });

  it('a device that misses three of its periods goes unavailable, and comes back at its next wake', async () => {
    const { url, fake } = await setup();
    const w = await watch(broker.url, [`${BASE}/hallway/devices/+/availability`]);
    const headers = {
      ID: OG,
      'Access-Token': TOKEN,
      Model: 'og',
      Width: '800',
      Height: '480',
      'Battery-Voltage': '3.9',
      'Update-Source': 'timer',
    };
    const j = (await httpRequest(`${url}/api/display`, { headers })).json<{ refresh_rate: number }>();
    expect(j.refresh_rate).toBe(20 * 60 + 30);
    const topic = `${BASE}/hallway/devices/trmnl-aabbccddee72/availability`;
    await w.waitFor((all) => all.some((m) => m.topic === topic && m.payload.toString() === 'online'), 'online');
    // Two periods and a half: still available.
    fake.advance(2.5 * j.refresh_rate * 1000);
    expect(
      (await httpRequest(`${url}/displays/hallway/state.json`)).json<{ devices: Array<{ available: boolean }> }>()
        .devices[0]?.available,
    ).toBe(true);
    fake.advance(0.5 * j.refresh_rate * 1000 + 1);
    await w.waitFor(
      (all) => all.at(-1)?.topic === topic && all.at(-1)?.payload.toString() === 'offline',
      'offline after three periods',
    );
    const page = (await httpRequest(`${url}/`)).text();
    expect(page).toContain('not seen since');
    await httpRequest(`${url}/api/display`, { headers });
    await w.waitFor((all) => all.at(-1)?.payload.toString() === 'online', 'online again');
    await w.close();
  });

  it(
    '1,300 wakes each with a new SENSORS kind: at most 32 sensor entities, one warning, a config far under every message limit, sent at most once a kind',
    { timeout: 120_000 },
    async () => {
      const { url, book, logs } = await setup();
      const topic = `${PREFIX}/device/${node('trmnl-aabbccddee72')}/config`;
      const state = `${BASE}/hallway/devices/trmnl-aabbccddee72`;
      const w = await watch(broker.url, [topic, state]);
      const headers = {
        ID: OG,
        'Access-Token': TOKEN,
        Model: 'og',
        Width: '800',
        Height: '480',
        'Battery-Voltage': '3.9',
        RSSI: '-60',
        'FW-Version': '1.7.2',
        'Update-Source': 'timer',
      };
      const WAKES = 1_300;
      for (let i = 0; i < WAKES; i++) {
        // A kind as long as a kind may be (32 characters), each wake a new one.
        const kind = `probe_kind_${String(i).padStart(5, '0')}_${'x'.repeat(15)}`;
        const r = await httpRequest(`${url}/api/display`, {
          headers: { ...headers, SENSORS: `make=Probe;model=P1;kind=${kind};value=${i};unit=percent` },
        });
        expect(r.status).toBe(200);
      }
      // 1,300 messages at QoS 1 through the broker: on a busy machine they trail the wakes by many seconds.
      // Live messages only: what an earlier test left retained on the broker arrives with the subscription.
      await w.waitFor(
        (all) => all.filter((m) => m.topic === state && !m.retain).length === WAKES,
        'a state message a wake',
        60_000,
      );
      const configs = w.all.filter((m) => m.topic === topic);
      await w.close();

      // The book keeps the first 32 kinds; the entities are those and the device's own readings.
      expect(book.sensorKinds('hallway', 'trmnl-aabbccddee72').size).toBe(MAX_SENSOR_KINDS);
      const retained = await readRetained(broker.url, [topic, state]);
      const config = retained.get(topic)!;
      const components = Object.keys(
        (JSON.parse(config.toString()) as { components: Record<string, unknown> }).components,
      );
      expect(components.filter((c) => c.startsWith('sensor_'))).toHaveLength(MAX_SENSOR_KINDS);
      expect(components.length).toBeLessThanOrEqual(MAX_SENSOR_KINDS + 8);
      // Far under the daemon's own incoming limit (which its subscription to the configs applies) and Mosquitto's.
      expect(config.length).toBeLessThan(MAX_INCOMING_PACKET_BYTES / 4);
      expect(
        Object.keys((JSON.parse(retained.get(state)!.toString()) as { sensors: Record<string, unknown> }).sensors),
      ).toHaveLength(MAX_SENSOR_KINDS);
      // Sent again only while it gained an entity, not at every wake.
      expect(configs.length).toBeLessThanOrEqual(MAX_SENSOR_KINDS + 2);
      const capped = logs()
        .split('\n')
        .filter((l) => l.includes('W_DEVICE_SENSORS_CAPPED'));
      expect(capped).toHaveLength(1);
      expect(JSON.parse(capped[0]!)).toMatchObject({ device: 'trmnl-aabbccddee72', max_kinds: MAX_SENSOR_KINDS });
      expect(logs()).not.toContain('W_MQTT_MESSAGE_TOO_LARGE');
      console.log(
        `1,300 new sensor kinds: discovery config ${config.length} bytes, ${components.length} components, sent ${configs.length} times`,
      );
    },
  );
});
