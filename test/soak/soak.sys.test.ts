import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Writable } from 'node:stream';
import { PNG } from 'pngjs';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../helpers/fake-clock.js';
import { planConfig } from '../../src/budget/planner.js';
import type { LoadedConfig } from '../../src/config/load.js';
import { buildDaemon, type Daemon } from '../../src/daemon/daemon.js';
import type { Publisher } from '../../src/publish/publisher.js';
import type { ShownView } from '../../src/state/display-views.js';
import { viewSize } from '../../src/render/frame.js';
import { LastGoodStore } from '../../src/store/last-good.js';
import { LEDGER_FILE } from '../../src/budget/ledger.js';
import { hexToRgb, loadPanel } from '../../src/panels/panels.js';
import { DEMO_API_KEY, startServiceSim, type Fault, type RunningServiceSim } from '../helpers/service-sim.js';
import { berlin, BERLIN, chargedPerPeriod, makeConfig, prng, stateDir, turn } from '../budget/helpers.js';
import { pngHeader } from '../render/decode.js';
import { NORMAL } from '../fixtures/samples.js';

/**
 * 90 simulated days of the real daemon (buildDaemon: governor, scheduler, cycles, rendering, files) with five
 * displays on five panels, against the real simulated service over real HTTP, on a FakeClock, with random faults
 * injected into the service (429 with and without Retry-After, 5xx, resets, malformed and incomplete bodies, an HTML
 * error page, one 402). Checked on what the service itself recorded: credits within the budget every day and every
 * month, at most the rate limit in every 60-second window, Retry-After respected; every frame a panel-exact PNG
 * (header and hash of every frame; a daily sample decoded with pngjs, every pixel in the palette); the heap flat
 * (heapUsed after a forced GC every 5 days: see the end for the bounds).
 *
 * Time: the daemon, the service and the test share the FakeClock (no clock steps here: month-sim covers those).
 * Fake time moves only when every cycle in flight waits on a fake timer, so the daemon never sees time jump
 * under a running request.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const DAYS = 90;
const T0 = berlin('2027-02-01T00:30:00');
const END = T0 + DAYS * DAY;
const RATE = 3;
const PER_DAY = 55;
const PER_MONTH = 1500;

// A forced GC without starting the worker with --expose-gc (vitest 4 has no per-file execArgv): V8 exposes `gc` to
// contexts created after the flag is set.
setFlagsFromString('--expose-gc');
const forceGc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  forceGc();
  forceGc();
  return process.memoryUsage().heapUsed;
}

let sim: RunningServiceSim | undefined;
let daemon: Daemon | undefined;
afterAll(async () => {
  await daemon?.stop();
  await sim?.close();
});

describe('soak: 90 simulated days, five displays, random faults', () => {
  it('keeps to the budget and the rate limit, renders valid frames, and its heap stays flat', async () => {
    const started = performance.now();
    const clock = new FakeClock(T0);
    const timers = clock.view();
    sim = await startServiceSim({ clock, ratePerMinute: RATE });
    const dir = await stateDir();
    const outputDir = path.join(dir, 'frames');
    const config = makeConfig({
      api: { base_url: sim.url },
      // Every tick until the budget is spent (not paced): this soak checks the governor's caps.
      budget: {
        credits_per_day: PER_DAY,
        credits_per_month: PER_MONTH,
        rate_limit_per_minute: RATE,
        pace_over_budget: false,
      },
      displays: [
        { id: 'hallway', lat: 52.52, lon: 13.405, panel: 'waveshare-7in5-v2', schedule: '0 6-21/3 * * *' },
        {
          id: 'kitchen',
          lat: 53.55,
          lon: 9.99,
          panel: 'waveshare-4in2',
          schedule: 'auto',
          active_hours: '07:00-22:00',
          endpoint: 'recommend',
        },
        {
          id: 'bedroom',
          lat: 48.14,
          lon: 11.58,
          panel: 'waveshare-2in9',
          schedule: '0 6-21/3 * * *',
          change_aware: { temp_delta: 2, max_age_minutes: 240 },
        },
        {
          id: 'porch',
          lat: 50.94,
          lon: 6.96,
          panel: 'waveshare-2in13',
          rotation: 90,
          schedule: '0 */3 * * *',
          endpoint: 'recommend',
          dither: 'atkinson',
        },
        {
          id: 'study',
          lat: 51.34,
          lon: 12.37,
          panel: 'waveshare-7in5-b',
          unit: 'imperial',
          schedule: '0 9,18 * * *',
          dither: 'ordered',
        },
      ],
      state_dir: dir,
      output_dir: outputDir,
    });
    // The fixed schedules want more than the budget (64 credits a day worst case): the governor has to cap them,
    // and the automatic one gets the sparsest schedule within its active hours.
    const plan = planConfig(config, { now: T0 });
    expect(plan.overDay && plan.overMonth).toBe(true);
    const kitchenSchedule = plan.displays.find((d) => d.id === 'kitchen')?.schedule;
    expect(kitchenSchedule).toMatch(/^0 7 /);

    // Every frame any publisher gets: panel-exact size and depth, hash of its bytes. Counted by status.
    const statuses: Record<string, number> = {};
    const frameProblems: string[] = [];
    let frames = 0;
    const lastHash = new Map<string, string>();
    const checker: Publisher = {
      name: 'checker',
      start: () => Promise.resolve(),
      stop: () => Promise.resolve(),
      publish: (u: ShownView) => {
        frames++;
        statuses[u.status.kind] = (statuses[u.status.kind] ?? 0) + 1;
        const panel = loadPanel(u.display.panel);
        const size = viewSize(panel, u.display.rotation);
        const h = pngHeader(u.frame.png);
        if (h.width !== size.width || h.height !== size.height || h.bitDepth !== panel.png.bit_depth) {
          frameProblems.push(`${u.display.id}: ${JSON.stringify(h)} for ${panel.id}`);
        }
        if (createHash('sha256').update(u.frame.png).digest('hex') !== u.frame.hash)
          frameProblems.push(`${u.display.id}: hash`);
        lastHash.set(u.display.id, u.frame.hash);
        return Promise.resolve();
      },
    };

    let logLines = 0;
    const sink = new Writable({
      write(_chunk: Buffer, _enc, cb) {
        logLines++;
        cb();
      },
    });
    const loaded: LoadedConfig = {
      config,
      secrets: { apiKey: DEMO_API_KEY, apiKeySource: 'test', mqttPassword: null, trmnlTokens: new Map() },
      file: path.join(dir, 'config.yaml'),
      warnings: [],
    };
    daemon = await buildDaemon({
      loaded,
      logger: pino({ level: 'warn' }, sink),
      clock: timers,
      publishers: [checker],
    });

    // Cycles in flight: the daemon's own cycles, wrapped (it calls cycle.run for every scheduled tick).
    let active = 0;
    let cycles = 0;
    /** Redraws of a display whose answer went stale (a frame each, no fetch). */
    let redraws = 0;
    const outcomes: Record<string, number> = {};
    for (const cycle of daemon.cycles.values()) {
      const run = cycle.run.bind(cycle);
      cycle.run = (...args) => {
        active++;
        cycles++;
        return run(...args)
          .then((r) => {
            outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
            return r;
          })
          .finally(() => active--);
      };
      // A redraw when the answer goes stale (no fetch) is work in flight too.
      const redraw = cycle.publishCurrent.bind(cycle);
      cycle.publishCurrent = () => {
        active++;
        redraws++;
        return redraw().finally(() => active--);
      };
    }
    // Every display has a last good outfit, bought after its latest slot (a restart, in effect): start() publishes
    // those at once and sends nothing (nothing to make up), so the rate limit (3 a minute, below the five displays)
    // first bites at the first shared tick.
    const store = new LastGoodStore(dir);
    for (const d of config.displays)
      await store.save(d.id, { ...NORMAL, fetched_at: new Date(T0 - 60_000).toISOString() });
    await daemon.start();
    expect(cycles).toBe(0);
    const slots = config.displays.length; // the scheduler keeps one timer a display armed at all times

    /** Until every cycle in flight waits on a fake timer (a rate-limit wait, a backoff) or none runs. */
    const settle = async (): Promise<void> => {
      for (let i = 0; active > timers.pending() - slots; i++) {
        await turn();
        if (i % 20 === 19) await new Promise((r) => setTimeout(r, 1));
        if (i > 200_000) throw new Error('the daemon never settled');
      }
      await turn();
    };

    // --- events: faults at random times, a daily check ----------------------------------------------------------
    const rand = prng(90_2027);
    type Ev = { at: number; run: () => Promise<void> | void };
    const events: Ev[] = [];
    const injected: Record<string, number> = {};
    /** Retry-After of each injected 429, in order (only one is ever queued at a time). */
    const retryAfters: Array<string | null> = [];
    const inject = (f: Fault): void => {
      injected[f.kind] = (injected[f.kind] ?? 0) + 1;
      sim!.injectFault(f);
    };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    for (let t = T0 + HOUR; t < END; t += 4 * HOUR) {
      if (rand() < 0.45) continue;
      events.push({
        at: t + Math.floor(rand() * 4 * HOUR),
        run: () => {
          const r = rand();
          if (r < 0.25) {
            if (sim!.stats().pendingFaults.some((f) => f.kind === 'rate_limit')) return;
            const ra = pick(['7', '45', null, '120', 'date'] as const);
            const header = ra === 'date' ? new Date(clock.now() + 90_000).toUTCString() : ra;
            retryAfters.push(header);
            inject({ kind: 'rate_limit', retry_after: header });
          } else {
            inject(
              pick<Fault>([
                { kind: 'status', status: 500, count: 1 + Math.floor(rand() * 3) },
                { kind: 'status', status: 502 },
                { kind: 'status', status: 503, count: 2 },
                { kind: 'reset' },
                { kind: 'reset', count: 3 },
                { kind: 'malformed_json' },
                { kind: 'html_error' },
                { kind: 'missing_field', field: 'weather.temp' },
                { kind: 'wrong_type', field: 'outfit' },
                { kind: 'extra_fields' },
              ]),
            );
          }
        },
      });
    }
    events.push({
      at: berlin('2027-03-10T12:00:00'),
      run: () => inject({ kind: 'status', status: 402, error: 'insufficient credits' }),
    });

    // Each evening: two displays' frame files decoded with pngjs (every display every 2.5 days), every pixel in its
    // palette, and the file is the newest frame; every 5 days from day 10: the heap after a forced GC.
    const decoded: Record<string, number> = {};
    const heap: Array<{ day: number; bytes: number }> = [];
    for (let day = 0; day < DAYS; day++) {
      const at = T0 + day * DAY + 22 * HOUR + 45 * 60_000;
      events.push({
        at,
        run: async () => {
          const ids = [config.displays[(2 * day) % 5]!, config.displays[(2 * day + 1) % 5]!];
          for (const d of ids) {
            const panel = loadPanel(d.panel);
            const buf = await readFile(path.join(outputDir, `${d.id}.png`));
            const png = PNG.sync.read(buf);
            const size = viewSize(panel, d.rotation);
            const allowed = new Set(panel.palette.map((e) => hexToRgb(e.rgb).reduce((a, c) => (a << 8) | c, 0)));
            let off = 0;
            for (let i = 0; i < png.data.length; i += 4) {
              if (
                !allowed.has((png.data[i]! << 16) | (png.data[i + 1]! << 8) | png.data[i + 2]!) ||
                png.data[i + 3] !== 255
              )
                off++;
            }
            if (png.width !== size.width || png.height !== size.height || off > 0) {
              frameProblems.push(`${d.id} on day ${day}: ${png.width}x${png.height}, ${off} pixels off the palette`);
            }
            if (createHash('sha256').update(buf).digest('hex') !== lastHash.get(d.id))
              frameProblems.push(`${d.id} on day ${day}: the file is not the newest frame`);
            decoded[d.id] = (decoded[d.id] ?? 0) + 1;
          }
          if (day % 5 === 4 && day >= 9) heap.push({ day: day + 1, bytes: heapAfterGc() });
        },
      });
    }
    events.sort((a, b) => a.at - b.at);

    // --- run ----------------------------------------------------------------------------------------------------
    let e = 0;
    for (;;) {
      if (active > 0) await settle();
      const ms = clock.msToNextTimer();
      const nextTimer = ms === null ? Infinity : clock.now() + ms;
      const ev = events[e];
      if (ev !== undefined && ev.at <= nextTimer && ev.at < END) {
        clock.advance(Math.max(0, ev.at - clock.now()));
        if (active > 0) await settle();
        await ev.run();
        e++;
        continue;
      }
      if (nextTimer >= END) break;
      clock.runNext();
    }
    await settle();
    await daemon.stop();
    const seconds = (performance.now() - started) / 1000;

    // --- what the service saw ---------------------------------------------------------------------------------
    const all = sim.stats().requests;
    expect(all.length, 'the service keeps its newest 10,000 records: a longer run would lose some').toBeLessThan(
      10_000,
    );
    const reqs = all.filter((r) => r.path.startsWith('/v1/'));
    const { perDay, perMonth } = chargedPerPeriod(reqs, BERLIN);
    const maxDay = Math.max(...perDay.values());
    const maxMonth = Math.max(...perMonth.values());
    const times = reqs.map((r) => r.time).sort((a, b) => a - b);
    let maxWindow = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while ((times[j] ?? Infinity) < times[i]! + 60_000) j++;
      maxWindow = Math.max(maxWindow, j - i);
    }
    const applied: Record<string, number> = {};
    for (const r of reqs) if (r.fault !== undefined) applied[r.fault] = (applied[r.fault] ?? 0) + 1;

    const summary = {
      seconds: Math.round(seconds),
      days: DAYS,
      cycles,
      frames,
      requests: reqs.length,
      faultsInjected: injected,
      faultsApplied: applied,
      creditsMaxDay: `${maxDay} of ${PER_DAY}`,
      creditsMaxMonth: `${maxMonth} of ${PER_MONTH}`,
      creditsByMonth: Object.fromEntries(perMonth),
      maxRequestsIn60s: `${maxWindow} of ${RATE}`,
      outcomes,
      frameStatuses: statuses,
      decoded,
      heapMB: heap
        .filter((h) => h.day % 10 === 0 || h.day === 45)
        .map((h) => `day ${h.day}: ${(h.bytes / 2 ** 20).toFixed(1)}`),
      logLines,
      kitchenSchedule,
    };
    console.log(`soak summary ${JSON.stringify(summary, null, 1)}`);

    // Budget: every Berlin day and month of the 90 (a day without a request is one after the month's budget ran out).
    expect(perDay.size).toBeGreaterThanOrEqual(DAYS - 12);
    expect(maxDay).toBeLessThanOrEqual(PER_DAY);
    for (const [m, c] of perMonth) expect(c, m).toBeLessThanOrEqual(PER_MONTH);
    // ...and it was used, not merely respected: the daily and the monthly caps were both reached.
    expect(perMonth.get('2027-02')).toBeGreaterThan(PER_MONTH * 0.8);
    expect([...perDay.values()].filter((c) => c >= PER_DAY - 6).length).toBeGreaterThanOrEqual(10);
    expect(statuses.budget_exhausted).toBeGreaterThan(0);
    // The ledger (failed attempts count as spent there) is within the budget and never below what was charged.
    const ledger = JSON.parse(await readFile(path.join(dir, LEDGER_FILE), 'utf8')) as {
      month: string;
      month_spent: number;
      day: string;
      day_spent: number;
    };
    expect(ledger.month).toBe('2027-05');
    expect(ledger.month_spent).toBeLessThanOrEqual(PER_MONTH);
    expect(ledger.month_spent).toBeGreaterThanOrEqual(perMonth.get('2027-05') ?? 0);
    expect(ledger.day_spent).toBeLessThanOrEqual(PER_DAY);

    // Rate limit: every 60-second window; no 429 but the injected ones; Retry-After kept.
    expect(maxWindow).toBeLessThanOrEqual(RATE);
    // The schedules ask for more in some minutes (four or five requests at 06:00, 09:00, 18:00): the limiter held them to
    // its own limit, which keeps 10 % of the service's free for requests it cannot see.
    expect(maxWindow).toBe(RATE - Math.ceil(RATE * 0.1));
    expect(reqs.filter((r) => r.status === 429 && r.fault !== 'rate_limit')).toEqual([]);
    const limited = reqs.filter((r) => r.fault === 'rate_limit');
    expect(limited.length).toBeGreaterThan(10);
    limited.forEach((r, k) => {
      const ra = retryAfters[k] ?? null;
      const waitMs = ra === null ? 60_000 : /^\d+$/.test(ra) ? Number(ra) * 1000 : Math.max(0, Date.parse(ra) - r.time);
      const early = reqs.filter((x) => x.time > r.time && x.time < r.time + waitMs);
      expect(
        early,
        `requests within Retry-After ${ra ?? '(none: 60 s)'} of the 429 at ${new Date(r.time).toISOString()}`,
      ).toEqual([]);
    });

    // Faults of every kind reached the daemon, and it kept going.
    for (const kind of [
      'rate_limit',
      'status',
      'reset',
      'malformed_json',
      'html_error',
      'missing_field',
      'wrong_type',
      'extra_fields',
    ]) {
      expect(applied[kind], kind).toBeGreaterThan(0);
    }
    expect(statuses.ok).toBeGreaterThan(cycles * 0.5);
    // Every fault here is the service's (it was reached): worded as a service error, never "no connection".
    expect(statuses.service_error).toBeGreaterThan(0);
    expect(statuses.unreachable ?? 0).toBe(0);

    // Frames: every one panel-exact; every display's file decoded and checked on many days.
    expect(frameProblems).toEqual([]);
    // One frame a cycle (a deferred cycle sends nothing and draws nothing) and a redraw, plus the five restored at start.
    expect(redraws).toBeGreaterThan(0);
    expect(frames).toBe(config.displays.length + cycles - (outcomes.deferred ?? 0) + redraws);
    for (const d of config.displays) expect(decoded[d.id], d.id).toBeGreaterThanOrEqual(30);

    // Heap: flat. Measured as heapUsed after two forced GCs. What still grows is bounded or warms up: V8's compiled
    // code, the glyph bitmap cache (at most 20,000 entries), the simulated service's request log (at most 10,000
    // records, in this process). So: less than 6 MB in all from day 10 to 90, and less than 2.5 MB over the second
    // half (45 days, ~1,000 cycles: a leak of 2.5 KB a cycle, one frame of the large panel a day, would show).
    expect(heap).toHaveLength(17);
    const at = (day: number): number => heap.find((h) => h.day === day)!.bytes;
    const mb = (b: number): string => `${(b / 2 ** 20).toFixed(1)} MB`;
    expect(at(90) - at(10), `heap grew ${mb(at(90) - at(10))} from day 10 to day 90`).toBeLessThan(6 * 2 ** 20);
    expect(at(90) - at(45), `heap grew ${mb(at(90) - at(45))} from day 45 to day 90`).toBeLessThan(2.5 * 2 ** 20);
  }, 240_000);
});
