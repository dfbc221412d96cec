import { readFileSync } from 'node:fs';
import mqtt, { type IClientOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import { redactor, type Redact } from '../config/redactor.js';
import { addLogSecrets } from '../logging.js';
import { systemClock, type Clock } from '../time/clock.js';

/**
 * One MQTT connection: client options (auth, TLS files), last will on the status topic, `online` on every connect,
 * `offline` on a clean stop, reconnect with exponential backoff, and an outbox that keeps only the newest message per
 * topic while disconnected (sent on reconnect). Knows nothing about displays or Home Assistant.
 */

export interface MqttConnectionOptions {
  /** mqtt://host[:port] or mqtts://host[:port]. */
  url: string;
  username?: string;
  /** Never logged, never published. */
  password?: string | null;
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  clientId: string;
  /** Carries the last will `offline` (retained), `online` on connect and `offline` on stop. */
  statusTopic: string;
  logger: Logger;
  /** Reconnect delay: initialMs doubling up to maxMs, times a jitter of 0.5–1.0. Default 1 s … 60 s. */
  backoff?: { initialMs: number; maxMs: number };
  /** Topics kept while disconnected; beyond it the oldest is dropped. Default 500. */
  maxOutboxTopics?: number;
  connectTimeoutMs?: number;
  keepaliveS?: number;
  random?: () => number;
  /** Timers of the reconnects; default systemClock. */
  clock?: Clock;
}

export interface OutgoingMessage {
  payload: string | Buffer;
  retain: boolean;
}

export type MessageHandler = (topic: string, payload: Buffer, packet: IPublishPacket) => void;

/** The URL without user:password, for logs. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/)[^@/]*@/i, '$1');
}

/** Delay before reconnect attempt `attempt` (0-based). */
export function backoffDelay(attempt: number, backoff: { initialMs: number; maxMs: number }, random: () => number): number {
  const base = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(base * (0.5 + 0.5 * random()));
}

/** Builds mqtt.js options: no auto-reconnect (we back off ourselves), will, credentials, TLS material read from files. */
export function clientOptions(opts: MqttConnectionOptions): IClientOptions {
  const o: IClientOptions = {
    clientId: opts.clientId,
    protocolVersion: 4,
    clean: true,
    keepalive: opts.keepaliveS ?? 30,
    connectTimeout: opts.connectTimeoutMs ?? 10_000,
    reconnectPeriod: 0,
    resubscribe: false,
    queueQoSZero: false,
    will: { topic: opts.statusTopic, payload: Buffer.from('offline'), qos: 1, retain: true },
  };
  if (opts.username) o.username = opts.username;
  if (opts.password != null) {
    if (opts.username) o.password = opts.password;
    else opts.logger.warn({ code: 'W_MQTT_PASSWORD_UNUSED' }, 'an MQTT password is set but mqtt.username is empty; the password is not sent');
  }
  const read = (file: string, key: string): Buffer => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new Error(`mqtt.${key}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  };
  if (opts.caFile) o.ca = read(opts.caFile, 'ca_file');
  if (opts.certFile || opts.keyFile) {
    if (!opts.certFile || !opts.keyFile) throw new Error('mqtt.cert_file and mqtt.key_file must be set together');
    o.cert = read(opts.certFile, 'cert_file');
    o.key = read(opts.keyFile, 'key_file');
  }
  if (opts.url.startsWith('mqtts:')) o.rejectUnauthorized = true;
  return o;
}

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
  #attempt = 0;
  #timer: unknown = null;
  #stopping = false;
  #lastError = '';
  /** Resolves start(): set until the first connect's subscriptions are taken, or the first failure. */
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
   * daemon starts with the broker down.
   */
  start(): Promise<void> {
    const client = mqtt.connect(this.#opts.url, clientOptions(this.#opts));
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
      this.#log.warn({ code: 'W_MQTT_OUTBOX_FULL', topic: oldest, max }, 'MQTT outbox full while disconnected; oldest topic dropped');
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
    const client = this.#client;
    if (!client) return;
    if (client.connected) {
      this.#send(client, this.#opts.statusTopic, { payload: 'offline', retain: true });
      await this.flush(3000);
      // A clean DISCONNECT (the broker drops the will); forced when an old in-flight message never gets its ack.
      let timer: NodeJS.Timeout | undefined;
      const graceful = client.endAsync(false).then(() => true, () => true);
      const late = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 2000);
      });
      const done = await Promise.race([graceful, late]);
      clearTimeout(timer);
      if (!done) await client.endAsync(true).catch(() => undefined);
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
    this.#attempt = 0;
    this.#lastError = '';
    this.#log.info({ url: redactUrl(this.#opts.url) }, 'MQTT connected');
    this.#send(client, this.#opts.statusTopic, { payload: 'online', retain: true });
    const topics = [...this.#subscriptions];
    if (topics.length === 0) this.#startDone();
    // The callback comes with the SUBACK, or with an error when the connection drops first.
    else client.subscribe(topics, { qos: 1 }, () => this.#startDone());
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

  #startDone(): void {
    this.#started?.();
    this.#started = null;
  }

  #onClose(): void {
    this.#inFlight.clear();
    if (this.#stopping || this.#timer !== null) return;
    const delay = backoffDelay(this.#attempt, this.#opts.backoff ?? { initialMs: 1000, maxMs: 60_000 }, this.#opts.random ?? Math.random);
    this.#attempt += 1;
    this.#log.warn(
      { code: 'W_MQTT_DISCONNECTED', url: redactUrl(this.#opts.url), retryInMs: delay, attempt: this.#attempt, ...(this.#lastError && { reason: this.#lastError }) },
      'MQTT disconnected; reconnecting',
    );
    this.#timer = (this.#opts.clock ?? systemClock).setTimeout(() => {
      this.#timer = null;
      const client = this.#client;
      // Keep the stores: QoS 1 messages in flight when the link dropped are sent again (and acknowledged).
      if (!this.#stopping && client) client.reconnect({ incomingStore: client.incomingStore, outgoingStore: client.outgoingStore });
    }, delay);
  }

  #onError(err: Error): void {
    const message = this.#redact(err.message);
    if (message !== this.#lastError) this.#log.debug({ err }, 'MQTT error');
    this.#lastError = message;
  }

  #cancelTimer(): void {
    if (this.#timer === null) return;
    (this.#opts.clock ?? systemClock).clearTimeout(this.#timer);
    this.#timer = null;
  }
}
