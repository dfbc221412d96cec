import { statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { Logger } from 'pino';
import { OutfitClient } from './api/client.js';
import { systemClock, type Clock } from './budget/clock.js';
import { Governor } from './budget/governed-fetch.js';
import { TIMESYNC_FLAG } from './budget/clock-guard.js';
import { CronTimes, longestGapMs } from './budget/cron-times.js';
import { resolveSchedules } from './budget/planner.js';
import { Scheduler } from './budget/scheduler.js';
import type { LoadedConfig } from './config/load.js';
import { DisplayCycle, type CycleResult, type FetchReason } from './cycle.js';
import { errorFields } from './logging.js';
import { FilePublisher } from './publish/files.js';
import { expireAfterFromGap } from './publish/ha-discovery.js';
import { HttpPublisher } from './publish/http-publisher.js';
import { MqttPublisher } from './publish/mqtt-publisher.js';
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
  /** Whether the schedule runs as it should (for the systemd watchdog). */
  healthy(): boolean;
  /** Stops the schedule, aborts a cycle in flight, flushes state, stops publishers and the simulated service. */
  stop(): Promise<void>;
}

const DAY_MS = 86_400_000;

/** The mtime of systemd-timesyncd's flag, which it touches at every synchronization; null without timesyncd. */
function timesyncStamp(): number | null {
  try {
    return statSync(TIMESYNC_FLAG).mtimeMs;
  } catch {
    return null;
  }
}

