import type { PersonConfig } from '../config/schema.js';

/**
 * The people's presence topics (config `people[].presence_topic`): Home Assistant's `mqtt_statestream`, or an
 * automation, publishes a person's state there ("home", "not_home", a zone's name). Retained or live, every message
 * counts: a retained one says where the person is at the daemon's start. The payload's size is bounded before this by
 * the command limit (mqtt-commands.ts, MAX_COMMAND_BYTES: a state is a word) and by the connection's packet limit.
 */
export interface PresenceTopicsOptions {
  /** The household; people without a presence_topic have no presence (they count as at home). */
  people: readonly PersonConfig[];
  /** A person's presence payload (the presence book records it). */
  onPresence: (personId: string, payload: string) => unknown;
}

export class PresenceTopics {
  /** Topic → the people it speaks for (two people may share an automation's topic). */
  readonly #byTopic = new Map<string, string[]>();
  readonly #onPresence: PresenceTopicsOptions['onPresence'];

  constructor(opts: PresenceTopicsOptions) {
    this.#onPresence = opts.onPresence;
    for (const p of opts.people) {
      if (p.presence_topic === undefined) continue;
      this.#byTopic.set(p.presence_topic, [...(this.#byTopic.get(p.presence_topic) ?? []), p.id]);
    }
  }

  /** The topics to subscribe to. */
  topics(): string[] {
    return [...this.#byTopic.keys()];
  }

  /**
   * A message on `topic`: whether it was a presence topic (then handled). An empty payload (a retained message
   * cleared) says nothing of where anyone is.
   */
  handle(topic: string, payload: Buffer): boolean {
    const ids = this.#byTopic.get(topic);
    if (ids === undefined) return false;
    if (payload.length === 0) return true;
    const text = payload.toString('utf8');
    for (const id of ids) this.#onPresence(id, text);
    return true;
  }
}
