import type { DisplayConfig } from '../config/schema.js';
import { discoveryNode, underBase, type MqttTopics } from './topics.js';
import { STATUS_KINDS } from '../state/state-payload.js';

/**
 * Home Assistant MQTT discovery, pure functions: a display (and the units of its newest Recommendation) in, the
 * retained device-discovery message out.
 *
 * Device-based discovery (`<prefix>/device/<node>/config`, HA 2024.11+): one message a display holds all its entities,
 * so HA creates, updates and removes a display's entities together, and an empty retained payload removes them all.
 * Every component carries its own availability, unique_id and default_entity_id (never object_id, deprecated in
 * HA 2025.10); the root holds only `device`, `origin` and `components`, the keys every HA version with device
 * discovery accepts there.
 */

const ORIGIN_NAME = 'outfit-display';

export type Component = Record<string, unknown> & { platform: string; unique_id: string };

export interface DeviceDiscovery {
  device: Record<string, unknown>;
  origin: { name: string; sw_version: string; support_url?: string };
  components: Record<string, Component>;
}

export interface DiscoveryInput {
  display: DisplayConfig;
  topics: MqttTopics;
  swVersion: string;
  /** `temp_unit` / `wind_speed_unit` of the newest Recommendation; the display's unit system when absent. */
  tempUnit?: string | null;
  windUnit?: string | null;
  /** Seconds after which HA marks the readings unavailable without a new state; null: never. */
  expireAfterS?: number | null;
  supportUrl?: string;
}

const TEMP_UNITS: Record<string, string> = {
  c: '°C',
  '°c': '°C',
  '℃': '°C',
  celsius: '°C',
  degc: '°C',
  f: '°F',
  '°f': '°F',
  '℉': '°F',
  fahrenheit: '°F',
  degf: '°F',
  k: 'K',
  kelvin: 'K',
};
const WIND_UNITS: Record<string, string> = {
  'km/h': 'km/h',
  kmh: 'km/h',
  kph: 'km/h',
  'km/hr': 'km/h',
  mph: 'mph',
  'mi/h': 'mph',
  'm/s': 'm/s',
  mps: 'm/s',
  kn: 'kn',
  kt: 'kn',
  kts: 'kn',
  knots: 'kn',
  'ft/s': 'ft/s',
  beaufort: 'Beaufort',
  bft: 'Beaufort',
};

/** HA's spelling of a temperature unit (°C, °F, K), or null when HA's temperature device class cannot take it. */
export function haTempUnit(unit: string | null | undefined): string | null {
  return unit ? (TEMP_UNITS[unit.trim().toLowerCase()] ?? null) : null;
}

/** HA's spelling of a wind speed unit (km/h, mph, m/s, kn, ft/s, Beaufort), or null. */
export function haWindUnit(unit: string | null | undefined): string | null {
  return unit ? (WIND_UNITS[unit.trim().toLowerCase()] ?? null) : null;
}

/** An entity id part: lower case [a-z0-9_], no double, leading or trailing underscore (HA's valid_entity_id). */
export function entitySlug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
}

/** A sensor with a device class when HA knows the unit; otherwise a plain sensor with the unit as the service wrote it. */
function measured(
  deviceClass: string,
  haUnit: string | null,
  rawUnit: string | null | undefined,
): Record<string, unknown> {
  if (haUnit) return { device_class: deviceClass, unit_of_measurement: haUnit, state_class: 'measurement' };
  const raw = rawUnit?.trim();
  return { state_class: 'measurement', ...(raw && { unit_of_measurement: raw }) };
}

