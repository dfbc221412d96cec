import { randomBytes } from 'node:crypto';
import type { IPublishPacket } from 'mqtt';
import type { Logger } from 'pino';
import type { DisplayConfig, MqttConfig } from '../config/schema.js';
import { packageVersion } from '../shared/package-root.js';
import type { DisplayView, DisplayViewSource, ShownView } from '../state/display-views.js';
import { embeddedBrokerOptions, startEmbeddedBroker, type EmbeddedBroker } from './broker/embedded-broker.js';
import { DisplayDiscovery } from './display-discovery.js';
import { MqttCommands } from './mqtt-commands.js';
import { DeviceEntities } from './device-entities.js';
import { PersonEntities, type HouseholdMqtt } from './person-entities.js';
import type { PresenceTopics } from './presence-topics.js';
import type { DeviceBook } from '../state/device-book.js';
import { MqttConnection, redactUrl } from './connection.js';
import type { BudgetStatus } from '../budget/governor-types.js';
import { diagnosticsPayload, statePayload } from '../state/state-payload.js';
import { isDiscovery, mqttTopics, sanitizeId, type MqttTopics } from './topics.js';
import type { Publisher } from '../publish/publisher.js';
import type { BackoffPolicy } from '../time/backoff-delay.js';
import { systemClock, type Clock } from '../time/clock.js';

/**
 * The MQTT publisher: retained state, image and diagnostics of every display, Home Assistant device discovery
 * (display-discovery.ts; re-sent on every connect and when HA announces `online`), the refresh and pairing buttons
 * (mqtt-commands.ts), the devices' and people's entities. The connection itself (will, backoff, offline outbox) is
 * MqttConnection's.
 */

export interface MqttPublisherOptions {
  mqtt: MqttConfig;
  /** From secrets (credential mqtt-password, OUTFIT_MQTT_PASSWORD or mqtt.password_file); never logged or published. */
  password: string | null;
  displays: readonly DisplayConfig[];
  /** IANA zone for the timestamps in state and diagnostics. */
  timezone: string;
  logger: Logger;
  /** A refresh press: called once a press with the display id; coalescing and budget are the caller's. */
  onRefresh: (displayId: string) => unknown;
  /** A press of a display's TRMNL pairing button (`<base>/<id>/pair`, displays with `hasDevice` only). */
  onPair?: (displayId: string) => unknown;
  /** Why the refresh button can do nothing (no refresh reserve), or null: HA shows the button unavailable. */
  refreshUnavailable?: string | null;
  /**
   * The daemon's view of every display (display-views.ts): what the state and diagnostics of the displays other than
   * the one just published show, and what is sent again on a reconnect; the budget's figures.
   */
  views: DisplayViewSource;
  /**
   * Whether a display gets a Home Assistant device (default: every display). A display switched off has its retained
   * discovery config cleared, so HA removes its entities; its state and image topics stay.
   */
  haDiscovery?: (displayId: string) => boolean;
  /** Whether a TRMNL device shows this display: the display's HA device gets the pairing button. */
  hasDevice?: (displayId: string) => boolean;
  /** The devices that pull frames (TRMNL, Kindle): each one its own HA device (device-entities.ts). */
  devices?: DeviceBook;
  /** The household's people: their votes, offsets and presence, each a Home Assistant device; absent: none. */
  household?: HouseholdMqtt;
  /** MACs of the configured TRMNL devices of a display (their HA devices are kept while configured). */
  trmnlMacs?: (displayId: string) => readonly string[];
  /** HA's expire_after for the readings, from the schedule (longest gap plus a margin); null: none. */
  expireAfterS?: (displayId: string) => number | null;
  swVersion?: string;
  /** http(s) URL for HA's origin block. */
  supportUrl?: string;
  /** Port of the embedded broker (`mqtt.url: embedded`), over the one of `mqtt.embedded.listen`; tests use 0. */
  embeddedPort?: number;
  /** Delay before re-sending after `homeassistant/status` = online; default 1–5 s. */
  haOnlineDelayMs?: { min: number; max: number };
  /** The reconnects' backoff (not a config key: tests shorten it); default the connection's RECONNECT_BACKOFF. */
  backoff?: BackoffPolicy;
  clientId?: string;
  random?: () => number;
  /** Timers of reconnects and of the re-send after Home Assistant comes online; default systemClock. */
  clock?: Clock;
  /** The people's presence topics (presence-topics.ts): subscribed to, their messages handed on; default none. */
  presence?: PresenceTopics;
}

export class MqttPublisher implements Publisher {
  readonly name = 'mqtt';
  readonly topics: MqttTopics;
  readonly #o: MqttPublisherOptions;
  readonly #log: Logger;
  readonly #displays: Map<string, DisplayConfig>;
  readonly #views: DisplayViewSource;
  /** The hash of the image last sent, by display: the displays published so far. */
  readonly #sentImage = new Map<string, string>();
  readonly #discovery: DisplayDiscovery;
  readonly #commands: MqttCommands;
  readonly #devices: DeviceEntities | null;
  readonly #people: PersonEntities | null;
  readonly #swVersion: string;
  #conn: MqttConnection | null = null;
  #broker: EmbeddedBroker | null = null;
  /** Set by stop(): a start still under way (the embedded broker starting) must not connect afterwards. */
  #stopped = false;

