import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** Low-level HTTP reading and writing for the simulated service: CORS on every response, JSON bodies. */

export const MAX_BODY_BYTES = 1024 * 1024;

/** On every response: any origin may call, and browsers may read the rate-limit headers. */
export const CORS_HEADERS: Readonly<OutgoingHttpHeaders> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After',
};

/** On preflight (OPTIONS) responses. */
export const PREFLIGHT_HEADERS: Readonly<OutgoingHttpHeaders> = {
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type',
  'Access-Control-Max-Age': '600',
};

export type ReadBody = { ok: true; text: string } | { ok: false; tooLarge: true };

/** Reads the whole request body (drains but drops it past `limit` bytes). Rejects when the client aborts. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<ReadBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => {
      resolve(size > limit ? { ok: false, tooLarge: true } : { ok: true, text: Buffer.concat(chunks).toString('utf8') });
    });
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('request aborted by the client'));
    });
  });
}

/** True when nothing can be written any more (the client went away or the socket was destroyed). */
export function gone(res: ServerResponse): boolean {
  return res.destroyed || res.socket === null || res.socket.destroyed;
}

export function sendText(
  res: ServerResponse,
  status: number,
  body: string,
  contentType: string | undefined,
  headers: OutgoingHttpHeaders = {},
): void {
  if (gone(res)) return;
  const all: OutgoingHttpHeaders = { ...CORS_HEADERS, ...headers };
  if (contentType !== undefined) {
    all['Content-Type'] = contentType;
    all['Content-Length'] = Buffer.byteLength(body);
  }
  res.writeHead(status, all);
  res.end(contentType === undefined ? undefined : body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: OutgoingHttpHeaders = {}): void {
  sendText(res, status, JSON.stringify(value), 'application/json; charset=utf-8', headers);
}

export function sendError(res: ServerResponse, status: number, error: string, headers: OutgoingHttpHeaders = {}): void {
  sendJson(res, status, { error }, headers);
}
