/**
 * Every MQTT topic outfit-display uses, from `mqtt.base_topic` (b) and `mqtt.discovery_prefix` (p); the one place a
 * topic is spelt (test/house/topics.test.ts checks that no other file of src/ builds one):
 *   b/status                              online | offline (retained; last will)
 *   b/<id>/state                          the Recommendation + fetched_at, next_update_at, stale (JSON, retained)
 *   b/<id>/image                          the frame, PNG bytes (retained)
 *   b/<id>/diagnostics                    frame status and budget figures (JSON, retained)
 *   b/<id>/refresh                        command: any payload = refresh now, within budget (not retained)
 *   b/<id>/pair                           command: opens TRMNL pairing of the display's devices (not retained)
 *   b/<id>/devices/<key>                  a device that pulls the frame: battery, signal, sensors (JSON, retained)
 *   b/<id>/devices/<key>/availability     online | offline (retained)
 *   b/<id>/device                         written by earlier versions; only cleared now
 *   b/people/<person>/feedback            command: too_cold | too_warm, a warmth vote (not retained)
 *   b/people/<person>/offset/set          command: the person's warmth offset, a number of °C (not retained)
 *   b/people/<person>/state               a person: offset, presence, outfit, garments, additions (JSON, retained)
 *   p/device/<node>/config                Home Assistant device discovery (retained): one a display (its node
 *                                         `<sanitized b>_<id>`) and one a device that pulls its frame
 *                                         (`<sanitized b>_<id>_DEV_<key>`), and one a person
 *                                         (`<sanitized b>_PERSON_<person>`)
 *   p/status                              Home Assistant's own online/offline
 * `<key>` is `trmnl-<mac, 12 hex>` or `kindle`. A device's node cannot collide with a display's: `_DEV_` cannot occur
 * in a display's node (display ids are lower case), nor can `PERSON_`.
 */
export interface MqttTopics {
  readonly base: string;
  readonly prefix: string;
  readonly status: string;
  readonly haStatus: string;
  readonly refreshWildcard: string;
  readonly pairWildcard: string;
  /** Every device discovery config under the prefix, ours and other programs'. */
  readonly discoveryWildcard: string;
  /** `<sanitized base>_`: the start of every node id of ours. */
  readonly nodePrefix: string;
  state(id: string): string;
  image(id: string): string;
  diagnostics(id: string): string;
  refresh(id: string): string;
  pair(id: string): string;
  /** Where earlier versions kept a display's TRMNL figures: cleared (an empty retained message), never written. */
  formerDevice(id: string): string;
  /** The Home Assistant node id of a display: `<sanitized base>_<id>`, within [a-zA-Z0-9_-]. */
  nodeId(id: string): string;
  /** The display's device discovery config. */
  displayConfig(id: string): string;
  /** The node id of a device that pulls display `id`'s frame. */
  deviceNode(id: string, key: string): string;
  deviceState(id: string, key: string): string;
  deviceAvailability(id: string, key: string): string;
  /** The device discovery config of a device that pulls display `id`'s frame. */
  deviceConfig(id: string, key: string): string;
  /** Every person's feedback command (`b/people/+/feedback`). */
  readonly personFeedbackWildcard: string;
  /** Every person's offset command (`b/people/+/offset/set`). */
  readonly personOffsetSetWildcard: string;
  personFeedback(personId: string): string;
  personOffsetSet(personId: string): string;
  personState(personId: string): string;
  /** A person's own frame, PNG (retained), where a device shows only them. */
  personImage(personId: string): string;
  /** The Home Assistant node id of a person: `<sanitized base>_PERSON_<person>`. */
  personNode(personId: string): string;
  /** The person's device discovery config. */
  personConfig(personId: string): string;
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
  const deviceNode = (id: string, key: string): string => `${nodePrefix}${id}_DEV_${key}`;
  const deviceState = (id: string, key: string): string => `${base}/${id}/devices/${key}`;
  return {
    base,
    prefix,
    status: `${base}/status`,
    haStatus: `${prefix}/status`,
    refreshWildcard: `${base}/+/refresh`,
    pairWildcard: `${base}/+/pair`,
    discoveryWildcard: `${prefix}/device/+/config`,
    nodePrefix,
    state: (id) => `${base}/${id}/state`,
    image: (id) => `${base}/${id}/image`,
    diagnostics: (id) => `${base}/${id}/diagnostics`,
    refresh: (id) => `${base}/${id}/refresh`,
    pair: (id) => `${base}/${id}/pair`,
    formerDevice: (id) => `${base}/${id}/device`,
    nodeId: (id) => `${nodePrefix}${id}`,
    displayConfig: (id) => `${prefix}/device/${nodePrefix}${id}/config`,
    deviceNode,
    deviceState,
    deviceAvailability: (id, key) => `${deviceState(id, key)}/availability`,
    deviceConfig: (id, key) => `${prefix}/device/${deviceNode(id, key)}/config`,
    personFeedbackWildcard: `${base}/people/+/feedback`,
    personOffsetSetWildcard: `${base}/people/+/offset/set`,
    personFeedback: (p) => `${base}/people/${p}/feedback`,
    personOffsetSet: (p) => `${base}/people/${p}/offset/set`,
    personState: (p) => `${base}/people/${p}/state`,
    personImage: (p) => `${base}/people/${p}/image`,
    personNode: (p) => `${nodePrefix}PERSON_${p}`,
    personConfig: (p) => `${prefix}/device/${nodePrefix}PERSON_${p}/config`,
  };
}

