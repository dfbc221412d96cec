import { once } from 'node:events';
import type { Server } from 'node:net';

/**
 * Starts `server` (an HTTP server or the broker's TCP server) on `host:port` and resolves with the bound port
 * (port 0: the OS chooses). Rejects with the listen error (EADDRINUSE, EACCES…): `events.once` rejects when
 * 'error' comes before 'listening'.
 */
export async function listen(server: Server, port: number, host: string): Promise<number> {
  server.listen(port, host);
  await once(server, 'listening');
  const bound = server.address();
  return typeof bound === 'object' && bound !== null ? bound.port : port;
}