export function deviceDiscovery(input: DiscoveryInput): { topic: string; payload: DeviceDiscovery } {
  const { display, topics } = input;
  const node = topics.nodeId(display.id);
  const state = topics.state(display.id);
  const diag = topics.diagnostics(display.id);
  const availability = [{ topic: topics.status, payload_available: 'online', payload_not_available: 'offline' }];
  const expire = input.expireAfterS && input.expireAfterS > 0 ? { expire_after: Math.ceil(input.expireAfterS) } : {};
  const metric = display.unit !== 'imperial';
  const tempRaw = input.tempUnit ?? (metric ? '°C' : '°F');
  const windRaw = input.windUnit ?? (metric ? 'km/h' : 'mph');

  const entity = (platform: string, key: string, name: string, rest: Record<string, unknown>): [string, Component] =>
    component({ node, platform, key, name, availability }, rest);
  const reading = (platform: string, key: string, name: string, template: string, rest: Record<string, unknown>) =>
    entity(platform, key, name, { state_topic: state, value_template: template, ...expire, ...rest });
  const diagnostic = (key: string, name: string, field: string, rest: Record<string, unknown>) =>
    entity('sensor', key, name, {
      state_topic: diag,
      value_template: `{{ value_json.${field} }}`,
      entity_category: 'diagnostic',
      ...rest,
    });

  const components = Object.fromEntries([
    entity('image', 'frame', 'Frame', { image_topic: topics.image(display.id), content_type: 'image/png' }),
    reading(
      'sensor',
      'temperature',
      'Temperature',
      '{{ value_json.weather.temp }}',
      measured('temperature', haTempUnit(tempRaw), tempRaw),
    ),
    reading(
      'sensor',
      'feels_like',
      'Feels like',
      '{{ value_json.weather.feels_like }}',
      measured('temperature', haTempUnit(tempRaw), tempRaw),
    ),
    reading('sensor', 'humidity', 'Humidity', '{{ value_json.weather.humidity_pct }}', {
      device_class: 'humidity',
      unit_of_measurement: '%',
      state_class: 'measurement',
    }),
    reading(
      'sensor',
      'wind_speed',
      'Wind speed',
      '{{ value_json.weather.wind_speed }}',
      measured('wind_speed', haWindUnit(windRaw), windRaw),
    ),
    reading('sensor', 'wind_direction', 'Wind direction', '{{ value_json.weather.wind_dir[:255] }}', {
      icon: 'mdi:compass-outline',
    }),
    reading('sensor', 'rain_chance', 'Rain chance', '{{ value_json.weather.rain_chance_pct }}', {
      unit_of_measurement: '%',
      state_class: 'measurement',
      icon: 'mdi:weather-pouring',
    }),
    reading('sensor', 'uv_index', 'UV index', '{{ value_json.weather.uv_index }}', {
      unit_of_measurement: 'UV index',
      state_class: 'measurement',
      icon: 'mdi:sun-wireless',
    }),
    reading('sensor', 'conditions', 'Conditions', '{{ value_json.weather.description[:255] }}', {
      icon: 'mdi:weather-partly-cloudy',
    }),
    reading('binary_sensor', 'daytime', 'Daytime', "{{ 'ON' if value_json.weather.is_day else 'OFF' }}", {
      icon: 'mdi:theme-light-dark',
    }),
    reading('binary_sensor', 'alerts', 'Weather alerts', "{{ 'ON' if value_json.weather.alerts else 'OFF' }}", {
      device_class: 'safety',
      json_attributes_topic: state,
      json_attributes_template:
        "{{ {'alerts': value_json.weather.alerts, 'count': value_json.weather.alerts | length} | tojson }}",
    }),
    reading('sensor', 'outfit', 'Outfit', '{{ value_json.outfit[:255] }}', {
      icon: 'mdi:tshirt-crew',
      json_attributes_topic: state,
      json_attributes_template:
        "{{ {'outfit': value_json.outfit, 'reasoning': value_json.reasoning, 'model': value_json.model, 'generated_at': value_json.generated_at} | tojson }}",
    }),
    reading('sensor', 'garments', 'What to wear', '{{ value_json.garments_text[:255] }}', {
      icon: 'mdi:hanger',
      json_attributes_topic: state,
      json_attributes_template: '{{ value_json.wear | tojson }}',
    }),
    reading('binary_sensor', 'umbrella', 'Umbrella needed', "{{ 'ON' if value_json.wear.umbrella else 'OFF' }}", {
      icon: 'mdi:umbrella',
    }),
    reading('binary_sensor', 'sunscreen', 'Sunscreen needed', "{{ 'ON' if value_json.wear.sunscreen else 'OFF' }}", {
      icon: 'mdi:sunglasses',
    }),
    entity('sensor', 'last_update', 'Last update', {
      state_topic: state,
      value_template: '{{ value_json.fetched_at }}',
      device_class: 'timestamp',
    }),
    entity('sensor', 'next_update', 'Next update', {
      state_topic: state,
      value_template: '{{ value_json.next_update_at }}',
      device_class: 'timestamp',
    }),
    diagnostic('status', 'Status', 'status', {
      device_class: 'enum',
      options: [...STATUS_KINDS],
      json_attributes_topic: diag,
    }),
    diagnostic('credits_spent_today', 'Credits spent today', 'credits_spent_today', {
      unit_of_measurement: 'credits',
      state_class: 'total_increasing',
      icon: 'mdi:cash-minus',
    }),
    diagnostic('credits_left_today', 'Credits left today', 'credits_left_today', {
      unit_of_measurement: 'credits',
      state_class: 'measurement',
      icon: 'mdi:cash',
    }),
    diagnostic('credits_left_month', 'Credits left this month', 'credits_left_month', {
      unit_of_measurement: 'credits',
      state_class: 'measurement',
      icon: 'mdi:cash',
    }),
    diagnostic('rate_limit_remaining', 'Rate limit remaining', 'rate_limit_remaining', {
      unit_of_measurement: 'requests',
      state_class: 'measurement',
      icon: 'mdi:speedometer',
    }),
    entity('binary_sensor', 'state_problem', 'State storage problem', {
      state_topic: diag,
      // The frame files (output_dir) are storage too: E_OUTPUT_WRITE turns it on as E_STATE_WRITE does.
      value_template: "{{ 'ON' if value_json.state_problem or value_json.output_problem else 'OFF' }}",
      device_class: 'problem',
      entity_category: 'diagnostic',
      json_attributes_topic: diag,
      json_attributes_template:
        "{{ {'state_problem': value_json.state_problem, 'output_problem': value_json.output_problem} | tojson }}",
    }),
    entity('binary_sensor', 'render_problem', 'Drawing problem', {
      state_topic: diag,
      // On while the last frame could not be drawn (E_RENDER_…): the frame on show is an older one.
      value_template: "{{ 'ON' if value_json.render_problem else 'OFF' }}",
      device_class: 'problem',
      entity_category: 'diagnostic',
      json_attributes_topic: diag,
      json_attributes_template: "{{ {'render_problem': value_json.render_problem} | tojson }}",
    }),
    entity('binary_sensor', 'stale', 'Outfit out of date', {
      state_topic: diag,
      // On from the moment a scheduled update passed (with its grace) without a new outfit, whatever else is wrong.
      value_template: "{{ 'ON' if value_json.stale_since else 'OFF' }}",
      device_class: 'problem',
      json_attributes_topic: diag,
      json_attributes_template: "{{ {'stale_since': value_json.stale_since} | tojson }}",
    }),
    entity('button', 'refresh', 'Refresh', {
      command_topic: topics.refresh(display.id),
      payload_press: 'PRESS',
      retain: false,
      icon: 'mdi:refresh',
      // Unavailable, with the reason as an attribute, when a press can do nothing (no refresh reserve).
      availability: [
        ...availability,
        { topic: diag, value_template: "{{ 'online' if value_json.refresh_available else 'offline' }}" },
      ],
      availability_mode: 'all',
      json_attributes_topic: diag,
      json_attributes_template:
        "{{ {'unavailable_reason': value_json.refresh_unavailable_reason, 'last_refused': value_json.refresh_refused} | tojson }}",
    }),
    // A panel on the daemon's own header: when the glass was last refreshed, and whether it fails.
    ...(display.attached === undefined
      ? []
      : [
          diagnostic('panel_last_refresh', 'Panel last refresh', 'panel_last_refresh_at', {
            device_class: 'timestamp',
          }),
          entity('binary_sensor', 'panel_problem', 'Panel problem', {
            state_topic: diag,
            value_template: "{{ 'ON' if value_json.panel_problem else 'OFF' }}",
            device_class: 'problem',
            entity_category: 'diagnostic',
            json_attributes_topic: diag,
            json_attributes_template: "{{ {'panel_problem': value_json.panel_problem} | tojson }}",
          }),
        ]),
  ]);

  const origin = originOf(input.swVersion, input.supportUrl);
  return {
    topic: topics.displayConfig(display.id),
    payload: {
      device: {
        identifiers: [node],
        name: display.name ?? display.id,
        manufacturer: 'outfit-display',
        model: 'E-ink outfit display',
        model_id: display.panel,
        sw_version: input.swVersion,
      },
      origin,
      components,
    },
  };
}