/** The display id of `<base>/<id>/<command>`, or null when the topic is anything else. */
function commandTarget(topics: MqttTopics, topic: string, command: string): string | null {
  const head = `${topics.base}/`;
  const tail = `/${command}`;
  if (!topic.startsWith(head) || !topic.endsWith(tail)) return null;
  const id = topic.slice(head.length, -tail.length);
  return /^[a-z0-9_-]+$/.test(id) ? id : null;
}

/** The display id of `<base>/<id>/refresh`, or null when the topic is anything else. */
export function refreshTarget(topics: MqttTopics, topic: string): string | null {
  return commandTarget(topics, topic, 'refresh');
}

/** The display id of `<base>/<id>/pair`, or null when the topic is anything else. */
export function pairTarget(topics: MqttTopics, topic: string): string | null {
  return commandTarget(topics, topic, 'pair');
}

/** A person's command: `b/people/<person>/feedback` or `b/people/<person>/offset/set`; null for any other topic. */
export function personCommand(
  topics: MqttTopics,
  topic: string,
): { personId: string; command: 'feedback' | 'offset' } | null {
  const head = `${topics.base}/people/`;
  if (!topic.startsWith(head)) return null;
  const m = /^([a-z0-9_-]+)\/(feedback|offset\/set)$/.exec(topic.slice(head.length));
  if (m === null) return null;
  return { personId: m[1]!, command: m[2] === 'feedback' ? 'feedback' : 'offset' };
}

/** The person of one of our person nodes (`<node prefix>PERSON_<person>`), or null. */
export function personOfNode(topics: MqttTopics, node: string): string | null {
  if (!node.startsWith(topics.nodePrefix)) return null;
  const m = /^PERSON_([a-z0-9_-]+)$/.exec(node.slice(topics.nodePrefix.length));
  return m === null ? null : m[1]!;
}

/** Whether `topic` is the base or under it: the daemon's own topics. */
export function underBase(topics: MqttTopics, topic: string): boolean {
  return topic === topics.base || topic.startsWith(`${topics.base}/`);
}

/** Whether `topic` is under `<prefix>/device/`: a device discovery config (anyone's), not a command. */
export function isDiscovery(topics: MqttTopics, topic: string): boolean {
  return topic.startsWith(`${topics.prefix}/device/`);
}

/** Whether `topic` is under the discovery of one of our nodes (`<prefix>/device/<node prefix>…`). */
export function isOurDiscovery(topics: MqttTopics, topic: string): boolean {
  return topic.startsWith(`${topics.prefix}/device/${topics.nodePrefix}`);
}

/** The node of a device discovery config topic `<prefix>/device/<node>/config`, or null. */
export function discoveryNode(topics: MqttTopics, topic: string): string | null {
  const head = `${topics.prefix}/device/`;
  if (!topic.startsWith(head) || !topic.endsWith('/config')) return null;
  const node = topic.slice(head.length, -'/config'.length);
  return /^[a-zA-Z0-9_-]+$/.test(node) ? node : null;
}

/** The display id and device key of one of our device nodes, or null when the node is a display's or not ours. */
export function deviceOfNode(topics: MqttTopics, node: string): { displayId: string; key: string } | null {
  if (!node.startsWith(topics.nodePrefix)) return null;
  const m = /^([a-z0-9_-]+)_DEV_(trmnl-[0-9a-f]{12}|kindle)$/.exec(node.slice(topics.nodePrefix.length));
  return m === null ? null : { displayId: m[1]!, key: m[2]! };
}
