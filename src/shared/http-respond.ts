import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Reading request bodies and writing responses, for every HTTP server here (the frame server, the TRMNL API and the
 * simulated service): JSON, text, conditional GETs (ETag / Last-Modified).
 */

const BASE_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: Buffer | string,
  headers: Record<string, string | number>,
): void {
  const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, { ...BASE_HEADERS, ...headers, 'Content-Length': buf.length });
  res.end(req.method === 'HEAD' ? undefined : buf);
}

export function sendJson(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string | number> = {},
): void {
  send(req, res, status, `${JSON.stringify(value)}\n`, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    ...headers,
  });
}

export function sendText(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string | number> = {},
): void {
  send(req, res, status, `${text}\n`, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    ...headers,
  });
}

export function methodNotAllowed(req: IncomingMessage, res: ServerResponse, allow: string[]): void {
  sendText(req, res, 405, `method ${req.method ?? ''} not allowed; use ${allow.join(', ')}`, {
    Allow: allow.join(', '),
  });
}

/** Whether an If-None-Match header matches `etag` (weak comparison, as RFC 9110 asks for GET/HEAD). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = (t: string): string => t.trim().replace(/^W\//, '');
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => bare(t) === bare(etag));
}

/** A Date at HTTP-date resolution (whole seconds). */
function seconds(d: Date): number {
  return Math.floor(d.getTime() / 1000);
}

export interface Representation {
  body: Buffer;
  contentType: string;
  etag: string;
  lastModified: Date;
  headers?: Record<string, string | number>;
}

/** A cacheable representation: 304 when the client's copy is current (If-None-Match first, else If-Modified-Since). */
export function sendConditional(req: IncomingMessage, res: ServerResponse, r: Representation): void {
  const headers: Record<string, string | number> = {
    ETag: r.etag,
    'Last-Modified': r.lastModified.toUTCString(),
    // Always revalidate: a frame changes when the daemon says so, not after a fixed age.
    'Cache-Control': 'no-cache',
    ...r.headers,
  };
  const inm = req.headers['if-none-match'];
  let fresh = false;
  if (inm !== undefined) {
    fresh = etagMatches(inm, r.etag);
  } else {
    const ims = req.headers['if-modified-since'];
    const since = ims === undefined ? NaN : Date.parse(ims);
    fresh = Number.isFinite(since) && seconds(r.lastModified) <= Math.floor(since / 1000);
  }
  if (fresh) {
    res.writeHead(304, { ...BASE_HEADERS, ...headers });
    res.end();
    return;
  }
  send(req, res, 200, r.body, { ...headers, 'Content-Type': r.contentType });
}

export type ReadBody = { ok: true; text: string } | { ok: false; tooLarge: true };

/**
 * Reads the whole request body as UTF-8. Past `limit` bytes the rest is drained and dropped (so a 413 can still be
 * answered on a kept-alive connection) and the result says `tooLarge`. Rejects when the client aborts mid-body.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<ReadBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.once('end', () => {
      resolve(
        size > limit ? { ok: false, tooLarge: true } : { ok: true, text: Buffer.concat(chunks).toString('utf8') },
      );
    });
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new Error('request aborted by the client'));
    });
  });
}
