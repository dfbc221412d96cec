import type { Logger } from 'pino';
import { OutfitClient } from './api/client.js';
import { systemClock, type Clock } from './budget/clock.js';
import { Governor } from './budget/governed-fetch.js';
import { Scheduler } from './budget/scheduler.js';
import type { LoadedConfig } from './config/load.js';
import { DisplayCycle, type CycleResult, type FetchReason } from './cycle.js';
import { FilePublisher } from './publish/files.js';
import type { Publisher } from './publish/publisher.js';
import { loadPanel } from './render/panels.js';
import { DEMO_API_KEY, startServiceSim, type RunningServiceSim } from './service-sim/server.js';
import { LastGoodStore } from './store/last-good.js';

export interface DaemonOptions {
  loaded: LoadedConfig;
  logger: Logger;
  clock?: Clock;
  /** Publishers beyond the files (tests add their own). */
  publishers?: Publisher[];
}

export interface Daemon {
  readonly cycles: ReadonlyMap<string, DisplayCycle>;
  readonly governor: Governor;
  /** The service's base address in use (the simulated service's when `base_url: simulated`). */
  readonly baseUrl: string;
  /** The daemon: publishes the last good frames, then runs every display on its schedule. */
  start(): Promise<void>;
  /** One cycle for each display (or one), in config order; no schedule. */
  runOnce(displayId?: string, reason?: FetchReason): Promise<Map<string, CycleResult>>;
  /** Refresh one display now, through the budget's refresh reserve; coalesced with a cycle in flight. */
  refresh(displayId: string): Promise<CycleResult | null>;
  /** Stops the schedule, aborts a cycle in flight, flushes state, stops publishers and the simulated service. */
  stop(): Promise<void>;
}

/** Builds the daemon from a loaded config. Nothing runs until start() or runOnce(). */
export async function buildDaemon(opts: DaemonOptions): Promise<Daemon> {
  const { loaded, logger } = opts;
  const { config, secrets } = loaded;
  const clock = opts.clock ?? systemClock;
  const abort = new AbortController();

  let sim: RunningServiceSim | null = null;
  let baseUrl = config.api.base_url;
  if (baseUrl === 'simulated') {
    sim = await startServiceSim({ host: '127.0.0.1', port: 0, now: () => clock.now() });
    baseUrl = sim.url;
    logger.child({ part: 'service-sim' }).info({ url: sim.url }, 'simulated outfit service started');
  }
  const client = new OutfitClient({
    baseUrl,
    apiKey: secrets.apiKey ?? DEMO_API_KEY,
    timeoutMs: config.api.timeout_s * 1000,
    connectTimeoutMs: config.api.connect_timeout_s * 1000,
    now: () => clock.now(),
  });

  const governor = new Governor({
    config,
    stateDir: config.state_dir,
    clock,
    logger: logger.child({ part: 'budget' }),
  });
  const publishers: Publisher[] = [new FilePublisher(config.output_dir), ...(opts.publishers ?? [])];
  const store = new LastGoodStore(config.state_dir);
  const cycles = new Map<string, DisplayCycle>();
  const inFlight = new Map<string, Promise<CycleResult>>();

  let scheduler: Scheduler | null = null;
  const cycleLogger = logger.child({ part: 'cycle' });
  for (const display of config.displays) {
    cycles.set(
      display.id,
      new DisplayCycle({
        display,
        panel: loadPanel(display.panel),
        timezone: config.timezone,
        store,
        fetch: (d, reason, last, signal) => governor.fetch(d, client, reason, last, signal),
        publishers,
        now: () => clock.now(),
        nextUpdateAt: () => scheduler?.nextRun(display.id) ?? null,
        logger: cycleLogger,
      }),
    );
  }

  /** Runs a cycle unless one of the same display is in flight, in which case the caller shares its result. */
  function runCoalesced(id: string, reason: FetchReason): Promise<CycleResult> {
    const running = inFlight.get(id);
    if (running) return running;
    const cycle = cycles.get(id);
    if (!cycle) return Promise.reject(new Error(`no display with id "${id}"`));
    const p = cycle.run(reason, abort.signal).finally(() => inFlight.delete(id));
    inFlight.set(id, p);
    return p;
  }

  let started = false;
  return {
    cycles,
    governor,
    baseUrl,
    async start() {
      await governor.load();
      await Promise.all(publishers.map((p) => p.start()));
      started = true;
      const restored = await Promise.all(
        [...cycles.values()].map(async (c) => [c.display.id, await c.restore()] as const),
      );
      scheduler = new Scheduler({
        config,
        clock,
        logger: logger.child({ part: 'scheduler' }),
        onTick: async (id) => {
          await runCoalesced(id, 'schedule');
        },
      });
      scheduler.start();
      // A display that has never shown an outfit gets one now rather than at its first tick.
      for (const [id, had] of restored) {
        if (!had) {
          runCoalesced(id, 'schedule').catch((err: unknown) => logger.error({ display: id, err }, 'first cycle failed'));
        }
      }
    },
    async runOnce(displayId, reason = 'once') {
      if (displayId !== undefined && !cycles.has(displayId)) throw new Error(`no display with id "${displayId}"`);
      if (!started) {
        await governor.load();
        await Promise.all(publishers.map((p) => p.start()));
        await Promise.all([...cycles.values()].map((c) => c.restore({ publish: false })));
        started = true;
      }
      const results = new Map<string, CycleResult>();
      for (const id of cycles.keys()) {
        if (displayId === undefined || id === displayId) results.set(id, await runCoalesced(id, reason));
      }
      return results;
    },
    async refresh(displayId) {
      if (!cycles.has(displayId)) return null;
      return runCoalesced(displayId, 'refresh');
    },
    async stop() {
      abort.abort();
      await scheduler?.stop();
      await Promise.allSettled([...inFlight.values()]);
      await governor.flush();
      await Promise.allSettled(publishers.map((p) => p.stop()));
      await client.close();
      await sim?.close();
    },
  };
}
