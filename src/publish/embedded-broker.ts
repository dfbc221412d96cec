import { createServer, type Server, type Socket } from 'node:net';
import { Aedes } from 'aedes';
import type { Logger } from 'pino';

/**
 * The demo's broker (`mqtt.url: embedded`): aedes in this process, on 127.0.0.1 only, retained messages in memory.
 * Port 1883 (MQTT's own, so MQTT Explorer or mosquitto_sub find it without options); when 1883 is taken (say, by a
 * Mosquitto already running) it falls back to a free port chosen by the OS and logs the URL to use.
 */

export const EMBEDDED_DEFAULT_PORT = 1883;

export interface EmbeddedBroker {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export interface EmbeddedBrokerOptions {
  host?: string;
  /** Default 1883; 0 lets the OS choose. */
  port?: number;
  /** Default true: a taken port falls back to a free one. */
  fallbackToFreePort?: boolean;
  logger?: Logger;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = (): void => {
      server.off('error', onError);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr !== null ? addr.port : port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

export async function startEmbeddedBroker(opts: EmbeddedBrokerOptions = {}): Promise<EmbeddedBroker> {
  const host = opts.host ?? '127.0.0.1';
  const wanted = opts.port ?? EMBEDDED_DEFAULT_PORT;
  const broker = await Aedes.createBroker();
  const server = createServer((socket) => broker.handle(socket));
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
    opts.logger?.warn({ wanted, port }, `embedded MQTT broker: port ${wanted} is taken; using ${port} instead`);
  }
  const url = `mqtt://${host}:${port}`;
  opts.logger?.info({ url }, 'embedded MQTT broker started');
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  return {
    url,
    port,
    async close() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
