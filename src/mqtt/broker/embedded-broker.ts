import { randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { Duplex, pipeline } from 'node:stream';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { Logger } from 'pino';
import type { MqttConfig } from '../../config/schema.js';
import { listen } from '../../shared/http-listen.js';
import { BrokerPolicy, DEFAULT_BROKER_LIMITS, type BrokerLimits, type BrokerRole, type Login } from './policy.js';
import { BrokerRefusal, type BrokerRefusalCode } from './refusal.js';
import { SubscriptionLimit, type SubscriptionRefusal } from './subscription-limit.js';
import { MqttFrameLimit } from '../frame-limit.js';
import { mqttTopics, type MqttTopics } from '../topics.js';

/**
 * The broker of `mqtt.url: embedded`: aedes in this process, retained messages in memory. On 127.0.0.1:1883 unless
 * `mqtt.embedded.listen` says otherwise; the default port falls back to a free one (logged) when taken, say by a
 * Mosquitto already running. It guards the daemon's memory and topics: packet sizes are checked on the socket before
 * aedes buffers them (MqttFrameLimit), BrokerPolicy decides who may publish what, and SubscriptionLimit bounds what
 * other clients subscribe to. Every session is clean (nothing of a client is kept after its connection), so nothing
 * a guest leaves behind (subscriptions, queued messages) outlives its connection.
 */

const EMBEDDED_DEFAULT_PORT = 1883;

export interface EmbeddedBroker {
  /** The URL the daemon connects to (loopback when the broker listens on every address). */
  readonly url: string;
  readonly port: number;
  /** The daemon's login: made for this process only; never log it. */
  daemonLogin(): Login;
  /** Bytes of retained messages left by clients other than the daemon. */
  readonly guestRetainedBytes: number;
  /** Topic filters held by clients other than the daemon. */
  readonly guestSubscriptions: number;
  /** How often each refusal happened since the start (a code not refused yet is absent). */
  refusals(): Readonly<Partial<Record<BrokerRefusalCode, number>>>;
  close(): Promise<void>;
}

export interface EmbeddedBrokerOptions {
  /** Address to listen on; default 127.0.0.1. `0.0.0.0` or `::` let other machines (Home Assistant) connect. */
  host?: string;
  /** Default 1883; 0 lets the OS choose. */
  port?: number;
  /** Default true: a taken port falls back to a free one. */
  fallbackToFreePort?: boolean;
  /** The daemon's topics, which only the daemon may write; default base `outfit-display`, prefix `homeassistant`. */
  topics?: MqttTopics;
  /** When set, every client but the daemon must log in with it (Home Assistant); default: anonymous guests. */
  guestLogin?: Login | null;
  /** Default DEFAULT_BROKER_LIMITS. */
  limits?: Partial<BrokerLimits>;
  logger?: Logger;
}

/** The broker options from the `mqtt` config: `embedded.listen`, and `username` with the MQTT password as the guests' login. */
export function embeddedBrokerOptions(
  mqtt: MqttConfig,
  password: string | null,
  topics: MqttTopics,
  logger: Logger,
  port?: number,
): EmbeddedBrokerOptions {
  if (mqtt.username !== '' && password === null) {
    const err = new Error(
      'mqtt.username: the embedded broker needs a password for this login (mqtt.password_file, OUTFIT_MQTT_PASSWORD or the credential mqtt-password)',
    );
    throw Object.assign(err, { code: 'E_CONFIG' });
  }
  const listen = mqtt.embedded?.listen;
  const m = listen === undefined ? null : /^(?:\[([^\]]*)\]|([^:\s]+)):(\d{1,5})$/.exec(listen);
  return {
    ...(m && { host: m[1] ?? m[2], port: Number(m[3]), fallbackToFreePort: false }),
    ...(port !== undefined && { port }),
    topics,
    guestLogin: mqtt.username !== '' && password !== null ? { username: mqtt.username, password } : null,
    logger,
  };
}

