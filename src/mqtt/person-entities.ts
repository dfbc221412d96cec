import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { ShownView } from '../state/display-views.js';
import type { PersonConfig } from '../config/schema.js';
import { FEEDBACK, type Feedback } from '../domain/warmth.js';
import type { HouseholdContext } from '../publish/plugin.js';
import type { WarningCode } from '../shared/codes.js';
import type { Clock } from '../time/clock.js';
import { personDiscovery, personState } from './person-discovery.js';
import { personCommand, personOfNode, type MqttTopics } from './topics.js';

/**
 * What the MQTT publisher does for the household's people (person-discovery.ts has the payloads): takes their
 * "too cold" / "too warm" votes and offset sets from `<b>/people/<id>/feedback` and `<b>/people/<id>/offset/set`
 * into the warmth book, and sends each person's retained state whenever their offset, presence or frame changes,
 * and their Home Assistant device on every connect and when Home Assistant comes online.
 */

/** What the MQTT publisher is given of the household (the publishers' HouseholdContext); absent: no `people`. */
export interface HouseholdMqtt extends HouseholdContext {
  /** The configured people (config `people`). */
  people: readonly PersonConfig[];
  /** The people a device shows alone and their own frames (their image entity); absent: nobody is shown alone. */
  frameOf?: PersonFrames;
}

export interface PersonEntitiesOptions extends HouseholdMqtt {
  topics: MqttTopics;
  /** Whether the people are announced to Home Assistant (`mqtt.discovery`). */
  haDiscovery: boolean;
  swVersion: string;
  supportUrl?: string;
  /** The time an offset is faded to when its state is sent. */
  clock: Clock;
  logger: Logger;
  /** Publishes retained. */
  send: (topic: string, payload: string | Buffer) => void;
}

/** The people a device shows alone, and their own frame drawn from a display's view. */
export interface PersonFrames {
  /** The people a device shows alone. */
  readonly people: ReadonlySet<string>;
  /** Their frame as that device shows it (its panel), PNG. */
  draw(view: ShownView, personId: string): Promise<Buffer>;
}

export class PersonEntities {
  readonly #o: PersonEntitiesOptions;
  readonly #log: Logger;
  readonly #people: Map<string, PersonConfig>;
  /** The discovery JSON last sent on this connection, by person. */
  readonly #sent = new Map<string, string>();
  readonly #unsubscribe: Array<() => void> = [];
  /** The hash of the frame last sent, by person (a redraw of the same picture is not sent again). */
  readonly #sentImage = new Map<string, string>();
  /** The newest frame of each person shown alone, to send again on a new connection. */
  readonly #image = new Map<string, Buffer>();

  constructor(opts: PersonEntitiesOptions) {
    this.#o = opts;
    this.#log = opts.logger;
    this.#people = new Map(opts.people.map((p) => [p.id, p]));
    this.#unsubscribe.push(opts.warmth.onChange((id) => this.sendState(id)));
    if (opts.presence !== null) this.#unsubscribe.push(opts.presence.onChange((c) => this.sendState(c.personId)));
  }

  /** The command topics to subscribe to. */
  get subscriptions(): string[] {
    return this.#people.size === 0
      ? []
      : [this.#o.topics.personFeedbackWildcard, this.#o.topics.personOffsetSetWildcard];
  }

  /** Every person's discovery and state again (a new connection, Home Assistant back online). */
  resendAll(): void {
    this.#sent.clear();
    for (const id of this.#people.keys()) {
      this.#sendDiscovery(id);
      this.sendState(id);
      const png = this.#image.get(id);
      if (png !== undefined) this.#o.send(this.#o.topics.personImage(id), png);
    }
  }

  /** Sends the person's state (offset faded to now, presence, what their frame shows). */
  sendState(personId: string): void {
    const person = this.#people.get(personId);
    if (person === undefined) return;
    const now = this.#o.clock.now();
    const state = personState(
      person,
      this.#o.warmth.offsetOf(personId, now),
      this.#o.warmth.setAtOf(personId),
      this.#o.presence?.presenceOf(personId) ?? 'unknown',
      this.#o.shown?.(personId) ?? null,
    );
    this.#o.send(this.#o.topics.personState(personId), JSON.stringify(state));
  }

  /**
   * A message on one of the people's command topics: handled (a vote or a set, or a warning) and true; false for any
   * other topic. A retained command is ignored: it would vote again at every restart.
   */
  handle(topic: string, payload: Buffer, retained: boolean): boolean {
    const cmd = personCommand(this.#o.topics, topic);
    if (cmd === null) return false;
    if (retained || payload.length === 0) {
      this.#log.debug({ topic, retained }, 'person command ignored (retained or empty)');
      return true;
    }
    const text = payload.toString('utf8').trim();
    if (cmd.command === 'offset') {
      this.#o.warmth.set(cmd.personId, text);
      return true;
    }
    if (!(FEEDBACK as readonly string[]).includes(text)) {
      this.#log.warn(
        { code: 'W_FEEDBACK_UNKNOWN' satisfies WarningCode, topic, payload: text.slice(0, 40) },
        'a feedback payload other than too_cold or too_warm; ignored',
      );
      return true;
    }
    this.#o.warmth.vote(cmd.personId, text as Feedback);
    return true;
  }

  /**
   * Whether a retained discovery config of ours is a configured person's: true to keep it, false to remove it (a
   * person no longer configured, or discovery off); null when the node is no person's.
   */
  keeps(node: string): boolean | null {
    const id = personOfNode(this.#o.topics, node);
    if (id === null) return null;
    return this.#o.haDiscovery && this.#people.has(id);
  }

  /**
   * Draws and sends the frames of the display's people who are shown alone by a device (never throws: a frame that
   * cannot be drawn is logged, and their last one stays).
   */
  async sendImages(view: ShownView): Promise<void> {
    const frames = this.#o.frameOf;
    if (frames === undefined) return;
    for (const id of view.display.people ?? []) {
      if (!frames.people.has(id) || !view.people?.some((p) => p.id === id)) continue;
      try {
        const png = await frames.draw(view, id);
        const hash = createHash('sha256').update(png).digest('hex');
        if (this.#sentImage.get(id) === hash) continue;
        this.#sentImage.set(id, hash);
        this.#image.set(id, png);
        this.#o.send(this.#o.topics.personImage(id), png);
      } catch (err) {
        this.#log.error({ err, person: id, display: view.display.id }, "a person's own frame could not be drawn");
      }
    }
  }

  dispose(): void {
    for (const u of this.#unsubscribe.splice(0)) u();
  }

  #sendDiscovery(personId: string): void {
    const person = this.#people.get(personId)!;
    if (!this.#o.haDiscovery) {
      this.#o.send(this.#o.topics.personConfig(personId), '');
      return;
    }
    const { topic, payload } = personDiscovery({
      person,
      framed: this.#o.frameOf?.people.has(personId) ?? false,
      topics: this.#o.topics,
      swVersion: this.#o.swVersion,
      ...(this.#o.supportUrl !== undefined && { supportUrl: this.#o.supportUrl }),
    });
    const json = JSON.stringify(payload);
    if (this.#sent.get(personId) === json) return;
    this.#sent.set(personId, json);
    this.#o.send(topic, json);
  }
}
