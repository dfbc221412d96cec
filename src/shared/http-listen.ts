import { once } from 'node:events';
import type { Server } from 'node:net';
import type { ErrorCode } from './codes.js';

/**
 * Starts `server` (an HTTP server or the broker's TCP server) on `host:port` and resolves with the bound port
 * (port 0: the OS chooses). Rejects with the listen error (EADDRINUSE, EACCES…): `events.once` rejects when
 * 'error' comes before 'listening'.
 */
export async function listen(server: Server, port: number, host: string): Promise<number> {
  refuseInvalidName(host);
  server.listen(port, host);
  await once(server, 'listening');
  const bound = server.address();
  return typeof bound === 'object' && bound !== null ? bound.port : port;
}

/**
 * RFC 6761: a name under `.invalid` never resolves, and a resolver should say so without asking anyone. getaddrinfo
 * would ask the network's DNS server: refused here as the lookup would refuse it, with nothing sent.
 */
function refuseInvalidName(host: string): void {
  if (/(^|\.)invalid\.?$/i.test(host)) {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), {
      code: 'ENOTFOUND',
      syscall: 'getaddrinfo',
      hostname: host,
    });
  }
}

export interface ListenAddress {
  host: string;
  port: number;
}

/** `127.0.0.1:8321`, `[::1]:8321`, `0.0.0.0:80` → host and port. Throws on anything else. */
export function parseListen(listen: string): ListenAddress {
  const m = /^(\[[0-9a-fA-F:]+\]|[^:\s]+):(\d{1,5})$/.exec(listen);
  const port = m ? Number(m[2]) : NaN;
  if (!m || !(port >= 0 && port <= 65535)) throw new Error(`http.listen: "${listen}" is not host:port`);
  const host = m[1]!.startsWith('[') ? m[1]!.slice(1, -1) : m[1]!;
  return { host, port };
}

/** An address a client on this machine can use for a server bound to `host` (0.0.0.0 → 127.0.0.1). */
export function clientHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** Why `host:port` cannot be listened on, in words, with the OS code: `not an address of this machine (EADDRNOTAVAIL)`. */
function listenFailure(host: string, port: number, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
      return `"${host}" does not resolve to an address (${code})`;
    case 'EADDRINUSE':
      return `port ${port} is in use by another program (${code})`;
    case 'EADDRNOTAVAIL':
      return `${host} is not an address of this machine (${code})`;
    case 'EACCES':
      return `port ${port} may not be bound by this user (${code})`;
    default:
      return `the OS refused (${code})`;
  }
}

export interface ListenErrorOptions {
  /** The config key that names the address: `http.listen`. */
  key: string;
  host: string;
  port: number;
  /** The error of the listen. */
  cause: unknown;
}

/**
 * A server that cannot listen where the config says: `run` fails with it (exit 1: a port taken or a name not yet
 * resolvable at boot may be free or resolve at the next start), `check-config` reports the same text as a config
 * problem.
 */
export class ListenError extends Error {
  readonly code = 'E_HTTP_LISTEN' satisfies ErrorCode;
  readonly key: string;
  /** The problem without the key: `cannot listen on …: … (E_HTTP_LISTEN)`. */
  readonly problem: string;
  constructor(opts: ListenErrorOptions) {
    const problem = `cannot listen on ${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${opts.port}: ${listenFailure(opts.host, opts.port, opts.cause)} (E_HTTP_LISTEN)`;
    super(`${opts.key}: ${problem}`, { cause: opts.cause });
    this.name = 'ListenError';
    this.key = opts.key;
    this.problem = problem;
  }
}
