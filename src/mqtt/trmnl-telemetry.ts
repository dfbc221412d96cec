import { entitySlug, type Component } from './ha-discovery.js';
import { timeOrNull } from '../time/zoned-time.js';
import type { MqttTopics } from './topics.js';
import type { DeviceTelemetry } from '../trmnl/trmnl-api.js';

/**
 * A TRMNL device's battery and Wi-Fi figures (from its /api/display headers) for MQTT and Home Assistant, pure:
 *   <base>/<id>/device   JSON, retained: battery_voltage, battery_pct, rssi, fw_version, model, mac, seen_at
 *   <base>/<id>/pair     command: opens TRMNL pairing of the display's devices (not retained)
 * and the Home Assistant components to add to that display's device discovery (sensors and the pairing button).
 */

export function telemetryTopic(topics: MqttTopics, displayId: string): string {
  return `${topics.base}/${displayId}/device`;
}

/** Command: any payload opens pairing of the display's TRMNL devices for 5 minutes (not retained). */
function pairTopic(topics: MqttTopics, displayId: string): string {
  return `${topics.base}/${displayId}/pair`;
}

export function pairWildcard(topics: MqttTopics): string {
  return `${topics.base}/+/pair`;
}

/** The display id of `<base>/<id>/pair`, or null when the topic is anything else. */
export function pairTarget(topics: MqttTopics, topic: string): string | null {
  const head = `${topics.base}/`;
  if (!topic.startsWith(head) || !topic.endsWith('/pair')) return null;
  const id = topic.slice(head.length, -'/pair'.length);
  return /^[a-z0-9_-]+$/.test(id) ? id : null;
}

/** TRMNL's own estimate: (V − 3.0) / 0.012 %, 100 from 4.08 V (or charging), at least 1. */
export function batteryPercent(volts: number | null): number | null {
  if (volts === null || !Number.isFinite(volts)) return null;
  const pct = (volts - 3) / 0.012;
  return pct >= 90 ? 100 : pct < 10 ? 1 : Math.round(pct * 10) / 10;
}

export function telemetryPayload(t: DeviceTelemetry, timeZone: string): string {
  return JSON.stringify({
    battery_voltage: t.batteryVoltage,
    battery_pct: batteryPercent(t.batteryVoltage),
    rssi: t.rssi,
    fw_version: t.fwVersion,
    model: t.model,
    mac: t.mac,
    seen_at: timeOrNull(t.at, timeZone),
  });
}

/** Components for `deviceDiscovery(...).payload.components` of a display that has a TRMNL device. */
export function telemetryComponents(topics: MqttTopics, displayId: string, expireAfterS: number | null = null): Record<string, Component> {
  const node = topics.nodeId(displayId);
  const state = telemetryTopic(topics, displayId);
  const availability = [{ topic: topics.status, payload_available: 'online', payload_not_available: 'offline' }];
  const expire = expireAfterS && expireAfterS > 0 ? { expire_after: Math.ceil(expireAfterS) } : {};
  const sensor = (key: string, name: string, field: string, rest: Record<string, unknown>): [string, Component] => [
    key,
    {
      platform: 'sensor',
      name,
      unique_id: `${node}_${key}`,
      default_entity_id: `sensor.${entitySlug(`${node}_${key}`)}`,
      availability,
      qos: 1,
      state_topic: state,
      value_template: `{{ value_json.${field} }}`,
      ...rest,
    },
  ];
  return Object.fromEntries([
    sensor('device_battery_voltage', 'Battery voltage', 'battery_voltage', { device_class: 'voltage', unit_of_measurement: 'V', state_class: 'measurement', ...expire }),
    sensor('device_battery', 'Battery', 'battery_pct', { device_class: 'battery', unit_of_measurement: '%', state_class: 'measurement', ...expire }),
    sensor('device_rssi', 'Wi-Fi signal', 'rssi', { device_class: 'signal_strength', unit_of_measurement: 'dBm', state_class: 'measurement', entity_category: 'diagnostic', ...expire }),
    sensor('device_seen', 'Device last seen', 'seen_at', { device_class: 'timestamp', entity_category: 'diagnostic' }),
    sensor('device_firmware', 'Device firmware', 'fw_version', { entity_category: 'diagnostic', icon: 'mdi:chip' }),
    [
      'device_pair',
      {
        platform: 'button',
        name: 'Pair TRMNL device',
        unique_id: `${node}_device_pair`,
        default_entity_id: `button.${entitySlug(`${node}_device_pair`)}`,
        availability,
        qos: 1,
        command_topic: pairTopic(topics, displayId),
        payload_press: 'PRESS',
        retain: false,
        entity_category: 'config',
        icon: 'mdi:link-variant',
      },
    ],
  ]);
}