/** Where an entity belongs: the node and its key in it give its ids. */
export interface ComponentIds {
  node: string;
  platform: string;
  key: string;
  name: string;
  availability: readonly Record<string, string>[];
}

/** One entity of a device's discovery: ids from the node and key (a stable unique_id), its availability, QoS 1. */
export function component(ids: ComponentIds, rest: Record<string, unknown>): [string, Component] {
  const { node, platform, key, name, availability } = ids;
  return [
    key,
    {
      platform,
      name,
      unique_id: `${node}_${key}`,
      default_entity_id: `${platform}.${entitySlug(`${node}_${key}`)}`,
      availability,
      qos: 1,
      ...rest,
    },
  ];
}

/** The `origin` block of every discovery message of ours (isOurDevice() knows ours by it). */
export function originOf(swVersion: string, supportUrl?: string): DeviceDiscovery['origin'] {
  return { name: ORIGIN_NAME, sw_version: swVersion, ...(supportUrl ? { support_url: supportUrl } : {}) };
}

/**
 * expire_after for a display whose longest planned gap between updates is `longestGapS`: two missed updates and five
 * minutes more. (A failed fetch still publishes the kept state, so only a daemon that stopped publishing expires.)
 */
export function expireAfterFromGap(longestGapS: number): number | null {
  return Number.isFinite(longestGapS) && longestGapS > 0 ? Math.ceil(2 * longestGapS + 300) : null;
}

