import { createServer } from 'node:net';
import { clientHost, listen, ListenError, parseListen } from '../shared/http-listen.js';

/** Why `http.listen` cannot be bound, and whether what holds the port answers as an outfit-display. */
export interface ListenProblem {
  /** What `run` would fail with, word for word. */
  error: ListenError;
  /** The port is taken by an outfit-display's frame server (its /healthz answers): a daemon that runs. */
  heldByOutfitDisplay: boolean;
}

/**
 * `check-config`'s trial of `http.listen`: what `run` would do with it (resolve the name, bind the address), then
 * let go at once. A name that does not resolve, an address not on this machine or a port taken, whoever holds it, is
 * the ListenError `run` would fail with. That includes an outfit-display: another daemon on the same port, or this
 * config's own daemon running, beside which `run` cannot start either; the caller says which it looks like.
 */
export async function listenProblem(spec: string): Promise<ListenProblem | null> {
  const { host, port } = parseListen(spec);
  const server = createServer();
  try {
    await listen(server, port, host);
    return null;
  } catch (err) {
    const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
    return {
      error: new ListenError({ key: 'http.listen', host, port, cause: err }),
      heldByOutfitDisplay: inUse && (await isFrameServer(host, port)),
    };
  } finally {
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  }
}

/** Whether `host:port` answers GET /healthz with the daemon's shape ({ ok, reason, displays }). */
async function isFrameServer(host: string, port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://${clientHost(host)}:${port}/healthz`, { signal: AbortSignal.timeout(2_000) });
    const body = (await res.json()) as { ok?: unknown; reason?: unknown; displays?: unknown };
    return typeof body.ok === 'boolean' && typeof body.reason === 'string' && Array.isArray(body.displays);
  } catch {
    return false;
  }
}
