import { isIP } from 'node:net';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Logger } from 'pino';
import { z } from '../shared/zod.js';
import { addLogSecrets } from '../log/logging.js';
import type { WarningCode } from '../shared/codes.js';
import { readAtMost } from '../shared/read-at-most.js';
import type { LoadedConfig } from './load.js';
import { ConfigSchema } from './schema.js';

/**
 * Inside a Home Assistant add-on (SUPERVISOR_TOKEN set) and without an `mqtt` section: the MQTT broker the Supervisor
 * offers (the Mosquitto add-on, or any add-on that provides the mqtt service), with its login, so that the user types
 * nothing. The Supervisor's services API answers GET /services/mqtt with
 *   {"result": "ok", "data": {"host", "port", "ssl", "protocol", "username", "password", "addon"}}
 * and with 400 ("Service not enabled": no broker add-on), 403 (the add-on did not ask for the service) or 404.
 * Imported only when SUPERVISOR_TOKEN is set (daemon.ts), so nothing of this runs outside an add-on.
 */

/** The Supervisor's API as add-ons reach it (its DNS name on the add-on network). */
const SUPERVISOR_URL = 'http://supervisor';

/** How long the lookup may take before the daemon starts without MQTT. */
const SUPERVISOR_TIMEOUT_MS = 5_000;

/** The most of the Supervisor's answer read: its JSON is a few hundred bytes; the rest of a longer one is not read. */
export const SUPERVISOR_ANSWER_LIMIT_BYTES = 64 * 1024;

/** A host name or an IP address: nothing that could carry a path, a login or a second URL. */
const Host = z
  .string()
  .refine((h) => isIP(h) !== 0 || /^[A-Za-z0-9]([A-Za-z0-9._-]{0,252})$/.test(h), 'is not a host name or address');

const Answer = z.object({
  result: z.literal('ok'),
  data: z.object({
    host: Host,
    port: z.number().int().min(1).max(65535),
    ssl: z.boolean().optional(),
    protocol: z.string().optional(),
    username: z.string().optional(),
    password: z.string().optional(),
    addon: z.string().optional(),
  }),
});

export type SupervisorMqtt =
  | { kind: 'found'; url: string; username: string; password: string | null; addon: string | null }
  /** The Supervisor answered: it has no MQTT service for us (HTTP status, its message). */
  | { kind: 'none'; status: number; message: string }
  /** No answer, a server error, or an answer of another shape. */
  | { kind: 'unreachable'; reason: string };

export interface SupervisorLookupOptions {
  /** SUPERVISOR_TOKEN. */
  token: string;
  /** Default SUPERVISOR_URL; tests point it at a stand-in on 127.0.0.1. */
  baseUrl?: string;
  timeoutMs?: number;
}

/** The Supervisor's error text, at most 200 characters: it may say why ("Service not enabled"). */
function messageOf(body: unknown): string {
  const m = (body as { message?: unknown } | null)?.message;
  return typeof m === 'string' ? m.slice(0, 200) : '';
}

export async function lookupSupervisorMqtt(opts: SupervisorLookupOptions): Promise<SupervisorMqtt> {
  const url = `${(opts.baseUrl ?? SUPERVISOR_URL).replace(/\/+$/, '')}/services/mqtt`;
  let res: Response;
  let body: unknown = null;
  try {
    res = await fetch(url, {
      headers: { Authorization: `Bearer ${opts.token}`, Accept: 'application/json' },
      signal: AbortSignal.timeout(opts.timeoutMs ?? SUPERVISOR_TIMEOUT_MS),
      redirect: 'error',
    });
    // Node's fetch body is its web stream, async iterable (the global type does not say so); leaving it cancels it.
    const answer = await readAtMost(res.body as WebReadableStream<Uint8Array> | null, SUPERVISOR_ANSWER_LIMIT_BYTES);
    if (answer.over)
      return {
        kind: 'unreachable',
        reason: `${url}: HTTP ${res.status} with an answer over ${SUPERVISOR_ANSWER_LIMIT_BYTES / 1024} KiB (not read further)`,
      };
    try {
      body = JSON.parse(answer.bytes.toString('utf8')) as unknown;
    } catch {
      // Not JSON: its status still says what happened.
    }
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return { kind: 'unreachable', reason: `${url}: ${cause ?? (err as Error).name}` };
  }
  if (res.status === 400 || res.status === 403 || res.status === 404)
    return { kind: 'none', status: res.status, message: messageOf(body) };
  if (!res.ok) return { kind: 'unreachable', reason: `${url}: HTTP ${res.status}` };
  const parsed = Answer.safeParse(body);
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => i.path.join('.') || '(top level)').join(', ');
    return { kind: 'unreachable', reason: `${url}: an answer of another shape (${where})` };
  }
  const d = parsed.data.data;
  const host = isIP(d.host) === 6 ? `[${d.host}]` : d.host;
  return {
    kind: 'found',
    url: `${d.ssl === true ? 'mqtts' : 'mqtt'}://${host}:${d.port}`,
    username: d.username ?? '',
    password: d.password === undefined || d.password === '' ? null : d.password,
    addon: d.addon ?? null,
  };
}

const MqttSection = ConfigSchema.shape.mqtt.unwrap();

export interface SupervisorMqttOptions {
  token: string;
  logger: Logger;
  /** For tests only: the stand-in Supervisor's address. */
  baseUrl?: string;
}

/**
 * The loaded config with the Supervisor's broker as its `mqtt` section (every other key at its default) and its
 * password among the secrets, so that every redactor knows it; the same config, with a warning, when there is none.
 */
export async function withSupervisorMqtt(loaded: LoadedConfig, opts: SupervisorMqttOptions): Promise<LoadedConfig> {
  const log = opts.logger.child({ part: 'supervisor' });
  // The Supervisor's token and the broker password it hands out are secrets the config file never had.
  addLogSecrets(opts.logger, [opts.token]);
  const found = await lookupSupervisorMqtt({
    token: opts.token,
    ...(opts.baseUrl !== undefined && { baseUrl: opts.baseUrl }),
  });
  if (found.kind === 'none') {
    log.warn(
      { code: 'W_MQTT_SERVICE_NONE' satisfies WarningCode, status: found.status, reason: found.message },
      'the Home Assistant Supervisor offers no MQTT broker (install the Mosquitto broker add-on, or set mqtt in outfit-display.yaml): running without MQTT',
    );
    return loaded;
  }
  if (found.kind === 'unreachable') {
    log.warn(
      { code: 'W_SUPERVISOR_UNREACHABLE' satisfies WarningCode, reason: found.reason },
      'cannot ask the Home Assistant Supervisor for its MQTT broker: running without MQTT',
    );
    return loaded;
  }
  addLogSecrets(opts.logger, [found.password]);
  const mqtt = MqttSection.parse({ url: found.url, username: found.username });
  log.info(
    { url: found.url, username: found.username, addon: found.addon },
    'MQTT broker from the Home Assistant Supervisor',
  );
  return {
    ...loaded,
    config: { ...loaded.config, mqtt },
    secrets: { ...loaded.secrets, mqttPassword: found.password },
  };
}
