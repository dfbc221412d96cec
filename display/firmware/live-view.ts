import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startHttpServer } from '../../src/http/server.js';
import type { PanelProfile } from '../../src/panels/panels.js';
import { renderLivePage } from './live-page.js';
import type { TimelineLine } from './sim-output.js';

/**
 * `simulate --web`: a small server on 127.0.0.1 for the live view.
 *   GET /               the page (live-page.ts)
 *   GET /events         Server-Sent Events: `timeline` (everything so far) on connect, then one `wake` a wake
 *   GET /glass/<n>.png  the glass after wake n (the newest 64 are kept)
 *   GET /glass.png      the newest glass
 *   GET /timeline.json  every line so far
 */

export interface LiveViewOptions {
  host: string;
  /** 0 lets the OS choose. */
  port: number;
  title: string;
  panel: PanelProfile;
  width: number;
  height: number;
}

export interface LiveView {
  readonly url: string;
  push(line: TimelineLine, glassPng: Buffer): void;
  close(): Promise<void>;
}

const KEEP_GLASS = 64;
const KEEP_LINES = 500;

export async function startLiveView(o: LiveViewOptions): Promise<LiveView> {
  const lines: TimelineLine[] = [];
  const glass = new Map<number, Buffer>();
  const clients = new Set<ServerResponse>();

  function sse(res: ServerResponse, event: string, data: unknown): void {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  function png(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined): void {
    if (body === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('no such glass\n');
      return;
    }
    res.writeHead(200, {
      'Content-Type': 'image/png',
      'Content-Length': body.length,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  const server = await startHttpServer(
    (req, res) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD' });
        res.end();
        return;
      }
      if (path === '/') {
        const nonce = randomBytes(16).toString('base64');
        const html = renderLivePage({
          title: o.title,
          width: o.width,
          height: o.height,
          nonce,
          fullMs: o.panel.refresh.full_ms,
        });
        res.writeHead(200, {
          'Content-Type': 'text/html; charset=utf-8',
          'Cache-Control': 'no-store',
          'Content-Security-Policy': `default-src 'none'; img-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; base-uri 'none'; frame-ancestors 'none'`,
          'X-Content-Type-Options': 'nosniff',
        });
        res.end(req.method === 'HEAD' ? undefined : html);
        return;
      }
      if (path === '/events') {
        res.writeHead(200, {
          'Content-Type': 'text/event-stream',
          'Cache-Control': 'no-store',
          Connection: 'keep-alive',
        });
        res.write('retry: 1000\n\n');
        sse(res, 'timeline', lines.slice(-200));
        clients.add(res);
        const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
        req.on('close', () => {
          clearInterval(ping);
          clients.delete(res);
        });
        return;
      }
      if (path === '/favicon.ico') {
        res.writeHead(204);
        res.end();
        return;
      }
      if (path === '/glass.png')
        return png(req, res, lines.length === 0 ? undefined : glass.get(lines[lines.length - 1]!.n));
      const g = /^\/glass\/(\d+)\.png$/.exec(path);
      if (g) return png(req, res, glass.get(Number(g[1])));
      if (path === '/timeline.json') {
        const body = Buffer.from(JSON.stringify(lines));
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'Content-Length': body.length,
          'Cache-Control': 'no-store',
        });
        res.end(req.method === 'HEAD' ? undefined : body);
        return;
      }
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('not found\n');
    },
    { host: o.host, port: o.port },
  );

  return {
    url: server.url,
    push(line, glassPng) {
      lines.push(line);
      if (lines.length > KEEP_LINES) lines.shift();
      glass.set(line.n, glassPng);
      for (const n of glass.keys()) if (n <= line.n - KEEP_GLASS) glass.delete(n);
      for (const c of clients) sse(c, 'wake', line);
    },
    async close() {
      for (const c of clients) c.end();
      clients.clear();
      await server.close();
    },
  };
}