/** How long start() waits for the first frame of a display that has none yet, before it reports ready anyway. */
export const FIRST_FRAME_WAIT_MS = 30_000;

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
    syncStamp: () => timesyncStamp(),
  });
  const publishers: Publisher[] = [new FilePublisher(config.output_dir), ...(opts.publishers ?? [])];
  let refreshDisplay: (id: string) => Promise<CycleResult | null> = () => Promise.resolve(null);
  const trmnlDevices = config.trmnl?.devices ?? [];
  // Data counts as current (Home Assistant's expire_after, the HTTP health check) for twice the longest gap of the
  // schedule plus five minutes.
  const schedules = resolveSchedules(config, { now: clock.now() });
  const freshForS = new Map(
    config.displays.map((d) => {
      const gap = longestGapMs(new CronTimes(schedules.get(d.id) ?? d.schedule, config.timezone), clock.now(), 8 * DAY_MS);
      return [d.id, gap === null ? null : expireAfterFromGap(gap / 1000)] as const;
    }),
  );
  let mqttPublisher: MqttPublisher | null = null;
  if (config.mqtt) {
    const mqtt = config.mqtt;
    mqttPublisher = new MqttPublisher({
      mqtt,
      password: secrets.mqttPassword,
      displays: config.displays,
      timezone: config.timezone,
      logger,
      onRefresh: (id) => refreshDisplay(id),
      budgetStatus: () => governor.status(),
      nextUpdateAt: (id) => scheduler?.nextRun(id) ?? null,
      expireAfterS: (id) => freshForS.get(id) ?? null,
      haDiscovery: (id) => mqtt.discovery && (config.displays.find((d) => d.id === id)?.home_assistant ?? false),
      hasDevice: (id) => trmnlDevices.some((d) => d.display === id),
      ...(mqtt.client_id !== undefined && { clientId: mqtt.client_id }),
    });
    publishers.push(mqttPublisher);
  }
  if (config.http) {
    const http = config.http;
    publishers.push(
      new HttpPublisher({
        listen: http.listen,
        displays: config.displays,
        timezone: config.timezone,
        now: () => clock.now(),
        snapshot: (id) => cycles.get(id)?.snapshot() ?? null,
        nextUpdateAt: (id) => scheduler?.nextRun(id) ?? null,
        budget: () => governor.status(),
        budgetLimits: { perDay: config.budget.credits_per_day ?? null, perMonth: config.budget.credits_per_month ?? null },
        refresh: (id) => refreshDisplay(id),
        freshnessMs: (id) => {
          const fresh = freshForS.get(id);
          return fresh == null ? null : fresh * 1000;
        },
        trmnlDevices: trmnlDevices.map((d) => ({ mac: d.mac, display: d.display, format: d.format })),
        trmnlTokens: secrets.trmnlTokens,
        secrets: [secrets.apiKey, secrets.mqttPassword].filter((x): x is string => x !== null),
        publicUrl: http.public_url ?? null,
        onDeviceTelemetry: (id, t) => mqttPublisher?.publishTelemetry(id, t),
        logger: logger.child({ part: 'http' }),
      }),
    );
  }
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

  refreshDisplay = async (id) => (cycles.has(id) ? runCoalesced(id, 'refresh') : null);

  let started = false;
  let stopped: Promise<void> | null = null;
  /** Everything a cycle needs before the first one: the state folder, the ledger, the publishers. */
  async function prepare(): Promise<void> {
    await mkdir(config.state_dir, { recursive: true });
    await governor.load();
    await Promise.all(publishers.map((p) => p.start()));
    started = true;
  }

  return {
    cycles,
    governor,
    baseUrl,
    async start() {
      await prepare();
      const restored = await Promise.all(
        [...cycles.values()].map(async (c) => [c.display.id, await c.restore()] as const),
      );
      if (abort.signal.aborted) return;
      scheduler = new Scheduler({
        config,
        clock,
        logger: logger.child({ part: 'scheduler' }),
        onTick: async (id) => {
          await runCoalesced(id, 'schedule');
        },
      });
      scheduler.start();
      // A display that has never shown an outfit gets one now rather than at its first tick; start() waits for
      // those first frames (up to FIRST_FRAME_WAIT_MS), so that "started" means "something is on the wall".
      const first = restored
        .filter(([, had]) => !had)
        .map(([id]) =>
          runCoalesced(id, 'schedule').then(
            () => undefined,
            (err: unknown) => logger.error({ display: id, ...errorFields(err) }, 'first cycle failed'),
          ),
        );
      if (first.length > 0) {
        let timer: unknown = null;
        await Promise.race([
          Promise.all(first),
          new Promise<void>((resolve) => {
            timer = clock.setTimeout(resolve, FIRST_FRAME_WAIT_MS);
          }),
        ]);
        clock.clearTimeout(timer);
      }
    },
    healthy() {
      return scheduler?.healthy() ?? false;
    },
    async runOnce(displayId, reason = 'once') {
      if (displayId !== undefined && !cycles.has(displayId)) throw new Error(`no display with id "${displayId}"`);
      if (!started) {
        await prepare();
        await Promise.all([...cycles.values()].map((c) => c.restore({ publish: false })));
      }
      const results = new Map<string, CycleResult>();
      for (const id of cycles.keys()) {
        if (displayId === undefined || id === displayId) results.set(id, await runCoalesced(id, reason));
      }
      return results;
    },
    refresh(displayId) {
      return refreshDisplay(displayId);
    },
    stop() {
      stopped ??= stopAll();
      return stopped;
    },
  };

  async function stopAll(): Promise<void> {
    abort.abort();
    // Every step runs even when an earlier one fails: a stop must never leave a socket or server open.
    const steps: [string, () => Promise<unknown>][] = [
      ['scheduler', async () => scheduler?.stop()],
      ['cycles', () => Promise.allSettled([...inFlight.values()])],
      ['budget', () => governor.flush()],
      ['publishers', () => Promise.all(publishers.map((p) => p.stop()))],
      ['client', () => client.close()],
      ['service-sim', async () => sim?.close()],
    ];
    for (const [part, step] of steps) {
      try {
        await step();
      } catch (err) {
        logger.error({ part, ...errorFields(err) }, 'stop: a part failed to stop cleanly');
      }
    }
  }
}
