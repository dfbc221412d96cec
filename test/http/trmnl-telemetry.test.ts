import { describe, expect, it } from 'vitest';
import { mqttTopics } from '../../src/mqtt/topics.js';
import { batteryPercent, pairTarget, pairWildcard, telemetryComponents, telemetryPayload, telemetryTopic } from '../../src/mqtt/trmnl-telemetry.js';

describe('TRMNL telemetry for MQTT and Home Assistant', () => {
  const topics = mqttTopics('outfit-display', 'homeassistant');

  it('a retained JSON of the device figures, times with the zone’s offset', () => {
    expect(telemetryTopic(topics, 'hallway')).toBe('outfit-display/hallway/device');
    const p = JSON.parse(
      telemetryPayload({ mac: 'AA:BB:CC:DD:EE:FF', batteryVoltage: 3.9, rssi: -61, fwVersion: '1.6.2', model: 'og', at: new Date('2026-01-31T07:00:00Z') }, 'Europe/Berlin'),
    ) as Record<string, unknown>;
    expect(p).toEqual({ battery_voltage: 3.9, battery_pct: 75, rssi: -61, fw_version: '1.6.2', model: 'og', mac: 'AA:BB:CC:DD:EE:FF', seen_at: '2026-01-31T08:00:00.000+01:00' });
    expect([batteryPercent(4.2), batteryPercent(3.05), batteryPercent(null)]).toEqual([100, 1, null]);
  });

  it('HA sensors of the display: voltage, battery, signal strength, last seen, firmware', () => {
    const c = telemetryComponents(topics, 'hallway', 3600);
    expect(Object.keys(c)).toEqual(['device_battery_voltage', 'device_battery', 'device_rssi', 'device_seen', 'device_firmware', 'device_pair']);
    expect(c.device_battery_voltage).toMatchObject({
      platform: 'sensor',
      unique_id: 'outfit-display_hallway_device_battery_voltage',
      state_topic: 'outfit-display/hallway/device',
      device_class: 'voltage',
      unit_of_measurement: 'V',
      expire_after: 3600,
    });
    expect(c.device_rssi).toMatchObject({ device_class: 'signal_strength', unit_of_measurement: 'dBm', entity_category: 'diagnostic' });
    expect(c.device_battery).toMatchObject({ device_class: 'battery', unit_of_measurement: '%' });
    // The pairing button: a press opens TRMNL pairing of the display's devices.
    expect(c.device_pair).toMatchObject({
      platform: 'button',
      unique_id: 'outfit-display_hallway_device_pair',
      command_topic: 'outfit-display/hallway/pair',
      retain: false,
      entity_category: 'config',
    });
    expect(pairTarget(topics, 'outfit-display/hallway/pair')).toBe('hallway');
    expect(pairWildcard(topics)).toBe('outfit-display/+/pair');
    for (const t of ['outfit-display/hallway/refresh', 'other/hallway/pair', 'outfit-display/a/b/pair', 'outfit-display/HALL/pair']) expect(pairTarget(topics, t), t).toBeNull();
  });
});
