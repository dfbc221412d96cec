import { createServer, type RequestListener, type Server } from 'node:http';
import { clientHost, listen, type ListenAddress } from '../shared/http-listen.js';

export { clientHost, parseListen, type ListenAddress } from '../shared/http-listen.js';

/**
 * The listener around an HTTP app: listen (`host:port` parsed by shared/http-listen.ts), and a close that never leaves
 * a socket open (idle keep-alive connections are closed at once, busy ones after their response).
 */

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
