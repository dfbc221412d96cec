/**
 * Every MQTT topic outfit-display uses, from `mqtt.base_topic` (b) and `mqtt.discovery_prefix` (p):
 *   b/status                       online | offline (retained; last will)
 *   b/<id>/state                   the Recommendation + fetched_at, next_update_at, stale (JSON, retained)
 *   b/<id>/image                   the frame, PNG bytes (retained)
 *   b/<id>/diagnostics             frame status and budget figures (JSON, retained)
 *   b/<id>/refresh                 command: any payload = refresh now, within budget (not retained)
 *   p/device/<node>/config         Home Assistant device discovery, one a display (retained)
 *   p/status                       Home Assistant's own online/offline
 */
export interface MqttTopics {
  readonly base: string;
  readonly prefix: string;
  readonly status: string;
  readonly haStatus: string;
  readonly refreshWildcard: string;
  readonly deviceConfigWildcard: string;
  /** `<sanitized base>_`: the start of every node id of ours. */
  readonly nodePrefix: string;
  state(id: string): string;
  image(id: string): string;
  diagnostics(id: string): string;
  refresh(id: string): string;
  /** The Home Assistant node id of a display: `<sanitized base>_<id>`, within [a-zA-Z0-9_-]. */
  nodeId(id: string): string;
  deviceConfig(id: string): string;
}

/** A topic level or id reduced to the characters Home Assistant accepts in discovery topics. */
export function sanitizeId(s: string): string {
  return s.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'outfit-display';
}

/** Trailing slashes of a configured topic prefix are dropped: "outfit/" and "outfit" are the same base. */
function trimSlashes(s: string): string {
  return s.replace(/\/+$/, '');
}

export function mqttTopics(baseTopic: string, discoveryPrefix: string): MqttTopics {
  const base = trimSlashes(baseTopic);
  const prefix = trimSlashes(discoveryPrefix);
  const nodePrefix = `${sanitizeId(base)}_`;
  return {
    base,
    prefix,
    status: `${base}/status`,
    haStatus: `${prefix}/status`,
    refreshWildcard: `${base}/+/refresh`,
    deviceConfigWildcard: `${prefix}/device/+/config`,
    nodePrefix,
    state: (id) => `${base}/${id}/state`,
    image: (id) => `${base}/${id}/image`,
    diagnostics: (id) => `${base}/${id}/diagnostics`,
    refresh: (id) => `${base}/${id}/refresh`,
    nodeId: (id) => `${nodePrefix}${id}`,
    deviceConfig: (id) => `${prefix}/device/${nodePrefix}${id}/config`,
  };
}

/** The display id of `<base>/<id>/refresh`, or null when the topic is anything else. */
export function refreshTarget(topics: MqttTopics, topic: string): string | null {
  const head = `${topics.base}/`;
  if (!topic.startsWith(head) || !topic.endsWith('/refresh')) return null;
  const id = topic.slice(head.length, -'/refresh'.length);
  return /^[a-z0-9_-]+$/.test(id) ? id : null;
}
