import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { readAtMost } from '../shared/read-at-most.js';
import type { Clock } from '../time/clock.js';

/**
 * One POST to the webhook: the body as JSON, the owner's headers, a deadline on the clock for the whole exchange
 * (the answer included). Of the answer only the status counts; at most ANSWER_LIMIT_BYTES of its body are read, the
 * rest left unread (the connection closed), whatever the receiver sends.
 */

/** The most of an answer read: a receiver says a few words, if anything. */
export const ANSWER_LIMIT_BYTES = 64 * 1024;

export type PostResult =
  /** A 2xx. */
  | { kind: 'taken'; status: number }
  /** Any other status: `retry` for 408, 429 and 5xx (the receiver may take it later), not for another 4xx. */
  | { kind: 'refused'; status: number; retry: boolean }
  /** No answer: refused, reset, timed out. `detail` is the system's code or "no answer in N s", never the URL. */
  | { kind: 'failed'; detail: string };

export interface PostOptions {
  url: URL;
  headers: Readonly<Record<string, string>>;
  body: Buffer;
  timeoutMs: number;
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  /** Aborts the POST (the publisher stopping). */
  signal?: AbortSignal;
}

export async function postJson(o: PostOptions): Promise<PostResult> {
  const abort = new AbortController();
  let timedOut = false;
  const timer = o.clock.setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, o.timeoutMs);
  const stop = (): void => abort.abort();
  o.signal?.addEventListener('abort', stop);
  try {
    const res = await send(o, abort.signal);
    await readAtMost(res, ANSWER_LIMIT_BYTES);
    res.destroy();
    const status = res.statusCode ?? 0;
    if (status >= 200 && status < 300) return { kind: 'taken', status };
    return { kind: 'refused', status, retry: status === 408 || status === 429 || status >= 500 };
  } catch (err) {
    if (timedOut) return { kind: 'failed', detail: `no answer in ${Math.round(o.timeoutMs / 1000)} s` };
    return { kind: 'failed', detail: (err as NodeJS.ErrnoException).code ?? (err as Error).name };
  } finally {
    o.clock.clearTimeout(timer);
    o.signal?.removeEventListener('abort', stop);
  }
}

function send(o: PostOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const request = o.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(o.url, {
      method: 'POST',
      headers: { ...o.headers, 'content-type': 'application/json', 'content-length': String(o.body.length) },
      signal,
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end(o.body);
  });
}
