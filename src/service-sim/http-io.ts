import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { readBody as readLimited, sendJson as sendJsonBody, type ReadBody } from '../shared/http-respond.js';

/** Low-level HTTP reading and writing for the simulated service: CORS on every response, JSON bodies. */

const MAX_BODY_BYTES = 1024 * 1024;

/** On every response: any origin may call, and browsers may read the rate-limit headers. */
const CORS_HEADERS: Readonly<OutgoingHttpHeaders> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After',
};

/** On preflight (OPTIONS) responses. */
export const PREFLIGHT_HEADERS: Readonly<OutgoingHttpHeaders> = {
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type',
  'Access-Control-Max-Age': '600',
};

export type { ReadBody };

/** The whole request body, up to the simulated service's limit. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<ReadBody> {
  return readLimited(req, limit);
}

/** True when nothing can be written any more (the client went away or the socket was destroyed). */
export function gone(res: ServerResponse): boolean {
  return res.destroyed || res.socket === null || res.socket.destroyed;
}

export function sendText(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
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

/**
 * A body of any size from `chunks`, written as the client reads it (chunked, no length): a client that stops reading
 * and closes ends the writing, with no error.
 */
export async function sendStream(
  res: ServerResponse,
  status: number,
  chunks: Iterable<Buffer>,
  contentType: string,
  headers: OutgoingHttpHeaders = {},
): Promise<void> {
  if (gone(res)) return;
  res.writeHead(status, { ...CORS_HEADERS, ...headers, 'Content-Type': contentType });
  for (const chunk of chunks) {
    if (gone(res)) return;
    if (!res.write(chunk)) await drainOrClose(res);
  }
  if (!gone(res)) res.end();
}

/** Resolves when `res` can take more, or has closed. */
function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: OutgoingHttpHeaders = {}): void {
  if (gone(res)) return;
  sendJsonBody(res.req, res, status, value, { ...CORS_HEADERS, ...headers } as Record<string, string | number>);
}

export function sendError(res: ServerResponse, status: number, error: string, headers: OutgoingHttpHeaders = {}): void {
  sendJson(res, status, { error }, headers);
}
