import { describe, expect, it } from 'vitest';
import { deviceOfNode, mqttTopics, pairTarget } from '../../src/mqtt/topics.js';
import { pairComponents } from '../../src/mqtt/pair-button.js';
import { deviceDiscovery, devicePayload, reportedFields } from '../../src/mqtt/device-discovery.js';
import type { DeviceEntry } from '../../src/state/device-book.js';
import { readSensors } from '../../src/trmnl/device-headers.js';
import { display } from '../fixtures/display.js';

const topics = mqttTopics('outfit-display', 'homeassistant');
const hallway = display('hallway');

function trmnlX(over: Partial<DeviceEntry> = {}): DeviceEntry {
  return {
    key: 'trmnl-aabbccddee01',
    display: 'hallway',
    kind: 'trmnl',
    mac: 'AA:BB:CC:DD:EE:01',
    model: 'x',
    panel: 'trmnl-x',
    batteryPct: 82,
    batteryVoltage: 4.01,
    charging: true,
    usbPower: true,
    rssi: -61,
    fwVersion: '1.7.2',
    wakeReason: 'timer',
    sensors: readSensors(
      'make=Sensirion;model=SCD41;kind=carbon_dioxide;value=612;unit=parts_per_million;created_at=1767225600,make=Sensirion;model=SCD41;kind=temperature;value=21.500000;unit=celsius;created_at=1767225600,make=Sensirion;model=SCD41;kind=humidity;value=40;unit=percent;created_at=1767225600',
    ),
    periodS: 1830,
    at: new Date('2026-01-31T07:00:00Z'),
    available: true,
    ...over,
  };
}

describe('pulling devices in Home Assistant (pure)', () => {
  it("a TRMNL X with a room sensor: its own device, via the display, with battery, charging, USB, signal, firmware and each sensor's class and unit", () => {
    const d = trmnlX();
    const { topic, payload } = deviceDiscovery({
      topics,
      display: hallway,
      device: d,
      fields: new Set(reportedFields(d)),
      sensors: new Map(d.sensors.map((s) => [s.kind, s.unit])),
      swVersion: '1.0.0',
    });
    expect(topic).toBe('homeassistant/device/outfit-display_hallway_DEV_trmnl-aabbccddee01/config');
    expect(payload.device).toMatchObject({
      identifiers: ['outfit-display_hallway_DEV_trmnl-aabbccddee01'],
      via_device: 'outfit-display_hallway',
      name: 'Hallway TRMNL X',
      manufacturer: 'TRMNL',
      sw_version: '1.7.2',
      connections: [['mac', 'aa:bb:cc:dd:ee:01']],
    });
    expect(payload.origin.name).toBe('outfit-display');
    const c = payload.components;
    expect(Object.keys(c).sort()).toEqual(
      [
        'battery',
        'battery_voltage',
        'charging',
        'firmware',
        'rssi',
        'seen',
        'sensor_carbon_dioxide',
        'sensor_humidity',
        'sensor_temperature',
        'usb_power',
        'wake_reason',
      ].sort(),
    );
    expect(c.battery).toMatchObject({
      platform: 'sensor',
      device_class: 'battery',
      unit_of_measurement: '%',
      state_topic: 'outfit-display/hallway/devices/trmnl-aabbccddee01',
    });
    expect(c.charging).toMatchObject({ platform: 'binary_sensor', device_class: 'battery_charging' });
    expect(c.usb_power).toMatchObject({ platform: 'binary_sensor', device_class: 'plug' });
    expect(c.sensor_carbon_dioxide).toMatchObject({
      device_class: 'carbon_dioxide',
      unit_of_measurement: 'ppm',
      name: 'CO₂',
    });
    expect(c.sensor_temperature).toMatchObject({ device_class: 'temperature', unit_of_measurement: '°C' });
    expect(c.sensor_humidity).toMatchObject({ device_class: 'humidity', unit_of_measurement: '%' });
    // Unavailable when the bridge is offline or the device went quiet: both availability topics, mode all.
    expect(c.battery).toMatchObject({
      availability_mode: 'all',
      availability: [
        { topic: 'outfit-display/status' },
        { topic: 'outfit-display/hallway/devices/trmnl-aabbccddee01/availability' },
      ],
    });
    const state = JSON.parse(devicePayload(d, 'Europe/Berlin')) as Record<string, unknown>;
    expect(state).toMatchObject({
      battery_pct: 82,
      charging: true,
      usb_power: true,
      sensors: { carbon_dioxide: 612, temperature: 21.5, humidity: 40 },
      sensor_units: { carbon_dioxide: 'ppm', temperature: '°C', humidity: '%' },
      seen_at: '2026-01-31T08:00:00.000+01:00',
    });
  });

  it('a Kindle: battery and charging only; an OG that sends neither charging nor USB gets no entity for them', () => {
    const kindle = trmnlX({
      key: 'kindle',
      kind: 'kindle',
      mac: null,
      model: null,
      panel: null,
      batteryVoltage: null,
      usbPower: null,
      rssi: null,
      fwVersion: null,
      wakeReason: null,
      sensors: [],
      charging: false,
      batteryPct: 64,
    });
    const k = deviceDiscovery({
      topics,
      display: hallway,
      device: kindle,
      fields: new Set(reportedFields(kindle)),
      sensors: new Map(),
      swVersion: '1',
    });
    expect(Object.keys(k.payload.components).sort()).toEqual(['battery', 'charging', 'seen']);
    expect(k.payload.device).toMatchObject({ name: 'Hallway Kindle', manufacturer: 'Amazon' });
    expect(k.payload.device.connections).toBeUndefined();
    const og = trmnlX({ model: 'og', charging: null, usbPower: null, sensors: [] });
    const o = deviceDiscovery({
      topics,
      display: hallway,
      device: og,
      fields: new Set(reportedFields(og)),
      sensors: new Map(),
      swVersion: '1',
    });
    expect(Object.keys(o.payload.components)).not.toContain('charging');
    expect(Object.keys(o.payload.components)).not.toContain('usb_power');
    expect(o.payload.device.name).toBe('Hallway TRMNL (1-bit)');
  });

  it("a device's node is told from a display's: display ids are lower case, the node's _DEV_ is not", () => {
    expect(deviceOfNode(topics, 'outfit-display_hallway_DEV_kindle')).toEqual({ displayId: 'hallway', key: 'kindle' });
    expect(deviceOfNode(topics, 'outfit-display_hall_dev_kindle')).toBeNull();
    expect(deviceOfNode(topics, 'outfit-display_hallway')).toBeNull();
    expect(topics.deviceConfig('hallway', 'kindle')).toBe(
      'homeassistant/device/outfit-display_hallway_DEV_kindle/config',
    );
  });

  it('the pairing button stays on the display', () => {
    expect(pairComponents(topics, 'hallway').device_pair).toMatchObject({
      platform: 'button',
      unique_id: 'outfit-display_hallway_device_pair',
      command_topic: 'outfit-display/hallway/pair',
      retain: false,
    });
    expect(pairTarget(topics, 'outfit-display/hallway/pair')).toBe('hallway');
    expect(topics.pairWildcard).toBe('outfit-display/+/pair');
    for (const t of [
      'outfit-display/hallway/refresh',
      'other/hallway/pair',
      'outfit-display/a/b/pair',
      'outfit-display/HALL/pair',
    ])
      expect(pairTarget(topics, t), t).toBeNull();
  });
});
