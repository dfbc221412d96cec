import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen } from '../shared/http-listen.js';
import { sleep, systemClock, type Clock } from '../time/clock.js';
import type { BillingMode } from './billing.js';
import { parseBillingMode } from './billing.js';
import { CONTROL_PREFIX, handleControl } from './control.js';
import { DEMO_API_KEY, KeyStore } from './credits.js';
import type { Fault } from './faults.js';
import { FaultQueue } from './faults.js';
import { handleApi } from './handler.js';
import { sendError } from './http-io.js';
import { RateWindow } from './rate-window.js';
import type { SimRequestRecord, SimStats } from './stats.js';
import { RequestLog } from './stats.js';

/** The simulated outfit service (spec outfit-api-v1) over node:http: the demo's service and the tests' counterpart. */

export { DEMO_API_KEY };

export interface ServiceSimOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Default: { [DEMO_API_KEY]: { credits: 1_000_000 } }. */
  keys?: Record<string, { credits: number }>;
  /** Requests per key in any sliding 60-second window; default 60. */
  ratePerMinute?: number;
  /** Which requests are billed (billing.ts); default 'success': only a good answer. */
  billing?: BillingMode;
  /** The service's time (answers, the rate window, the 'slow' fault's delay); default systemClock. */
  clock?: Clock;
  /** Injected delay for the 'slow' fault; default a sleep on `clock` that close() cuts short. */
  sleep?: (ms: number) => Promise<void>;
}

export interface RunningServiceSim {
  /** Base URL ending with /v1, e.g. http://127.0.0.1:40123/v1. */
  url: string;
  port: number;
  /** Queues a fault (validated: throws on an invalid one). */
  injectFault(f: Fault): void;
  clearFaults(): void;
  stats(): SimStats;
  /** Changes the billing mode from the next request on (validated: throws on an unknown mode). */
  setBilling(mode: BillingMode): void;
  setCredits(key: string, credits: number): void;
  revokeKey(key: string): void;
  /** Closes the server and its open (keep-alive) sockets at once; resolves when it is closed. */
  close(): Promise<void>;
}

export async function startServiceSim(opts: ServiceSimOptions = {}): Promise<RunningServiceSim> {
  const host = opts.host ?? '127.0.0.1';
  const clock = opts.clock ?? systemClock;
  // close() aborts it: a pending 'slow' request then goes on at once and never holds the process open.
  const closeAbort = new AbortController();
  const slowSleep = (ms: number): Promise<void> => sleep(clock, ms, closeAbort.signal).catch(() => undefined);
  const keys = new KeyStore(opts.keys ?? { [DEMO_API_KEY]: { credits: 1_000_000 } });
  const rate = new RateWindow({ limit: opts.ratePerMinute ?? 60, clock });
  const faults = new FaultQueue();
  const log = new RequestLog();
  let billing = parseBillingMode(opts.billing ?? 'success');
  let closed = false;

  const stats = (): SimStats => ({
    billing,
    creditsBilled: Object.values(log.billedByKey()).reduce((a, b) => a + b, 0),
    creditsBilledByKey: log.billedByKey(),
    requests: log.list(),
    creditsLeft: keys.creditsByFingerprint(),
    revoked: keys.revokedFingerprints(),
    pendingFaults: faults.pending(),
  });
  const setBilling = (mode: BillingMode): void => {
    billing = parseBillingMode(mode);
  };
  const apiContext = {
    keys,
    billing: () => billing,
    rate,
    faults,
    clock,
    sleep: opts.sleep ?? slowSleep,
    isClosed: () => closed,
  };

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://service-sim.invalid');
    if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
      await handleControl({ faults, stats, setBilling }, req, res, url);
      return;
    }
    const rec: SimRequestRecord = {
      time: clock.now(),
      method: req.method ?? 'GET',
      path: url.pathname,
      keyFingerprint: null,
      status: null,
      creditsCharged: 0,
    };
    try {
      await handleApi(apiContext, req, res, url, rec);
    } finally {
      if (res.writableEnded === false) rec.status = null;
      log.add(rec);
    }
  }

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      if (closed || res.destroyed) return;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendError(
        res,
        500,
        `internal error in the simulated service: ${err instanceof Error ? err.message : String(err)}`,
      );
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  const port = await listen(server, opts.port ?? 0, host);
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}/v1`,
    port,
    injectFault: (f) => faults.add(f),
    clearFaults: () => {
      faults.clear();
    },
    stats,
    setBilling,
    setCredits: (key, credits) => keys.setCredits(key, credits),
    revokeKey: (key) => keys.revoke(key),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        closed = true;
        server.close(() => resolve());
        server.closeAllConnections();
        closeAbort.abort();
      });
      return closing;
    },
  };
}
