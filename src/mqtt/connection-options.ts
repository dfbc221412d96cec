import { readFileSync } from 'node:fs';
import type { IClientOptions } from 'mqtt';
import type { Logger } from 'pino';
import type { BackoffPolicy } from '../time/backoff-delay.js';
import type { Clock } from '../time/clock.js';

/** What an MQTT connection (connection.ts) is made from, and the mqtt.js options and log form derived from it. */

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
  /** The reconnects' backoff (src/time/backoff-delay.ts, with jitter). Default RECONNECT_BACKOFF. */
  backoff?: BackoffPolicy;
  /** Topics kept while disconnected; beyond it the oldest is dropped. Default 500. */
  maxOutboxTopics?: number;
  /** How long the CONNACK may take (mqtt.js's connectTimeout). Default CONNECT_TIMEOUT_MS. */
  connectTimeoutMs?: number;
  /**
   * How long the SUBACK of a connect's subscriptions may take; then the connection is dropped (W_MQTT_SUBACK_TIMEOUT)
   * and made again with the backoff. Default SUBACK_TIMEOUT_MS.
   */
  subackTimeoutMs?: number;
  /**
   * Largest packet taken from the broker, in bytes; a message over it is skipped unread (W_MQTT_MESSAGE_TOO_LARGE).
   * Default MAX_INCOMING_PACKET_BYTES.
   */
  maxIncomingBytes?: number;
  keepaliveS?: number;
  random?: () => number;
  /** Timers of the reconnects and of the SUBACK wait; default systemClock. */
  clock?: Clock;
}

/** How long a broker may take to answer CONNECT (its CONNACK), and as long to answer the subscriptions (SUBACK). */
const CONNECT_TIMEOUT_MS = 10_000;
export const SUBACK_TIMEOUT_MS = 10_000;

/**
 * The largest packet the daemon takes from a broker. The largest messages it subscribes to are Home Assistant's
 * device discovery configs (homeassistant/device/+/config, ours and other devices'): JSON of a few KB, tens of KB for
 * a device with very many entities. A press or a status is a few bytes. Anything over this is no message the daemon
 * can use, and would otherwise be held whole in memory (incoming-limit.ts).
 */
export const MAX_INCOMING_PACKET_BYTES = 256 * 1024;

/** The URL without user:password, for logs. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/)[^@/]*@/i, '$1');
}

/** Between reconnects: 1 s, 2 s, 4 s ... at most 60 s (before jitter). */
export const RECONNECT_BACKOFF: BackoffPolicy = { baseMs: 1000, maxMs: 60_000 };

/** Builds mqtt.js options: no auto-reconnect (we back off ourselves), will, credentials, TLS material read from files. */
export function clientOptions(opts: MqttConnectionOptions): IClientOptions {
  const o: IClientOptions = {
    clientId: opts.clientId,
    protocolVersion: 4,
    clean: true,
    keepalive: opts.keepaliveS ?? 30,
    connectTimeout: opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    reconnectPeriod: 0,
    resubscribe: false,
    queueQoSZero: false,
    will: { topic: opts.statusTopic, payload: Buffer.from('offline'), qos: 1, retain: true },
  };
  if (opts.username) o.username = opts.username;
  if (opts.password != null) {
    if (opts.username) o.password = opts.password;
    else
      opts.logger.warn(
        { code: 'W_MQTT_PASSWORD_UNUSED' },
        'an MQTT password is set but mqtt.username is empty; the password is not sent',
      );
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