/** Where the daemon itself connects: the wildcard addresses are reached through loopback. */
function clientUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `mqtt://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

export async function startEmbeddedBroker(opts: EmbeddedBrokerOptions = {}): Promise<EmbeddedBroker> {
  const host = opts.host ?? '127.0.0.1';
  const wanted = opts.port ?? EMBEDDED_DEFAULT_PORT;
  const limits: BrokerLimits = { ...DEFAULT_BROKER_LIMITS, ...opts.limits };
  const log = opts.logger;
  if (opts.guestLogin && (!opts.guestLogin.username || !opts.guestLogin.password)) {
    throw new Error('embedded MQTT broker: a login for other clients needs both a username and a password');
  }
  const daemonLogin: Login = {
    username: `outfit-display-daemon-${randomBytes(4).toString('hex')}`,
    password: randomBytes(24).toString('base64url'),
  };
  const policy = new BrokerPolicy({
    daemonLogin,
    guestLogin: opts.guestLogin ?? null,
    topics: opts.topics ?? mqttTopics('outfit-display', 'homeassistant'),
    limits,
  });
  const refusals: Partial<Record<BrokerRefusalCode, number>> = {};
  const count = (code: BrokerRefusalCode): void => {
    refusals[code] = (refusals[code] ?? 0) + 1;
  };
  // aedes destroys the connection with the refusal, which reaches the socket's pipeline too: count it once.
  const counted = new WeakSet<BrokerRefusal>();
  const refuse = (r: BrokerRefusal): void => {
    if (counted.has(r)) return;
    counted.add(r);
    count(r.code);
    log?.warn({ err: r }, 'embedded MQTT broker refused a client');
  };
  const subscriptions = new SubscriptionLimit({
    perClient: limits.guestSubscriptionsPerClient,
    total: limits.guestSubscriptionsTotal,
    guaranteed: limits.guestSubscriptionsGuaranteed,
    filterBytes: limits.filterBytes,
    filterLevels: limits.filterLevels,
  });
  // A refused filter leaves the connection open, and a flood refuses thousands: the first of each code a connection
  // is logged, every one counted.
  const subscriptionRefusalsLogged = new WeakMap<Client, Set<BrokerRefusalCode>>();
  const refuseSubscription = (client: Client, r: SubscriptionRefusal): void => {
    const logged = subscriptionRefusalsLogged.get(client) ?? new Set<BrokerRefusalCode>();
    subscriptionRefusalsLogged.set(client, logged);
    if (logged.has(r.code)) {
      count(r.code);
      return;
    }
    logged.add(r.code);
    refuse(r.error());
  };
  const roles = new WeakMap<Client, BrokerRole>();
  const guards = new WeakMap<object, MqttFrameLimit>();
  const who = (client: Client | null): string => (client ? `"${client.id}"` : '(none)');

  const broker = await Aedes.createBroker({
    connectTimeout: 10_000,
    // QoS 2 messages held for a PUBREL are kept in memory; the daemon and Home Assistant use QoS 0 and 1.
    maxInflightInbound: 8,
    // No session outlives its connection: a guest's subscriptions and the messages queued for it while away would
    // otherwise stay in memory for every client id it ever used. Clients subscribe again on connect (Home Assistant,
    // ESPHome and Tasmota do; the CONNACK says no session is present).
    preConnect(_client, packet, done) {
      packet.clean = true;
      done(null, true);
    },
    authenticate(client, username, password, done) {
      const role = policy.authenticate(client.id, username, password);
      if (role instanceof BrokerRefusal) {
        refuse(role);
        done(role as unknown as AuthenticateError, false);
        return;
      }
      roles.set(client, role);
      guards.get(client.conn)?.open(policy.packetLimit(role));
      done(null, true);
    },
    authorizePublish(client, packet, done) {
      const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
      const role = client ? (roles.get(client) ?? null) : null;
      const refused = policy.authorizePublish(role, who(client), {
        topic: packet.topic,
        payload,
        retain: packet.retain,
      });
      if (refused) refuse(refused);
      done(refused);
    },
    authorizeSubscribe(client, sub, done) {
      if (client === null || roles.get(client) === 'daemon') {
        done(null, sub);
        return;
      }
      const refused = subscriptions.take(client, who(client), sub.topic);
      if (refused) refuseSubscription(client, refused);
      // null: the SUBACK's failure code (0x80) for this filter, which aedes then does not keep.
      done(null, refused ? null : sub);
    },
  });
  broker.on('unsubscribe', (filters, client) => subscriptions.drop(client, filters));

  // A net.Server has no closeAllConnections() (only http.Server has), so close() cuts the tracked sockets.
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    const peer = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    const guard = new MqttFrameLimit({ connectLimit: limits.connectBytes, peer });
    // Every error ends both: the socket is destroyed with the guard and the other way round.
    pipeline(socket, guard, (err) => {
      if (err instanceof BrokerRefusal) refuse(err);
    });
    const conn = Duplex.from({ readable: guard, writable: socket });
    guards.set(conn, guard);
    const client = broker.handle(conn);
    socket.once('close', () => subscriptions.release(client));
  });
  server.maxConnections = limits.maxConnections;
  let port: number;
  try {
    port = await listen(server, wanted, host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' || opts.fallbackToFreePort === false) {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      throw new Error(`embedded MQTT broker: cannot listen on ${host}:${wanted} (${code ?? (err as Error).message})`);
    }
    port = await listen(server, 0, host);
    log?.warn(
      { code: 'W_MQTT_PORT_TAKEN', wanted, port },
      `embedded MQTT broker: port ${wanted} is taken; using ${port} instead`,
    );
  }
  const url = clientUrl(host, port);
  if (!opts.guestLogin && !/^(127\.|::1$|localhost$)/.test(host)) {
    log?.warn(
      { code: 'W_MQTT_ANONYMOUS_NETWORK', listen: `${host}:${port}` },
      'W_MQTT_ANONYMOUS_NETWORK: the embedded MQTT broker listens beyond this machine without a login: set mqtt.username and the MQTT password',
    );
  }
  log?.info(
    { url, listen: `${host}:${port}`, login: opts.guestLogin ? 'required' : 'anonymous' },
    'embedded MQTT broker started',
  );
  return {
    url,
    port,
    daemonLogin: () => ({ ...daemonLogin }),
    get guestRetainedBytes() {
      return policy.guestRetainedBytes;
    },
    get guestSubscriptions() {
      return subscriptions.total;
    },
    refusals: () => ({ ...refusals }),
    async close() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
