import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import AgentFile from 'undici/lib/dispatcher/agent.js';
import requestFile from 'undici/lib/api/api-request.js';

/**
 * undici's Agent and its request(), taken from their own files rather than from undici's index: the index also
 * loads fetch, WebSocket, EventSource, the HTTP caches and the mocks (about 80 more modules, and Node's web streams
 * with them), none of which the client uses, and all of which an idle daemon would hold (docs/performance.md). The files are
 * those of the version package.json pins; their types are undici's own (undici-files.d.ts), and every test of the
 * client (test/api/) goes through them.
 */

export const Agent: typeof UndiciAgent = AgentFile;

/** What request() takes: undici's request options with the dispatcher, the URL given apart. */
export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher };

/** undici's `request(url, opts)`: the URL split into origin and path as undici's index does it. */
export function request(url: string, opts: RequestOptions): Promise<Dispatcher.ResponseData> {
  const u = new URL(url);
  const { dispatcher, ...rest } = opts;
  return requestFile.call(dispatcher, { ...rest, origin: u.origin, path: u.search ? `${u.pathname}${u.search}` : u.pathname });
}
