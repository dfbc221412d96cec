import type { DisplayConfig } from '../config/schema.js';
import { deviceJson, type DeviceEntry } from '../state/device-book.js';
import { deviceModel } from '../panels/device-models.js';
import { component, haTempUnit, originOf, type Component, type DeviceDiscovery } from './ha-discovery.js';
import type { MqttTopics } from './topics.js';

/**
 * Each device that pulls a display's frame (a TRMNL board, a Kindle) as its own Home Assistant device, pure: its
 * retained JSON (battery, power, signal, firmware, sensors, seen_at), its availability (offline once it missed three
 * of its periods) and its discovery, `via_device` the display. The topics are topics.ts's (`deviceState`,
 * `deviceAvailability`, `deviceConfig`).
 */

/**
 * The device's retained state. `kinds`: every sensor kind it has sent; one missing from this wake is null, so that
 * its entity shows "unknown" rather than failing its template.
 */
export function devicePayload(d: DeviceEntry, timeZone: string, kinds: readonly string[] = []): string {
  const json = deviceJson(d, timeZone);
  const sensors = json.sensors as Record<string, number>;
  return JSON.stringify({ ...json, sensors: { ...Object.fromEntries(kinds.map((k) => [k, null])), ...sensors } });
}

/** Home Assistant's device class and unit of a room-sensor kind; a kind it has no class for keeps the device's unit. */
function sensorClass(kind: string, unit: string | null): Record<string, unknown> {
  switch (kind) {
    case 'temperature':
      return { device_class: 'temperature', unit_of_measurement: haTempUnit(unit) ?? '°C' };
    case 'humidity':
      return { device_class: 'humidity', unit_of_measurement: '%' };
    case 'carbon_dioxide':
    case 'co2':
      return { device_class: 'carbon_dioxide', unit_of_measurement: 'ppm' };
    case 'pressure':
      return { device_class: 'atmospheric_pressure', unit_of_measurement: unit ?? 'hPa' };
    default:
      return unit === null ? {} : { unit_of_measurement: unit };
  }
}

export interface DeviceDiscoveryInput {
  topics: MqttTopics;
  display: DisplayConfig;
  device: DeviceEntry;
  /** Readings the device has sent at least once (their entities stay when a wake leaves one out). */
  fields: ReadonlySet<string>;
  /** Sensor kinds it has sent at least once, with the unit first seen. */
  sensors: ReadonlyMap<string, string | null>;
  swVersion: string;
  supportUrl?: string;
}

/** The fields of a report that have a value (a device that never sends `USB-Connected` gets no entity for it). */
export function reportedFields(d: DeviceEntry): string[] {
  const f: Array<[string, unknown]> = [
    ['battery', d.batteryPct],
    ['battery_voltage', d.batteryVoltage],
    ['charging', d.charging],
    ['usb_power', d.usbPower],
    ['rssi', d.rssi],
    ['firmware', d.fwVersion],
    ['wake_reason', d.wakeReason],
  ];
  return f.filter(([, v]) => v !== null).map(([k]) => k);
}

export function deviceDiscovery(input: DeviceDiscoveryInput): { topic: string; payload: DeviceDiscovery } {
  const { topics, display, device: d } = input;
  const node = topics.deviceNode(display.id, d.key);
  const state = topics.deviceState(display.id, d.key);
  const availability = [
    { topic: topics.status, payload_available: 'online', payload_not_available: 'offline' },
    {
      topic: topics.deviceAvailability(display.id, d.key),
      payload_available: 'online',
      payload_not_available: 'offline',
    },
  ];
  const entity = (
    key: string,
    platform: 'sensor' | 'binary_sensor',
    name: string,
    template: string,
    rest: Record<string, unknown>,
  ): [string, Component] =>
    component(
      { node, platform, key, name, availability },
      { availability_mode: 'all', state_topic: state, value_template: template, ...rest },
    );
  const measure = { state_class: 'measurement' };
  const diag = { entity_category: 'diagnostic' };
  const flag = (field: string): string => `{{ 'ON' if value_json.${field} else 'OFF' }}`;
  const all: Record<string, [string, Component]> = {
    battery: entity('battery', 'sensor', 'Battery', '{{ value_json.battery_pct }}', {
      device_class: 'battery',
      unit_of_measurement: '%',
      ...measure,
    }),
    battery_voltage: entity('battery_voltage', 'sensor', 'Battery voltage', '{{ value_json.battery_voltage }}', {
      device_class: 'voltage',
      unit_of_measurement: 'V',
      ...measure,
      ...diag,
    }),
    charging: entity('charging', 'binary_sensor', 'Charging', flag('charging'), { device_class: 'battery_charging' }),
    usb_power: entity('usb_power', 'binary_sensor', 'USB power', flag('usb_power'), { device_class: 'plug', ...diag }),
    rssi: entity('rssi', 'sensor', 'Wi-Fi signal', '{{ value_json.rssi }}', {
      device_class: 'signal_strength',
      unit_of_measurement: 'dBm',
      ...measure,
      ...diag,
    }),
    firmware: entity('firmware', 'sensor', 'Firmware', '{{ value_json.fw_version }}', { icon: 'mdi:chip', ...diag }),
    wake_reason: entity('wake_reason', 'sensor', 'Last wake', '{{ value_json.wake_reason }}', {
      icon: 'mdi:gesture-tap-button',
      ...diag,
    }),
  };
  const components = Object.fromEntries([
    ...Object.entries(all)
      .filter(([k]) => input.fields.has(k))
      .map(([, c]) => c),
    entity('seen', 'sensor', 'Last seen', '{{ value_json.seen_at }}', { device_class: 'timestamp', ...diag }),
    ...[...input.sensors].map(([kind, unit]) =>
      entity(
        `sensor_${kind}`,
        'sensor',
        kind
          .replace(/_/g, ' ')
          .replace(/^./, (c) => c.toUpperCase())
          .replace(/^(Co2|Carbon dioxide)$/, 'CO₂'),
        `{{ value_json.sensors.${kind} }}`,
        { ...sensorClass(kind, unit), ...measure },
      ),
    ),
  ]);
  const model = deviceModel(d.model);
  const mac = d.mac === null ? {} : { connections: [['mac', d.mac.toLowerCase()]] };
  return {
    topic: topics.deviceConfig(display.id, d.key),
    payload: {
      device: {
        identifiers: [node],
        name: `${display.name ?? display.id} ${d.kind === 'kindle' ? 'Kindle' : (model?.label ?? 'TRMNL')}`,
        manufacturer: d.kind === 'kindle' ? 'Amazon' : model?.kind === 'byod' ? 'Seeed Studio' : 'TRMNL',
        model: d.kind === 'kindle' ? 'Kindle (online screensaver)' : (model?.label ?? d.model ?? 'TRMNL'),
        ...(d.fwVersion !== null && { sw_version: d.fwVersion }),
        ...mac,
        via_device: topics.nodeId(display.id),
      },
      origin: originOf(input.swVersion, input.supportUrl),
      components,
    },
  };
}
