import { component, type Component } from './ha-discovery.js';
import type { MqttTopics } from './topics.js';

/**
 * The TRMNL pairing button of a display that has TRMNL devices:
 *   <base>/<id>/pair     command: opens TRMNL pairing of the display's devices for 5 minutes (not retained)
 * and its Home Assistant component, added to that display's device discovery.
 */

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

/** The pairing button, for `deviceDiscovery(...).payload.components` of a display that has a TRMNL device. */
export function pairComponents(topics: MqttTopics, displayId: string): Record<string, Component> {
  const availability = [{ topic: topics.status, payload_available: 'online', payload_not_available: 'offline' }];
  return Object.fromEntries([
    component(
      {
        node: topics.nodeId(displayId),
        platform: 'button',
        key: 'device_pair',
        name: 'Pair TRMNL device',
        availability,
      },
      {
        command_topic: pairTopic(topics, displayId),
        payload_press: 'PRESS',
        retain: false,
        entity_category: 'config',
        icon: 'mdi:link-variant',
      },
    ),
  ]);
}
