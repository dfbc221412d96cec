import path from 'node:path';
import type { Config } from '../config/schema.js';

/**
 * The few lines `run` prints first when a person watches it (the log's readable form, on a terminal): where the
 * frames land, the status page's address and the MQTT broker's, read from the config before anything starts, so that
 * they come before the log rather than among its lines. The journal never gets them: under systemd or through a pipe
 * the log is JSON and stdout holds nothing else.
 */

/** The embedded broker's address when the config names none (embedded-broker.ts falls back from it when taken). */
const EMBEDDED_DEFAULT_LISTEN = '127.0.0.1:1883';

/** `host:port` as a URL's host: the wildcard addresses as their loopback, an IPv6 address in brackets. */
function reachableHost(listen: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]*)\]|([^:\s]+)):(\d{1,5})$/.exec(listen);
  const raw = m ? (m[1] ?? m[2]!) : listen;
  const host = raw === '0.0.0.0' || raw === '' ? '127.0.0.1' : raw === '::' ? '::1' : raw;
  return { host: host.includes(':') ? `[${host}]` : host, port: m ? Number(m[3]) : 0 };
}

/** A folder or file as the reader would type it: relative to `cwd` when it lies under it. */
function shown(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

function statusPage(listen: string): string {
  const { host, port } = reachableHost(listen);
  if (port === 0) return `on a free port of ${host}: the log's "HTTP frame server listening" line names it`;
  return `http://${host}:${port}/`;
}

function broker(mqtt: NonNullable<Config['mqtt']>): string {
  if (mqtt.url !== 'embedded') {
    // Scheme, host and port only: a login in the URL stays out of the terminal.
    const u = new URL(mqtt.url);
    return `${u.protocol}//${u.host}`;
  }
  const listen = mqtt.embedded?.listen;
  const { host, port } = reachableHost(listen ?? EMBEDDED_DEFAULT_LISTEN);
  const url = `mqtt://${host}:${port}`;
  if (port === 0) return `inside the daemon, on a free port of ${host}: the log names it`;
  if (listen !== undefined) return `${url}, inside the daemon`;
  return `${url}, inside the daemon (another free port if that one is taken: the log says which)`;
}

/** The lines, each ending in a newline: the frame files, then the status page and the broker when configured. */
export function whereToLook(config: Config, cwd: string = process.cwd()): string {
  const frames = config.displays.map((d) => shown(path.join(config.output_dir, `${d.id}.png`), cwd));
  const rows: [string, string][] = [[frames.length === 1 ? 'frame' : 'frames', frames.join(', ')]];
  if (config.http) rows.push(['status page', statusPage(config.http.listen)]);
  if (config.mqtt) rows.push(['MQTT broker', broker(config.mqtt)]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${`${k}:`.padEnd(width + 2)}${v}\n`).join('');
}