  constructor(opts: MqttPublisherOptions) {
    this.#o = opts;
    this.#log = opts.logger.child({ part: 'mqtt' });
    this.topics = mqttTopics(opts.mqtt.base_topic, opts.mqtt.discovery_prefix);
    this.#displays = new Map(opts.displays.map((d) => [d.id, d]));
    this.#swVersion = opts.swVersion ?? packageVersion();
    this.#views = opts.views;
    opts.views.onChange?.((id) => this.#viewChanged(id));
    this.#devices =
      opts.devices === undefined
        ? null
        : new DeviceEntities({
            topics: this.topics,
            book: opts.devices,
            displays: this.#displays,
            timezone: opts.timezone,
            swVersion: this.#swVersion,
            ...(opts.supportUrl !== undefined && { supportUrl: opts.supportUrl }),
            haDiscovery: (id) => opts.haDiscovery?.(id) ?? true,
            trmnlMacs: (id) => opts.trmnlMacs?.(id) ?? [],
            send: (topic, payload) => this.#send(topic, payload),
          });
    this.#people =
      opts.household === undefined
        ? null
        : new PersonEntities({
            ...opts.household,
            topics: this.topics,
            haDiscovery: opts.mqtt.discovery,
            swVersion: this.#swVersion,
            ...(opts.supportUrl !== undefined && { supportUrl: opts.supportUrl }),
            clock: opts.clock ?? systemClock,
            logger: this.#log,
            send: (topic, payload) => this.#send(topic, payload),
          });
    this.#discovery = new DisplayDiscovery({
      topics: this.topics,
      displays: this.#displays,
      swVersion: this.#swVersion,
      ...(opts.supportUrl !== undefined && { supportUrl: opts.supportUrl }),
      ...(opts.haDiscovery !== undefined && { haDiscovery: opts.haDiscovery }),
      ...(opts.hasDevice !== undefined && { hasDevice: opts.hasDevice }),
      ...(opts.expireAfterS !== undefined && { expireAfterS: opts.expireAfterS }),
      // A pulling device's node is kept while its display (and a TRMNL's binding) is configured, a person's while
      // the person is.
      keeps: (node) => (this.#devices?.keeps(node) ?? false) || this.#people?.keeps(node) === true,
      send: (topic, payload) => this.#send(topic, payload),
      logger: this.#log,
    });
    this.#commands = new MqttCommands({
      topics: this.topics,
      isDisplay: (id) => this.#displays.has(id),
      onRefresh: opts.onRefresh,
      ...(opts.onPair !== undefined && { onPair: opts.onPair }),
      ...(opts.hasDevice !== undefined && { hasDevice: opts.hasDevice }),
      onHaOnline: () => {
        this.#conn?.publish(this.topics.status, 'online', { retain: true });
        this.#resendAll();
      },
      ...(opts.haOnlineDelayMs !== undefined && { haOnlineDelayMs: opts.haOnlineDelayMs }),
      ...(opts.random !== undefined && { random: opts.random }),
      ...(opts.clock !== undefined && { clock: opts.clock }),
      logger: this.#log,
    });
  }

  get connected(): boolean {
    return this.#conn?.connected ?? false;
  }

  /** The broker URL in use (the embedded broker's once started), without credentials. */
  get url(): string {
    return redactUrl(this.#broker?.url ?? this.#o.mqtt.url);
  }

  async start(): Promise<void> {
    let url = this.#o.mqtt.url;
    let login: { username: string; password: string | null } = {
      username: this.#o.mqtt.username,
      password: this.#o.password,
    };
    if (url === 'embedded') {
      const broker = await startEmbeddedBroker(
        embeddedBrokerOptions(this.#o.mqtt, this.#o.password, this.topics, this.#log, this.#o.embeddedPort),
      );
      if (this.#stopped) {
        await broker.close();
        return;
      }
      this.#broker = broker;
      url = broker.url;
      // The daemon's own login; mqtt.username and the MQTT password are the one other clients must use.
      login = this.#broker.daemonLogin();
    }
    const random = this.#o.random ?? Math.random;
    const conn = new MqttConnection({
      url,
      username: login.username,
      password: login.password,
      caFile: this.#o.mqtt.ca_file,
      certFile: this.#o.mqtt.cert_file,
      keyFile: this.#o.mqtt.key_file,
      clientId: this.#o.clientId ?? `${sanitizeId(this.topics.base).slice(0, 14)}-${randomBytes(4).toString('hex')}`,
      statusTopic: this.topics.status,
      logger: this.#log,
      backoff: this.#o.backoff,
      random,
      clock: this.#o.clock,
    });
    this.#conn = conn;
    conn.onConnect(() => {
      this.#discovery.forget();
      this.#resendAll();
    });
    conn.onMessage((topic, payload, packet) => this.#onMessage(topic, payload, packet));
    conn.subscribe(this.topics.haStatus);
    conn.subscribe(this.topics.refreshWildcard);
    if (this.#o.onPair) conn.subscribe(this.topics.pairWildcard);
    for (const t of this.#people?.subscriptions ?? []) conn.subscribe(t);
    for (const topic of this.#o.presence?.topics() ?? []) conn.subscribe(topic);
    conn.subscribe(this.topics.discoveryWildcard);
    await conn.start();
    if (!conn.connected && !this.#stopped)
      this.#log.warn(
        { code: 'W_MQTT_UNREACHABLE', url: redactUrl(url) },
        'MQTT broker not reachable yet; retrying in the background',
      );
  }

  publish(view: ShownView): Promise<void> {
    const id = view.display.id;
    this.#displays.set(id, view.display);
    const prevHash = this.#sentImage.get(id);
    this.#sentImage.set(id, view.frame.hash);
    this.#discovery.announce(id, false, view);
    this.#sendState(view);
    if (view.frame.hash !== prevHash) this.#send(this.topics.image(id), view.frame.png);
    // A new frame of a display may show its people anew: their states follow it.
    for (const person of view.display.people ?? []) this.#people?.sendState(person);
    // A person a device shows alone: their own frame, drawn after this round (it may take a render).
    const images = this.#people?.sendImages(view);
    // The budget is shared: every display's diagnostics change with any display's spending.
    for (const other of this.#sentImage.keys()) this.#sendDiagnostics(other === id ? view : this.#views.view(other));
    return images ?? Promise.resolve();
  }

  /** A display's view changed outside its publish round (a panel refreshed, a problem came or went): its diagnostics. */
  #viewChanged(id: string): void {
    if (this.#sentImage.has(id)) this.#sendDiagnostics(this.#views.view(id));
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#commands.dispose();
    this.#people?.dispose();
    await this.#conn?.stop();
    this.#conn = null;
    await this.#broker?.close();
    this.#broker = null;
  }

  /** Discovery, state, image and diagnostics of every display: on each connect and when HA comes online. */
  #resendAll(): void {
    for (const id of this.#displays.keys()) {
      // Before each device had its own HA device, a display's TRMNL figures were retained here: cleared.
      if (this.#o.hasDevice?.(id)) this.#send(this.topics.formerDevice(id), '');
      this.#discovery.announce(id, true, this.#views.view(id));
      const v = this.#views.view(id);
      if (!this.#sentImage.has(id) || v?.kind !== 'shown') continue;
      this.#sendState(v);
      this.#send(this.topics.image(id), v.frame.png);
      this.#sendDiagnostics(v);
    }
    this.#devices?.resendAll();
    this.#people?.resendAll();
  }

  /** No state before the first Recommendation: the contract is "the Recommendation plus …". */
  #sendState(v: ShownView): void {
    if (v.rec)
      this.#send(
        this.topics.state(v.display.id),
        statePayload(v.rec, v.nextUpdateAt, v.status, this.#o.timezone, v.staleSince, {
          people: v.people,
          held: v.held ?? null,
        }),
      );
  }

  #sendDiagnostics(v: DisplayView | null): void {
    if (v?.kind !== 'shown') return;
    let budget: BudgetStatus | null = null;
    try {
      budget = this.#views.budget();
    } catch (err) {
      this.#log.warn({ code: 'W_BUDGET_STATUS_UNAVAILABLE', err }, 'budget status unavailable');
    }
    const extra = {
      problems: v.problems,
      staleSince: v.staleSince,
      refreshRefused: v.refreshRefused,
      refreshUnavailable: this.#o.refreshUnavailable ?? null,
      panel: v.panel,
    };
    this.#send(this.topics.diagnostics(v.display.id), diagnosticsPayload(v.status, budget, this.#o.timezone, extra));
  }

  #send(topic: string, payload: string | Buffer): void {
    this.#conn?.publish(topic, payload, { retain: true });
  }

  #onMessage(topic: string, payload: Buffer, packet: IPublishPacket): void {
    // Every topic subscribed to but the discovery configs is a command.
    if (isDiscovery(this.topics, topic)) {
      this.#discovery.removeIfStale(topic, payload, packet.retain);
      return;
    }
    if (this.#commands.oversized(topic, payload)) return;
    if (topic === this.topics.haStatus) {
      this.#commands.haStatus(payload);
      return;
    }
    if (this.#people?.handle(topic, payload, packet.retain) === true) return;
    // A presence topic: retained or live, every message counts (the household's presence, not a press).
    if (this.#o.presence?.handle(topic, payload) === true) return;
    this.#commands.handle(topic, payload, packet.retain);
  }
}
