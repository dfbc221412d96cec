import { createServer, type RequestListener, type Server } from 'node:http';
import { listen } from '../shared/http-listen.js';

/**
 * The listener around an HTTP app: `host:port` parsing, listen, and a close that never leaves a socket open
 * (idle keep-alive connections are closed at once, busy ones after their response).
 */

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

export interface RunningHttpServer {
  readonly server: Server;
  readonly host: string;
  readonly port: number;
  /** `http://host:port` as a client on this machine reaches it. */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts `app` on `host:port` (port 0: the OS chooses). */
export async function startHttpServer(app: RequestListener, addr: ListenAddress): Promise<RunningHttpServer> {
  const server = createServer({ keepAliveTimeout: 5_000, requestTimeout: 30_000, headersTimeout: 15_000 }, app);
  const port = await listen(server, addr.port, addr.host);
  let closing: Promise<void> | null = null;
  return {
    server,
    host: addr.host,
    port,
    url: `http://${clientHost(addr.host)}:${port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Whatever is still open after a grace period (a stuck client) is cut.
        const t = setTimeout(() => server.closeAllConnections(), 2_000);
        t.unref();
      });
      return closing;
    },
  };
}