/** Whether a retained device-discovery payload was written by outfit-display (origin name and our node prefix). */
export function isOurDevice(topics: MqttTopics, topic: string, payload: unknown): boolean {
  if (!discoveryNode(topics, topic)?.startsWith(topics.nodePrefix)) return false;
  if (typeof payload !== 'object' || payload === null) return false;
  const p = payload as { origin?: { name?: unknown }; o?: { name?: unknown } };
  return (p.origin ?? p.o)?.name === ORIGIN_NAME;
}

/** The retained data topics (state, image, attributes) a device-discovery payload of ours points at, under `base`. */
export function dataTopicsOf(payload: unknown, topics: MqttTopics): string[] {
  const comps =
    (payload as { components?: unknown; cmps?: unknown }).components ?? (payload as { cmps?: unknown }).cmps;
  if (typeof comps !== 'object' || comps === null) return [];
  const found = new Set<string>();
  for (const c of Object.values(comps as Record<string, unknown>)) {
    if (typeof c !== 'object' || c === null) continue;
    for (const key of ['state_topic', 'image_topic', 'json_attributes_topic']) {
      const t = (c as Record<string, unknown>)[key];
      if (typeof t === 'string' && t !== topics.base && underBase(topics, t) && t !== topics.status && !/[+#]/.test(t))
        found.add(t);
    }
  }
  return [...found];
}
