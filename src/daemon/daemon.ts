import { statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { Logger } from 'pino';
import { OutfitClient } from '../api/client.js';
import { ShapeWarnings } from '../api/shape-warnings.js';
import { systemClock, type Clock } from '../time/clock.js';
import { Governor } from '../budget/governor.js';
import { TIMESYNC_FLAG } from '../budget/clock-guard.js';
import { CronTimes } from '../budget/cron-times.js';
import { resolveSchedules } from '../budget/planner.js';
import { Scheduler } from '../budget/scheduler.js';
import type { LoadedConfig } from '../config/load.js';
import { secretValues } from '../config/secrets.js';
import type { FetchReason } from '../budget/governor-types.js';
import { DisplayCycle } from './cycle.js';
import type { CycleResult } from './cycle-result.js';
import { DisplayBook } from '../state/display-book.js';
import { DisplayRunner } from './display-runner.js';
import { DisplayViews, type DisplayViewSource } from '../state/display-views.js';
import { PanelStatusBook } from '../state/panel-status.js';
import { ProblemBook } from '../state/problems.js';
import { PUBLISHER_PROBLEM_SOURCES } from './publisher-registry.js';
import type { Publisher } from '../publish/publisher.js';
import type { HttpPublisher } from '../http/http-publisher.js';
import { buildPublishers } from './publishers.js';
import { RefreshGate } from './refresh-gate.js';
import { RunPort } from './run-port.js';
import { GlyphWarnings } from '../render/glyph-warnings.js';
import { displayRenderOptions, renderContext, type DrawFrame } from '../render/display-frame.js';
import type { RunningServiceSim } from '../service-sim/server.js';
import { LastGoodStore } from '../store/last-good.js';
import { PurchasePool } from '../budget/purchase-pool.js';
import { householdCycleOf, type HouseholdCycle } from './household-cycle.js';
import { WarmthBook } from '../household/warmth-book.js';
import { warmthFrames } from './warmth-frames.js';
import type { PersonShown } from '../household/person-shown.js';
import { personState } from '../state/state-json.js';
import { PresenceBook } from '../household/presence-book.js';
import { HouseholdGate } from '../household/household-gate.js';

export interface DaemonOptions {
  loaded: LoadedConfig;
  logger: Logger;
  clock?: Clock;
  /** Publishers beyond the files (tests add their own). */
  publishers?: Publisher[];
  /** Default process.env: SUPERVISOR_TOKEN there means a Home Assistant add-on (the broker from the Supervisor). */
  env?: NodeJS.ProcessEnv;
  /**
   * Draws every frame (the cycles' and the TRMNL images'): `run` passes a render process's (render-process.ts), so
   * that the daemon itself never loads canvas; default in this process. Its owner closes it.
   */
  draw?: DrawFrame;
  /** For tests only: the address of a stand-in for the Home Assistant Supervisor's API. */
  supervisorUrl?: string;
  /** For tests only: the outfit service's client, answered in process; default one built from the `api` section. */
  client?: OutfitClient;
  /** Who is at home (household/presence-book.ts); default everyone is (docs/guides/household.md). */
  presence?: Pick<PresenceBook, 'isHome'>;
  /** A person's warmth offset (°C) at `now` (the warmth book); default 0. */
  offsetOf?: (personId: string, now: number) => number;
  /** For tests only: imports node-libgpiod (an attached board's buttons) in place of Node's import. */
  importOptional?: (lib: string) => Promise<unknown>;
}

export interface Daemon {
  readonly cycles: ReadonlyMap<string, DisplayCycle>;
  readonly governor: Governor;
  /** Every display as the publishers show it (state.json, the status page, MQTT): read only. */
  readonly views: DisplayViewSource;
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
  /**
   * Resolves once no tick, cycle or redraw is under way: all the daemon does then is wait for its clock. A driver of
   * a virtual clock (src/time/virtual-clock.ts) waits for it before it moves the time, so that no timer runs while a
   * cycle that began before it is still buying or drawing (`simulate --day`).
   */
  idle(): Promise<void>;
  /** The HTTP frame server's address once started (with http.listen's port 0, the port the OS chose); else null. */
  httpUrl(): string | null;
  /** Stops the schedule, aborts a cycle in flight, flushes state, stops publishers and the simulated service. */
  stop(): Promise<void>;
}

/** The mtime of systemd-timesyncd's flag, which it touches at every synchronization; null without timesyncd. */
function timesyncStamp(): number | null {
  try {
    return statSync(TIMESYNC_FLAG).mtimeMs;
  } catch {
    return null;
  }
}

function latest(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.max(a, b);
}

/** How long start() waits for the first frame of a display that has none yet, before it reports ready anyway. */
const FIRST_FRAME_WAIT_MS = 30_000;
/**
 * How long start() waits for the people's retained presence before it makes up the downtime: the broker sends it just
 * after the subscriptions, within milliseconds; a presence topic that holds none is waited for this long, once.
 */
export const PRESENCE_SETTLE_MS = 3_000;

/** Builds the daemon from a loaded config. Nothing runs until start() or runOnce(). */
export async function buildDaemon(opts: DaemonOptions): Promise<Daemon> {
  const { logger } = opts;
  let loaded = opts.loaded;
  const supervisorToken = (opts.env ?? process.env).SUPERVISOR_TOKEN;
  if (loaded.config.mqtt === undefined && supervisorToken !== undefined && supervisorToken !== '') {
    // Only inside a Home Assistant add-on: imported then, so nothing of it loads elsewhere.
    const { withSupervisorMqtt } = await import('../config/supervisor-mqtt.js');
    loaded = await withSupervisorMqtt(loaded, {
      token: supervisorToken,
      logger,
      ...(opts.supervisorUrl !== undefined && { baseUrl: opts.supervisorUrl }),
    });
  }
  const { config, secrets } = loaded;
  const clock = opts.clock ?? systemClock;
  const abort = new AbortController();

  let sim: RunningServiceSim | null = null;
  let baseUrl = config.api.base_url;
  // The secrets loader leaves the key null only for `base_url: simulated`: the simulated service's demo key then.
  let apiKey = secrets.apiKey ?? '';
  if (baseUrl === 'simulated') {
    // Imported only here, so that a daemon against the real service never loads the simulated one.
    const { DEMO_API_KEY, startServiceSim } = await import('../service-sim/server.js');
    apiKey = secrets.apiKey ?? DEMO_API_KEY;
    // Its dates follow the daemon's clock; its delays ('slow' faults) take real time, as a real service's do.
    sim = await startServiceSim({ host: '127.0.0.1', port: 0, clock: { ...systemClock, now: () => clock.now() } });
    baseUrl = sim.url;
    logger.child({ part: 'service-sim' }).info({ url: sim.url }, 'simulated outfit service started');
  }
  // An answer we took although a field differed from the spec: said once per field per day (W_RESPONSE_SHAPE).
  const apiLogger = logger.child({ part: 'api' });
  const shapeWarnings = new ShapeWarnings({
    clock,
    timezone: config.timezone,
    warn: (w) => apiLogger.warn({ code: w.code, field: w.field, problem: w.problem }, w.text),
  });
  const client =
    opts.client ??
    new OutfitClient({
      onShapeNotes: (notes, where) => shapeWarnings.note(notes, where),
      baseUrl,
      apiKey,
      otherSecrets: secretValues(secrets),
      timeoutMs: config.api.timeout_s * 1000,
      paidTimeoutMs: config.api.response_timeout_s * 1000,
      connectTimeoutMs: config.api.connect_timeout_s * 1000,
      clock,
    });

  const governor = new Governor({
    config,
    stateDir: config.state_dir,
    client,
    clock,
    logger: logger.child({ part: 'budget' }),
    syncStamp: () => timesyncStamp(),
  });
  const refreshGate = new RefreshGate({ reserveCredits: config.budget.refresh_reserve_credits, clock });
  // The parts in the order they need each other. The cycles hand frames to the publishers, while the publishers' buttons
  // and the schedule's ticks ask for cycles: that loop is cut once, by the RunPort, bound to the runner below before
  // buildDaemon returns. Everything else is built after what it reads: the display book (the cycles' state) first, then the
  // scheduler (it reads when each display last had an answer), then the views every publisher shows (display book, schedule,
  // budget), then the publishers and the cycles.
  const displayBook = new DisplayBook({ clock });
  const runs = new RunPort();
  // The schedules that run: "auto" resolved, and over budget (paced) the densest that fit. Worked out once.
  const schedules = resolveSchedules(config, { now: clock.now() });
  // The household (docs/guides/household.md): who is at home (fed by MQTT's presence topics) and what that holds.
  const presence = new PresenceBook({ personIds: config.people.map((p) => p.id), clock });
  const watchedPeople = config.people.filter((p) => p.presence_topic !== undefined).map((p) => p.id);
  const gate = new HouseholdGate({ config, presence });
  const periodMs = new Map(
    config.displays.map((d) => [d.id, new CronTimes(schedules.get(d.id) ?? d.schedule, config.timezone).minGapMs()]),
  );
  const scheduler = new Scheduler({
    config,
    clock,
    schedules,
    logger: logger.child({ part: 'scheduler' }),
    // A catch-up tick skips a display whose answer is fresher than half its interval (no second purchase). The ledger's
    // record of the display's last paid slot counts too: a start whose last good file cannot be read back (too large,
    // corrupt, removed), or after a 2xx whose answer could not be used, does not buy the paid slot again.
    lastAnswerAt: (id) => latest(displayBook.lastAnswerAt(id), governor.lastPaidAt(id)),
    // The moment an answer goes stale is a matter of time, not of a cycle: the display is drawn again then.
    onStale: (id) => {
      runs.redraw(id).catch((err: unknown) => logger.error({ display: id, err }, 'redrawing a stale display failed'));
    },
    // A slot that got no answer (failed, deferred, held back) is tried again when the cycle says.
    onTick: async (id) => ({ retryAt: (await runs.run(id, 'schedule')).retryAt }),
    // No purchase in a display's quiet hours or while everyone it dresses is away; `auto` buys before departures.
    hold: (id, at) => gate.hold(id, at),
    extraTimes: (id) => gate.departureTimes(id),
  });
  // The first arrival after an absence longer than the schedule's period buys at once, as a tick does (budget, rate
  // limit and coalescing are the runner's and the governor's).
  const householdLog = logger.child({ part: 'household' });
  /** The household displays' cycles of their people (filled below with the displays' cycles). */
  const householdCycles = new Map<string, HouseholdCycle>();
  presence.onChange((change) => {
    householdLog.info({ person: change.personId, from: change.from, to: change.to }, 'presence changed');
    const lastAnswerAt = (id: string, personId: string): number | null => {
      const people = householdCycles.get(id);
      if (people === undefined) return latest(displayBook.lastAnswerAt(id), governor.lastPaidAt(id));
      const rec = people.people(clock.now()).find((p) => p.id === personId)?.rec ?? null;
      return rec === null ? null : Date.parse(rec.fetched_at);
    };
    const ctx = {
      periodMs: (d: string) => periodMs.get(d) ?? 0,
      lastAnswerAt,
      nextRunAt: (d: string) => scheduler.nextRun(d)?.getTime() ?? null,
    };
    for (const id of gate.arrivalPurchases(change, clock.now(), ctx)) {
      householdLog.info({ display: id, person: change.personId }, 'arrival after a long absence: buying now');
      runs
        .run(id, 'schedule')
        .catch((err: unknown) => householdLog.error({ display: id, err }, 'arrival cycle failed'));
    }
  });
  /**
   * A display's next update: its next tick or retry, but not before the budget lets it buy (a backoff, a 429). With
   * `retryAt`, as it will be once the cycle that is ending asks for a retry of its slot then.
   */
  const nextUpdateAt = (id: string, retryAt?: Date | null): Date | null => {
    const next = retryAt === undefined ? scheduler.nextRun(id) : scheduler.nextRunAfterRetry(id, retryAt);
    const display = config.displays.find((d) => d.id === id);
    const allowed = display === undefined ? null : governor.nextAllowedAt(display);
    const due = next === null || allowed === null || allowed <= next ? next : allowed;
    // Devices that pull sleep by it: while everyone the display dresses is away, at least an hour.
    return gate.sleepUntil(id, due, clock.now());
  };
  // The attached panels' last refresh and problem: written by the panel publisher, shown by the others.
  const panels = new PanelStatusBook();
  // The publishers' problems (a tag, a webhook): each publisher writes its own, every publisher shows them all.
  const problems = new ProblemBook();
  const views = new DisplayViews({
    panelStatus: (id) => panels.get(id),
    problems: (id) => problems.list(id),
    sources: PUBLISHER_PROBLEM_SOURCES,
    // A panel's refresh or a publisher's problem comes after its publish round: MQTT sends the diagnostics again.
    onChange: (listener) => {
      panels.onChange(listener);
      problems.onChange(listener);
    },
    displayBook,
    displays: config.displays,
    clock,
    nextUpdateAt,
    budget: () => governor.status(),
    held: (id) => gate.hold(id, clock.now())?.reason ?? null,
  });
  // Each person's warmth offset (config `people`): MQTT's buttons move it, each new frame of theirs lets them vote again.
  const warmth =
    config.people.length === 0
      ? null
      : new WarmthBook({ personIds: config.people.map((p) => p.id), stateDir: config.state_dir, clock, logger });
  /** What the newest frame of a display that dresses the person shows of them (the first such display's view). */
  const personShown = (personId: string): PersonShown | null => {
    for (const d of config.displays) {
      if (!d.people?.includes(personId)) continue;
      const v = views.view(d.id);
      const p = v?.people?.find((x) => x.id === personId);
      if (p === undefined) continue;
      const s = personState(p, config.timezone);
      return { outfit: s.outfit, garments: s.garments, additions: s.additions };
    }
    return null;
  };
  const built = await buildPublishers(loaded, {
    ...{ logger, clock, views, runs, refreshUnavailable: refreshGate.unavailableReason, schedules, panels, problems },
    ...(opts.draw !== undefined && { draw: opts.draw }),
    ...(warmth !== null && { household: { warmth, presence, shown: (id: string) => personShown(id) } }),
    presence,
    quietEnd: (id: string) => gate.quietEnd(id, clock.now()),
    ...(opts.importOptional !== undefined && { importOptional: opts.importOptional }),
  });
  const publishers: Publisher[] = [
    ...built,
    ...(opts.publishers ?? []),
    ...(warmth === null ? [] : [warmthFrames(warmth)]),
  ];
  const store = new LastGoodStore(config.state_dir);
  const cycleLogger = logger.child({ part: 'cycle' });
  const glyphWarnings = new GlyphWarnings(logger.child({ part: 'render' }));
  const cycles = new Map<string, DisplayCycle>();
  // Household displays (`people`): one purchase per distinct request, shared across displays (budget/purchase-pool.ts).
  const pool = new PurchasePool({ clock });
  for (const display of config.displays) {
    const household = householdCycleOf(display, {
      people: config.people,
      stateDir: config.state_dir,
      fetch: (d, reason, last, signal) => governor.fetch(d, reason, last, signal),
      pool,
      clock,
      logger: cycleLogger,
      // The presence book MQTT feeds, unless a test gives its own.
      presence: opts.presence ?? presence,
      // The warmth book's offsets unless a test gives its own.
      ...(opts.offsetOf !== undefined
        ? { offsetOf: opts.offsetOf }
        : warmth !== null && { offsetOf: (id: string, now: number) => warmth.offsetOf(id, now) }),
    });
    if (household !== undefined) householdCycles.set(display.id, household);
    const minGap = new CronTimes(schedules.get(display.id) ?? display.schedule, config.timezone).minGapMs();
    cycles.set(
      display.id,
      new DisplayCycle({
        display,
        render: displayRenderOptions(display, renderContext(loaded)),
        ...(opts.draw !== undefined && { draw: opts.draw }),
        store,
        fetch: (d, reason, last, signal) => governor.fetch(d, reason, last, signal),
        publishers,
        displayBook,
        views,
        clock,
        nextUpdateAt: (retryAt) => nextUpdateAt(display.id, retryAt),
        logger: cycleLogger,
        glyphWarnings,
        purchaseIntervalMs: Math.max(60_000, Number.isFinite(minGap) ? minGap : 0),
        sharedStoreProblem: () => governor.storeProblem,
        staleFrom: (servedAt) => scheduler.staleFrom(display.id, servedAt),
        lastBoughtAt: () => governor.lastBoughtAt(display.id),
        lastPaidAt: () => governor.lastPaidAt(display.id),
        // A household's ledger entry is its people's newest purchase, which its own file (its first person's answer)
        // need not hold: each person's answer is read back from their own file instead.
        ...(household !== undefined && { household, lastBoughtAt: () => null, lastPaidAt: () => null }),
      }),
    );
  }
  const runner = new DisplayRunner({ cycles, refreshGate, signal: abort.signal });
  runs.bind(runner);

  let started = false;
  let stopped: Promise<void> | null = null;
  /** Everything a cycle needs before the first one: the state folder, the ledger, the publishers. */
  async function prepare(): Promise<void> {
    await mkdir(config.state_dir, { recursive: true });
    await governor.load();
    await warmth?.load();
    await Promise.all(publishers.map((p) => p.start()));
    started = true;
  }

  return {
    cycles,
    governor,
    views,
    baseUrl,
    async start() {
      await prepare();
      const restored = await Promise.all(
        [...cycles.values()].map(async (c) => [c.display.id, await c.restore()] as const),
      );
      if (abort.signal.aborted) return;
      // Who is out, before anything is bought for them (presence comes over MQTT only).
      const unknown = watchedPeople.filter((id) => presence.presenceOf(id) === 'unknown');
      if (config.mqtt !== undefined && unknown.length > 0) {
        householdLog.info({ people: unknown, wait_ms: PRESENCE_SETTLE_MS }, 'waiting for presence before buying');
        await presence.settled(unknown, PRESENCE_SETTLE_MS);
        if (abort.signal.aborted) return;
      }
      // Downtime is made up: a display whose answer is older than its latest slot (or that has none) buys once now,
      // within its schedule's hours. start() waits for the first frames of displays that had none (up to
      // FIRST_FRAME_WAIT_MS), so that "started" means "something is on the wall"; one that waits for the first slot
      // of its day shows that it waits.
      const catchUps = scheduler.start();
      const first: Promise<unknown>[] = [];
      for (const [id, had] of restored) {
        if (had) continue;
        const cycle = cycles.get(id);
        const catchUp = catchUps.get(id);
        if (catchUp !== undefined) first.push(catchUp);
        else if (cycle !== undefined)
          first.push(
            cycle.publishCurrent().catch((err: unknown) => logger.error({ display: id, err }, 'first frame failed')),
          );
      }
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
      return scheduler.healthy();
    },
    async runOnce(displayId, reason = 'once') {
      if (displayId !== undefined && !cycles.has(displayId)) throw new Error(`no display with id "${displayId}"`);
      if (!started) {
        await prepare();
        await Promise.all([...cycles.values()].map((c) => c.restore({ publish: false })));
      }
      // Every display, whatever happened to the one before: one that throws is a failed result, not the end.
      const results = new Map<string, CycleResult>();
      for (const id of cycles.keys()) {
        if (displayId !== undefined && id !== displayId) continue;
        try {
          results.set(id, await runner.run(id, reason));
        } catch (err) {
          logger.error({ display: id, err }, 'cycle failed');
          results.set(id, { outcome: 'failed', error: null, published: false, retryAt: null });
        }
      }
      return results;
    },
    refresh(displayId) {
      return runner.refresh(displayId);
    },
    async idle() {
      const busy = (): Promise<unknown>[] => [...scheduler.inFlight(), ...runner.inFlight(), ...runner.redrawing()];
      for (;;) {
        const now = busy();
        if (now.length > 0) {
          await Promise.allSettled(now);
          continue;
        }
        // One turn of the event loop for what the last of them set off (a publish's follow-up), then look again.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (busy().length === 0) return;
      }
    },
    httpUrl() {
      const http = publishers.find((p) => p.name === 'http') as HttpPublisher | undefined;
      return http?.url ?? null;
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
      ['scheduler', () => scheduler.stop()],
      ['cycles', () => Promise.allSettled(runner.inFlight())],
      ['budget', () => governor.flush()],
      ['publishers', () => Promise.all(publishers.map((p) => p.stop()))],
      ['client', () => client.close()],
      ['service-sim', async () => sim?.close()],
    ];
    for (const [part, step] of steps) {
      try {
        await step();
      } catch (err) {
        logger.error({ part, err }, 'stop: a part failed to stop cleanly');
      }
    }
  }
}
