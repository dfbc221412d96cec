import mqtt, { type IPublishPacket, type MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import { redactor, type Redact } from '../shared/redactor.js';
import { addLogSecrets } from '../log/logging.js';
import { systemClock, type Clock } from '../time/clock.js';
import { backoffDelay } from '../time/backoff-delay.js';
import {
  clientOptions,
  MAX_INCOMING_PACKET_BYTES,
  RECONNECT_BACKOFF,
  redactUrl,
  SUBACK_TIMEOUT_MS,
  type MqttConnectionOptions,
} from './connection-options.js';
import { limitIncoming } from './incoming-limit.js';

export { RECONNECT_BACKOFF, redactUrl, SUBACK_TIMEOUT_MS, type MqttConnectionOptions } from './connection-options.js';

/**
 * One MQTT connection: client options (auth, TLS files), last will on the status topic, `online` on every connect,
 * `offline` on a clean stop, reconnect with exponential backoff, and an outbox that keeps only the newest message per
 * topic while disconnected (sent on reconnect). Knows nothing about displays or Home Assistant.
 */

export interface OutgoingMessage {
  payload: string | Buffer;
  retain: boolean;
}

export type MessageHandler = (topic: string, payload: Buffer, packet: IPublishPacket) => void;

export class MqttConnection {
  readonly #opts: MqttConnectionOptions;
  /** The broker may quote the password back in an error. */
  readonly #redact: Redact;
  readonly #log: Logger;
  readonly #outbox = new Map<string, OutgoingMessage>();
  readonly #subscriptions = new Set<string>();
  readonly #connectHandlers: (() => void)[] = [];
  readonly #messageHandlers: MessageHandler[] = [];
  readonly #inFlight = new Set<Promise<void>>();
  #client: MqttClient | null = null;
  /** Connections lost in a row (the backoff's count); reset once a broker takes the subscriptions. */
  #failures = 0;
  #timer: unknown = null;
  /** The bound on the SUBACK of the current connection's subscriptions; null when none is awaited. */
  #subackTimer: unknown = null;
  #stopping = false;
  #lastError = '';
  /** Resolves start(): set until the first connect's subscriptions are taken, the first failure, or stop(). */
  #started: (() => void) | null = null;

  constructor(opts: MqttConnectionOptions) {
    this.#opts = opts;
    this.#redact = redactor([opts.password]);
    this.#log = opts.logger;
    // The password may be one no config holds (the embedded broker's login for the daemon, made at each start).
    addLogSecrets(opts.logger, [opts.password]);
  }

  get connected(): boolean {
    return this.#client?.connected === true;
  }

  /** Topics waiting for a connection (newest message each). */
  get outboxSize(): number {
    return this.#outbox.size;
  }

  onConnect(fn: () => void): void {
    this.#connectHandlers.push(fn);
  }

  onMessage(fn: MessageHandler): void {
    this.#messageHandlers.push(fn);
  }

  /** Subscribed now when connected, and again on every reconnect. */
  subscribe(topic: string): void {
    this.#subscriptions.add(topic);
    if (this.connected) this.#client?.subscribe(topic, { qos: 1 });
  }

  /**
   * Connects. Resolves once the first connect's subscriptions are taken by the broker (its SUBACK), so a message
   * sent to them after start() is never lost; or on the first failure (then reconnects in the background), so a
   * daemon starts with the broker down. Never later than the CONNACK bound plus the SUBACK bound: a broker that takes
   * the CONNECT and never answers the SUBSCRIBE has its connection dropped and made again (with the backoff).
   */
  start(): Promise<void> {
    const client = mqtt.connect(this.#opts.url, { ...clientOptions(this.#opts), manualConnect: true });
    const limit = this.#opts.maxIncomingBytes ?? MAX_INCOMING_PACKET_BYTES;
    limitIncoming(client, {
      limit,
      onSkip: (bytes) =>
        this.#log.warn(
          { code: 'W_MQTT_MESSAGE_TOO_LARGE', bytes, limit },
          'a message from the MQTT broker is larger than any the daemon takes; skipped unread',
        ),
    });
    client.connect();
    this.#client = client;
    const first = new Promise<void>((resolve) => {
      this.#started = resolve;
      client.once('close', () => this.#startDone());
    });
    client.on('connect', () => this.#onConnect(client));
    client.on('close', () => this.#onClose());
    client.on('error', (err) => this.#onError(err));
    client.on('message', (topic, payload, packet) => {
      for (const fn of this.#messageHandlers) {
        try {
          fn(topic, payload, packet);
        } catch (err) {
          this.#log.error({ topic, err }, 'MQTT message handler failed');
        }
      }
    });
    return first;
  }

  /** Sends now when connected; otherwise keeps it as the newest message of its topic until the next connect. */
  publish(topic: string, payload: string | Buffer, opts: { retain?: boolean } = {}): void {
    const msg: OutgoingMessage = { payload, retain: opts.retain ?? true };
    if (this.connected && this.#client) {
      this.#outbox.delete(topic);
      this.#send(this.#client, topic, msg);
      return;
    }
    this.#outbox.delete(topic);
    this.#outbox.set(topic, msg);
    const max = this.#opts.maxOutboxTopics ?? 500;
    while (this.#outbox.size > max) {
      const oldest = this.#outbox.keys().next().value;
      if (oldest === undefined) break;
      this.#outbox.delete(oldest);
      this.#log.warn(
        { code: 'W_MQTT_OUTBOX_FULL', topic: oldest, max },
        'MQTT outbox full while disconnected; oldest topic dropped',
      );
    }
  }

  /** Waits until every message sent so far is acknowledged (or timeoutMs passes). */
  async flush(timeoutMs = 3000): Promise<void> {
    if (this.#inFlight.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.allSettled([...this.#inFlight]), timeout]);
    clearTimeout(timer);
  }

  /** Publishes `offline` (retained), waits for it, and disconnects cleanly so the broker drops the will. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#cancelTimer();
    this.#cancelSubackTimer();
    // A start still waiting (for a SUBACK, a CONNACK) ends with the stop: nothing may hold a stopping daemon.
    this.#startDone();
    const client = this.#client;
    if (!client) return;
    if (client.connected) {
      this.#send(client, this.#opts.statusTopic, { payload: 'offline', retain: true });
      await this.flush(3000);
      // A clean DISCONNECT (the broker drops the will). mqtt.js holds it until every message and subscription in
      // flight is acknowledged, and then ignores end(true) (it is `disconnecting` already): a broker that never
      // acknowledges would keep the socket open, so after 2 s the socket itself is destroyed.
      let timer: NodeJS.Timeout | undefined;
      const graceful = client.endAsync(false).then(
        () => true,
        () => true,
      );
      const late = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 2000);
      });
      const done = await Promise.race([graceful, late]);
      clearTimeout(timer);
      if (!done) client.stream.destroy();
    } else {
      await client.endAsync(true).catch(() => undefined);
    }
    this.#client = null;
  }

  #send(client: MqttClient, topic: string, msg: OutgoingMessage): void {
    const p = new Promise<void>((resolve) => {
      client.publish(topic, msg.payload, { qos: 1, retain: msg.retain }, (err) => {
        if (err && !this.#stopping) this.#log.debug({ topic, err }, 'MQTT publish not acknowledged');
        resolve();
      });
    });
    this.#inFlight.add(p);
    void p.finally(() => this.#inFlight.delete(p));
  }

  #onConnect(client: MqttClient): void {
    this.#lastError = '';
    this.#log.info({ url: redactUrl(this.#opts.url) }, 'MQTT connected');
    this.#send(client, this.#opts.statusTopic, { payload: 'online', retain: true });
    const topics = [...this.#subscriptions];
    if (topics.length === 0) this.#subscribed();
    else this.#subscribeAll(client, topics);
    for (const fn of this.#connectHandlers) {
      try {
        fn();
      } catch (err) {
        this.#log.error({ err }, 'MQTT connect handler failed');
      }
    }
    // What the handlers did not already send anew.
    const queued = [...this.#outbox.entries()];
    this.#outbox.clear();
    for (const [topic, msg] of queued) this.#send(client, topic, msg);
  }

  /**
   * Subscribes to every topic, within the SUBACK bound. The backoff starts again only once the broker has taken them:
   * a broker that accepts connections and never answers a SUBSCRIBE is retried less and less often, not every 11 s.
   */
  #subscribeAll(client: MqttClient, topics: string[]): void {
    const ms = this.#opts.subackTimeoutMs ?? SUBACK_TIMEOUT_MS;
    this.#cancelSubackTimer();
    const timer = this.#clock().setTimeout(() => {
      if (this.#subackTimer !== timer) return;
      this.#subackTimer = null;
      this.#lastError = `no SUBACK within ${ms} ms`;
      this.#log.warn(
        { code: 'W_MQTT_SUBACK_TIMEOUT', url: redactUrl(this.#opts.url), waitedMs: ms, topics: topics.length },
        'the MQTT broker took the connection but did not answer the subscriptions; reconnecting',
      );
      this.#startDone();
      // As if the network dropped it: 'close' comes and the backoff reconnects.
      client.stream.destroy();
    }, ms);
    this.#subackTimer = timer;
    // The callback comes with the SUBACK (with an error carrying it when the broker refused a filter: 0x80), or with
    // an error when the connection drops first.
    client.subscribe(topics, { qos: 1 }, (err) => {
      if (this.#subackTimer !== timer) return;
      this.#cancelSubackTimer();
      if (!err || 'packet' in err) this.#subscribed();
      else this.#startDone();
    });
  }

  /** The connection is complete: the broker has taken every subscription. */
  #subscribed(): void {
    this.#failures = 0;
    this.#startDone();
  }

  #startDone(): void {
    this.#started?.();
    this.#started = null;
  }

  #onClose(): void {
    this.#inFlight.clear();
    this.#cancelSubackTimer();
    if (this.#stopping || this.#timer !== null) return;
    this.#failures += 1;
    const delay = backoffDelay(
      this.#failures,
      this.#opts.backoff ?? RECONNECT_BACKOFF,
      this.#opts.random ?? Math.random,
    );
    this.#log.warn(
      {
        code: 'W_MQTT_DISCONNECTED',
        url: redactUrl(this.#opts.url),
        retryInMs: delay,
        attempt: this.#failures,
        ...(this.#lastError && { reason: this.#lastError }),
      },
      'MQTT disconnected; reconnecting',
    );
    this.#timer = this.#clock().setTimeout(() => {
      this.#timer = null;
      const client = this.#client;
      // Keep the stores: QoS 1 messages in flight when the link dropped are sent again (and acknowledged).
      if (!this.#stopping && client)
        client.reconnect({ incomingStore: client.incomingStore, outgoingStore: client.outgoingStore });
    }, delay);
  }

  #onError(err: Error): void {
    const message = this.#redact(err.message);
    if (message !== this.#lastError) this.#log.debug({ err }, 'MQTT error');
    this.#lastError = message;
  }

  #cancelTimer(): void {
    if (this.#timer === null) return;
    this.#clock().clearTimeout(this.#timer);
    this.#timer = null;
  }

  #cancelSubackTimer(): void {
    if (this.#subackTimer === null) return;
    this.#clock().clearTimeout(this.#subackTimer);
    this.#subackTimer = null;
  }

  #clock(): Clock {
    return this.#opts.clock ?? systemClock;
  }
}
