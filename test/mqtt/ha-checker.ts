/**
 * Home Assistant's acceptance rules for MQTT device discovery, as a test oracle (homeassistant/components/mqtt:
 * discovery.py, schemas.py DEVICE_DISCOVERY_SCHEMA / MQTT_ENTITY_DEVICE_INFO_SCHEMA / MQTT_ORIGIN_INFO_SCHEMA,
 * sensor.py validate_sensor_state_and_device_class_config, image.py, button.py, binary_sensor.py, number.py, util.py
 * check_state_too_long). checkDeviceDiscovery() returns every problem of a payload; checkStates() applies the
 * state-side rules (255 characters, numbers, timestamps with offset, enum options, PNG) to the retained states,
 * through a small evaluator of the template forms the publisher is allowed to use.
 */

export const ROOT_KEYS = new Set([
  'device',
  'origin',
  'components',
  'availability',
  'availability_mode',
  'availability_template',
  'availability_topic',
  'payload_available',
  'payload_not_available',
  'state_topic',
  'command_topic',
  'qos',
  'encoding',
  'message_expiry_interval',
]);
export const DEVICE_KEYS = new Set([
  'identifiers',
  'connections',
  'manufacturer',
  'model',
  'model_id',
  'name',
  'hw_version',
  'serial_number',
  'sw_version',
  'via_device',
  'suggested_area',
  'configuration_url',
]);
const ORIGIN_KEYS = new Set(['name', 'sw_version', 'support_url']);
const ENTITY_PLATFORMS = new Set(['binary_sensor', 'button', 'image', 'number', 'sensor']);
/** number.py: the modes of its PLATFORM_SCHEMA. */
const NUMBER_MODES = new Set(['auto', 'box', 'slider']);
const SENSOR_CLASSES = new Set([
  'apparent_power',
  'aqi',
  'area',
  'atmospheric_pressure',
  'battery',
  'carbon_dioxide',
  'carbon_monoxide',
  'current',
  'data_rate',
  'data_size',
  'date',
  'distance',
  'duration',
  'energy',
  'enum',
  'frequency',
  'gas',
  'humidity',
  'illuminance',
  'irradiance',
  'moisture',
  'monetary',
  'power',
  'power_factor',
  'precipitation',
  'precipitation_intensity',
  'pressure',
  'signal_strength',
  'sound_pressure',
  'speed',
  'temperature',
  'timestamp',
  'voltage',
  'volume',
  'weight',
  'wind_direction',
  'wind_speed',
]);
const BINARY_CLASSES = new Set([
  'battery',
  'battery_charging',
  'carbon_monoxide',
  'cold',
  'connectivity',
  'door',
  'garage_door',
  'gas',
  'heat',
  'light',
  'lock',
  'moisture',
  'motion',
  'moving',
  'occupancy',
  'opening',
  'plug',
  'power',
  'presence',
  'problem',
  'running',
  'safety',
  'smoke',
  'sound',
  'tamper',
  'update',
  'vibration',
  'window',
]);
export const DEVICE_CLASS_UNITS: Record<string, Set<string>> = {
  temperature: new Set(['°C', '°F', 'K']),
  humidity: new Set(['%']),
  wind_speed: new Set(['ft/s', 'km/h', 'kn', 'm/s', 'mph', 'Beaufort']),
  wind_direction: new Set(['°']),
};
const STATE_CLASSES = new Set(['measurement', 'measurement_angle', 'total', 'total_increasing']);
const ENTITY_ID = /^(?!.+__)(?!_)[\da-z_]+(?<!_)\.(?!_)[\da-z_]+(?<!_)$/;
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const SHARED = ['availability', 'availability_topic', 'state_topic', 'command_topic', 'qos'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Any JSON value as text, for messages and comparisons. */
const str = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined'));
const isHttpUrl = (v: unknown) => typeof v === 'string' && /^https?:\/\/[^\s/]+/.test(v);
const validTopic = (t: unknown, wildcards: boolean) =>
  typeof t === 'string' && t.length > 0 && !t.includes('\u0000') && (wildcards || !/[+#]/.test(t));

export function checkDeviceDiscovery(topic: string, payload: unknown, prefix = 'homeassistant'): string[] {
  const p: string[] = [];
  if (!new RegExp(`^${prefix}/device/[a-zA-Z0-9_-]+/config$`).test(topic))
    p.push(`topic ${topic}: not <prefix>/device/<[a-zA-Z0-9_-]+>/config`);
  if (!isObj(payload)) return [...p, 'payload is not a JSON object'];
  for (const k of Object.keys(payload)) if (!ROOT_KEYS.has(k)) p.push(`root: extra key "${k}" not allowed`);
  const dev = payload.device;
  if (!isObj(dev)) p.push('device: required object');
  else {
    for (const k of Object.keys(dev)) if (!DEVICE_KEYS.has(k)) p.push(`device: extra key "${k}" not allowed`);
    const ids = dev.identifiers;
    if (!(Array.isArray(ids) && ids.length > 0 && ids.every((i) => typeof i === 'string')))
      p.push('device: needs identifiers (strings)');
    if ('configuration_url' in dev && !isHttpUrl(dev.configuration_url))
      p.push('device.configuration_url: must be http(s)');
    for (const [k, v] of Object.entries(dev))
      if (k !== 'identifiers' && k !== 'connections' && typeof v !== 'string') p.push(`device.${k}: must be a string`);
  }
  const origin = payload.origin;
  if (!isObj(origin)) p.push('origin: required object');
  else {
    if (typeof origin.name !== 'string' || origin.name === '') p.push('origin.name: required');
    for (const k of Object.keys(origin)) if (!ORIGIN_KEYS.has(k)) p.push(`origin: extra key "${k}"`);
    if ('support_url' in origin && !isHttpUrl(origin.support_url)) p.push('origin.support_url: must be http(s)');
  }
  const comps = payload.components;
  if (!isObj(comps) || Object.keys(comps).length === 0) return [...p, 'components: required non-empty object'];
  const uids = new Set<string>();
  for (const [key, raw] of Object.entries(comps)) {
    if (!/^[a-zA-Z0-9_-]+$/.test(key)) p.push(`components.${key}: id must match [a-zA-Z0-9_-]+`);
    if (!isObj(raw)) {
      p.push(`components.${key}: not an object`);
      continue;
    }
    const c: Obj = { ...raw };
    for (const k of SHARED) if (k in payload && !(k in c)) c[k] = payload[k];
    p.push(...checkComponent(key, c).map((m) => `components.${key}: ${m}`));
    if (typeof c.unique_id === 'string') {
      if (uids.has(c.unique_id)) p.push(`components.${key}: duplicate unique_id ${c.unique_id}`);
      uids.add(c.unique_id);
    }
  }
  return p;
}

function checkComponent(_key: string, c: Obj): string[] {
  const p: string[] = [];
  const platform = c.platform;
  if (typeof platform !== 'string' || !ENTITY_PLATFORMS.has(platform))
    return [`platform ${str(platform)} not supported here`];
  if (typeof c.unique_id !== 'string' || c.unique_id === '') p.push('unique_id: required');
  if ('object_id' in c) p.push('object_id: deprecated, use default_entity_id');
  if (
    typeof c.default_entity_id !== 'string' ||
    !ENTITY_ID.test(c.default_entity_id) ||
    !c.default_entity_id.startsWith(`${platform}.`)
  ) {
    p.push(`default_entity_id: must be a valid "${platform}.<id>", got ${str(c.default_entity_id)}`);
  }
  if ('availability' in c && 'availability_topic' in c) p.push('availability and availability_topic are exclusive');
  const av = c.availability;
  const hasAv =
    (Array.isArray(av) && av.length > 0 && av.every((a) => isObj(a) && validTopic(a.topic, true))) ||
    validTopic(c.availability_topic, true);
  if (!hasAv) p.push('availability: required on every entity');
  if ('name' in c && c.name !== null && typeof c.name !== 'string') p.push('name: string or null');
  if ('qos' in c && ![0, 1, 2].includes(c.qos as number)) p.push('qos: 0, 1 or 2');
  if ('expire_after' in c) {
    if (platform !== 'sensor' && platform !== 'binary_sensor') p.push('expire_after: only sensors and binary sensors');
    if (!Number.isInteger(c.expire_after) || (c.expire_after as number) <= 0)
      p.push('expire_after: positive integer seconds');
  }
  if ('json_attributes_topic' in c && !validTopic(c.json_attributes_topic, true))
    p.push('json_attributes_topic: invalid');
  for (const t of ['value_template', 'json_attributes_template']) {
    if (t in c) {
      try {
        parseTemplate(str(c[t]));
      } catch (err) {
        p.push(`${t}: ${(err as Error).message}`);
      }
    }
  }
  const dc = c.device_class;
  const unit = c.unit_of_measurement;
  const sc = c.state_class;
  switch (platform) {
    case 'sensor':
      if (!validTopic(c.state_topic, true)) p.push('state_topic: required');
      if (dc !== undefined && !SENSOR_CLASSES.has(str(dc))) p.push(`device_class ${str(dc)} unknown`);
      if (sc !== undefined && !STATE_CLASSES.has(str(sc))) p.push(`state_class ${str(sc)} unknown`);
      if (sc === 'measurement_angle' && unit !== '°') p.push('measurement_angle needs unit °');
      if (
        typeof dc === 'string' &&
        unit !== undefined &&
        DEVICE_CLASS_UNITS[dc] &&
        !DEVICE_CLASS_UNITS[dc].has(str(unit))
      ) {
        p.push(`unit ${str(unit)} is not valid with device class ${dc}`);
      }
      if ((dc === 'timestamp' || dc === 'date' || dc === 'enum') && (unit !== undefined || sc !== undefined))
        p.push(`${dc}: no unit, no state_class`);
      if ('options' in c) {
        if (dc !== 'enum') p.push('options only with device_class enum');
        if (!Array.isArray(c.options) || c.options.length === 0) p.push('options: non-empty list');
      }
      break;
    case 'binary_sensor':
      if (!validTopic(c.state_topic, true)) p.push('state_topic: required');
      if (dc !== undefined && !BINARY_CLASSES.has(str(dc))) p.push(`device_class ${str(dc)} unknown`);
      if (unit !== undefined || sc !== undefined) p.push('binary_sensor: no unit or state_class');
      break;
    case 'image': {
      const n = ['image_topic', 'url_topic'].filter((k) => k in c).length;
      if (n !== 1) p.push('exactly one of image_topic / url_topic');
      if ('content_type' in c && 'url_topic' in c) p.push('content_type not with url_topic');
      if ('image_topic' in c && !/^image\/[a-z0-9.+-]+$/.test(str(c.content_type ?? 'image/jpeg')))
        p.push('content_type: image/<type>');
      break;
    }
    case 'button':
      if (!validTopic(c.command_topic, false)) p.push('command_topic: required, no wildcards');
      if (c.retain === true) p.push('a button press must not be retained');
      break;
    case 'number': {
      // number.py: command_topic required; min (default 1) below max (default 100); step at least 1e-3; a mode.
      if (!validTopic(c.command_topic, false)) p.push('command_topic: required, no wildcards');
      if ('state_topic' in c && !validTopic(c.state_topic, true)) p.push('state_topic: invalid');
      const min = c.min ?? 1;
      const max = c.max ?? 100;
      if (typeof min !== 'number' || typeof max !== 'number' || !(max > min)) p.push('max must be greater than min');
      if ('step' in c && !(typeof c.step === 'number' && c.step >= 1e-3)) p.push('step: a number of at least 0.001');
      if ('mode' in c && !NUMBER_MODES.has(str(c.mode))) p.push(`mode ${str(c.mode)} unknown`);
      if (dc !== undefined && (!SENSOR_CLASSES.has(str(dc)) || ['timestamp', 'date', 'enum'].includes(str(dc))))
        p.push(`device_class ${str(dc)} unknown for a number`);
      if (sc !== undefined) p.push('number: no state_class');
      break;
    }
  }
  return p;
}

// ---- templates: the forms the publisher may use, evaluated the way HA's Jinja would ----

type Expr = (v: unknown) => unknown;
const PATH = String.raw`value_json(?:\.[a-z_][a-z0-9_]*)+`;

function pathExpr(src: string): Expr {
  const m = new RegExp(`^(${PATH})(\\[:(\\d+)\\])?( \\| length)?$`).exec(src.trim());
  if (!m || !m[1]) throw new Error(`unsupported expression "${src}"`);
  const keys = m[1].split('.').slice(1);
  const slice = m[3] === undefined ? null : Number(m[3]);
  const length = m[4] !== undefined;
  return (v) => {
    let cur: unknown = v;
    for (const k of keys) cur = isObj(cur) ? cur[k] : undefined;
    if (cur === undefined) throw new Error(`template: value_json has no ${keys.join('.')}`);
    if (slice !== null) return Array.from(str(cur)).slice(0, slice).join('');
    if (length) return Array.isArray(cur) || typeof cur === 'string' ? cur.length : 0;
    return cur;
  };
}

export function parseTemplate(t: string): (v: unknown) => string {
  const m = /^\{\{ (.*) \}\}$/.exec(t);
  if (!m || !m[1]) throw new Error(`not a single {{ }} expression: ${t}`);
  const body = m[1];
  const cond = /^'([^']*)' if (.+) else '([^']*)'$/.exec(body);
  if (cond?.[2]) {
    // `a or b`: true when either is, as Jinja's `or`.
    const tests = cond[2].split(' or ').map(pathExpr);
    return (v) => (tests.some((test) => truthy(test(v))) ? cond[1]! : cond[3]!);
  }
  const whole = /^([a-z_.]+) \| tojson$/.exec(body);
  if (whole?.[1]) {
    const expr = pathExpr(whole[1]);
    return (v) => JSON.stringify(expr(v));
  }
  const dict = /^\{(.*)\} \| tojson$/.exec(body);
  if (dict?.[1]) {
    const entries = dict[1].split(/, (?=')/).map((e) => {
      const kv = /^'([a-z_]+)': (.+)$/.exec(e);
      if (!kv?.[1] || !kv[2]) throw new Error(`unsupported dict entry "${e}"`);
      return [kv[1], pathExpr(kv[2])] as const;
    });
    return (v) => JSON.stringify(Object.fromEntries(entries.map(([k, f]) => [k, f(v)])));
  }
  const expr = pathExpr(body);
  return (v) => pyStr(expr(v));
}

const truthy = (x: unknown) =>
  !(x === null || x === false || x === 0 || x === '' || (Array.isArray(x) && x.length === 0));
function pyStr(x: unknown): string {
  if (x === null) return 'None';
  if (x === true) return 'True';
  if (x === false) return 'False';
  if (typeof x === 'number') return String(x);
  if (typeof x === 'string') return x;
  return JSON.stringify(x);
}

/** What HA would make of each entity's retained state: problems, and the state a component shows. */
export function checkStates(
  payload: { components: Record<string, Obj> },
  retained: Map<string, Buffer>,
): { problems: string[]; states: Record<string, string> } {
  const problems: string[] = [];
  const states: Record<string, string> = {};
  for (const [key, c] of Object.entries(payload.components)) {
    if (c.platform === 'image') {
      const img = retained.get(str(c.image_topic));
      if (!img) problems.push(`${key}: no retained image`);
      else if (
        c.content_type === 'image/png' &&
        !img.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
      )
        problems.push(`${key}: not a PNG`);
      continue;
    }
    if (c.platform === 'button') continue;
    const raw = retained.get(str(c.state_topic));
    if (!raw) {
      problems.push(`${key}: no retained state on ${str(c.state_topic)}`);
      continue;
    }
    const json: unknown = JSON.parse(raw.toString());
    try {
      const state = parseTemplate(str(c.value_template))(json);
      states[key] = state;
      problems.push(...storeProblems(c, state).map((m) => `${key}: ${m}`));
      if (c.json_attributes_template) {
        const attrs = parseTemplate(str(c.json_attributes_template))(json);
        if (!isObj(JSON.parse(attrs))) problems.push(`${key}: attributes are not a JSON object`);
        if (Buffer.byteLength(attrs) >= 16384) problems.push(`${key}: attributes over 16 KiB`);
      }
    } catch (err) {
      problems.push(`${key}: ${(err as Error).message}`);
    }
  }
  return { problems, states };
}

function storeProblems(c: Obj, state: string): string[] {
  if (c.platform === 'number') {
    // number.py: a payload that is no number, or one outside min..max, is logged and the state left as it was.
    const v = Number(state);
    const [min, max] = [Number(c.min ?? 1), Number(c.max ?? 100)];
    return state.trim() !== '' && Number.isFinite(v) && v >= min && v <= max
      ? []
      : [`number state "${state}" is not within ${min}..${max}`];
  }
  if (c.platform === 'binary_sensor') {
    return [c.payload_on ?? 'ON', c.payload_off ?? 'OFF'].includes(state)
      ? []
      : [`binary state "${state}" is neither payload_on nor payload_off`];
  }
  if (state === 'None') return [];
  const dc = c.device_class;
  if (dc === 'timestamp')
    return ISO_WITH_OFFSET.test(state) && !Number.isNaN(Date.parse(state))
      ? []
      : [`timestamp "${state}" is not ISO-8601 with an offset`];
  if (dc === 'enum') return (c.options as string[]).includes(state) ? [] : [`"${state}" is not one of the options`];
  if (dc !== undefined || c.unit_of_measurement !== undefined || c.state_class !== undefined) {
    return state.trim() !== '' && Number.isFinite(Number(state)) ? [] : [`numeric sensor got "${state}"`];
  }
  return Array.from(state).length <= 255
    ? []
    : [`state of ${Array.from(state).length} characters (HA keeps at most 255)`];
}
