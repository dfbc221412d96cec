import { once } from 'node:events';
import { createServer } from 'node:net';

// listen(0) hands out a port from the kernel's ephemeral range (32768–60999 on Linux), the same range every outbound
// connection takes its local port from; with hundreds of loopback connections a second, a port closed here was
// sometimes taken by a client before the daemon bound it (EADDRINUSE in CI). So ports come from below that range,
// in a block of its own for each vitest worker, in turn, and each is tried before it is handed out.
const FIRST = 20_000;
const BLOCK = 1_500;
const worker = Number(process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? 1);
const base = FIRST + (((Number.isInteger(worker) && worker > 0 ? worker : 1) - 1) % 8) * BLOCK;
let next = 0;

async function bindable(port: number): Promise<boolean> {
  const srv = createServer();
  srv.listen(port, '127.0.0.1');
  try {
    await Promise.race([once(srv, 'listening'), once(srv, 'error').then(([err]) => Promise.reject(err as Error))]);
  } catch {
    return false;
  }
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return true;
}

/** A TCP port on 127.0.0.1 that was free a moment ago, outside the ephemeral range and not handed out before by this worker. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < BLOCK; tries++) {
    const port = base + (next++ % BLOCK);
    if (await bindable(port)) return port;
  }
  throw new Error(`freePort: no free port in ${base}–${base + BLOCK - 1}`);
}
