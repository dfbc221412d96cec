import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook's receiver on 127.0.0.1 for the tests: it keeps each POST (its path, headers and JSON body) and answers
 * by `script`, one answer a POST (200 once it runs out): a status, `hang` (no answer at all), or `huge` (a 200 whose
 * body of 50 MB is streamed until the client leaves).
 */

export type Answer = number | 'hang' | 'huge';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    display: string;
    status: string;
    state: { outfit?: string; stale: boolean };
    frame: { hash: string; width: number; height: number; content_type: string; png_base64: string };
  };
}

export interface Receiver {
  url: string;
  posts: Received[];
  script: Answer[];
  /** How much of the `huge` answer was written, and whether the client closed the connection. */
  huge: () => { sent: number; closed: boolean };
  close: () => Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const posts: Received[] = [];
  const script: Answer[] = [];
  let hugeBytesSent = 0;
  let hugeClosed = false;
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts.push({
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received['body'],
      });
      const answer = script.shift() ?? 200;
      if (answer === 'hang') return void hanging.push(res);
      if (answer === 'huge') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const pump = (): void => {
          while (!res.destroyed && hugeBytesSent < 50 * 1024 * 1024) {
            hugeBytesSent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => (hugeClosed = true));
        return pump();
      }
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    script,
    huge: () => ({ sent: hugeBytesSent, closed: hugeClosed }),
    close: async () => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
