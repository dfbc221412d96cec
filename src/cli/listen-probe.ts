import { createServer } from 'node:net';
import { clientHost, listen, ListenError, parseListen } from '../shared/http-listen.js';

/**
 * `check-config`'s trial of `http.listen`: what `run` would do with it (resolve the name, bind the address), then
 * let go at once. A name that does not resolve, an address not on this machine or a port taken by another program is
 * the ListenError `run` would fail with. A port held by an outfit-display frame server (the daemon already running,
 * checked before a restart or a reload) is no problem: it answers /healthz as only this daemon does.
 */
export async function listenProblem(spec: string): Promise<ListenError | null> {
  const { host, port } = parseListen(spec);
  const server = createServer();
  try {
    await listen(server, port, host);
    return null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' && (await isFrameServer(host, port))) return null;
    return new ListenError({ key: 'http.listen', host, port, cause: err });
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
