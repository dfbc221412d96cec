import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenEPaperLink access point for the tests: `POST /imgupload` (multipart/form-data), answering each upload
 * as the test scripts it (200, 409 "Come back later", 400 "mac not found", or a reset: the connection destroyed), as
 * ../shared/facts/openepaperlink.md describes the real one, and as a broken one would (500, an answer too slow, one
 * of hundreds of MB). Every upload is kept, parsed by this file's own reader.
 */

/**
 * `mac_unknown_200`: older firmware's answer to an unknown MAC, 200 "Error while saving: mac not found". `slow`: 200
 * after `slowMs`. `huge`: 200 "Ok, saved" and then `hugeBytes` in all, streamed (made as it is sent, never held).
 */
export type Answer = 200 | 409 | 500 | 'mac_unknown' | 'mac_unknown_200' | 'reset' | 'slow' | 'huge';

export interface Upload {
  fields: Record<string, string>;
  file: Buffer;
  filename: string;
  contentType: string;
  answered: Answer;
}

/** The parts of a multipart/form-data body: name, filename (files only) and bytes. */
export function parseMultipart(
  body: Buffer,
  contentType: string,
): Array<{ name: string; filename: string | null; type: string | null; data: Buffer }> {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!m) throw new Error(`no boundary in ${contentType}`);
  const delim = Buffer.from(`--${m[1] ?? m[2]!}`);
  const out: Array<{ name: string; filename: string | null; type: string | null; data: Buffer }> = [];
  let at = body.indexOf(delim);
  while (at >= 0) {
    const start = at + delim.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delim, start);
    if (next < 0) throw new Error('unterminated multipart body');
    const part = body.subarray(start + 2, next - 2); // after CRLF, before CRLF--
    const split = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, split).toString('latin1');
    const name = /name="([^"]*)"/.exec(head)?.[1] ?? '';
    const filename = /filename="([^"]*)"/.exec(head)?.[1] ?? null;
    const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? null;
    out.push({ name, filename, type, data: part.subarray(split + 4) });
    at = next;
  }
  return out;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export interface FakeAp {
  url: string;
  uploads: Upload[];
  /** The answers to the next uploads, in order; 200 once they run out. */
  script: Answer[];
  /** MACs this access point does not know: always 400 "mac not found" (the script is not used for them). */
  unknown: Set<string>;
  /** How long a `slow` answer waits. */
  slowMs: number;
  /** How long a `huge` answer is, in bytes. */
  hugeBytes: number;
  /** Per `huge` answer, the bytes written when the connection closed (or the answer ended). */
  hugeSent: number[];
  close(): Promise<void>;
}

/** 200 with `total` bytes, written chunk by chunk as the socket drains: the server holds one 64 KiB chunk at most. */
function streamHuge(res: ServerResponse, total: number, done: (sent: number) => void): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  chunk.write('Ok, saved\n');
  let sent = 0;
  res.once('close', () => done(sent));
  res.writeHead(200, { 'content-type': 'text/plain' });
  const pump = (): void => {
    while (sent < total && !res.destroyed) {
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
    }
    if (sent >= total) res.end();
  };
  pump();
}

export async function startFakeAp(): Promise<FakeAp> {
  const uploads: Upload[] = [];
  const script: Answer[] = [];
  const unknown = new Set<string>();
  const ap = { slowMs: 5_000, hugeBytes: 300 * 1024 * 1024, hugeSent: [] as number[] };
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || req.url !== '/imgupload') return void res.writeHead(404).end('not found');
      const body = await bodyOf(req);
      const parts = parseMultipart(body, req.headers['content-type'] ?? '');
      const file = parts.find((p) => p.filename !== null);
      const fields = Object.fromEntries(
        parts.filter((p) => p.filename === null).map((p) => [p.name, p.data.toString('utf8')]),
      );
      const answer: Answer = unknown.has(fields.mac ?? '') ? 'mac_unknown' : (script.shift() ?? 200);
      uploads.push({
        fields,
        file: file?.data ?? Buffer.alloc(0),
        filename: file?.filename ?? '',
        contentType: file?.type ?? '',
        answered: answer,
      });
      if (answer === 'reset') return void req.socket.destroy();
      if (answer === 500) return void res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
      if (answer === 'huge') return streamHuge(res, ap.hugeBytes, (sent) => ap.hugeSent.push(sent));
      if (answer === 'slow') {
        const t = setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('Ok, saved'), ap.slowMs);
        return void res.once('close', () => clearTimeout(t));
      }
      if (answer === 409) return void res.writeHead(409, { 'content-type': 'text/plain' }).end('Come back later');
      if (answer === 'mac_unknown')
        return void res.writeHead(400, { 'content-type': 'text/plain' }).end('mac not found');
      if (answer === 'mac_unknown_200')
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end('Error while saving: mac not found');
      res.writeHead(200, { 'content-type': 'text/plain' }).end('Ok, saved');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(ap, {
    url: `http://127.0.0.1:${port}`,
    uploads,
    script,
    unknown,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
