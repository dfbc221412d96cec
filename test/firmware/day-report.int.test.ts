import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { DayReport } from '../../display/firmware/day-report.js';
import { runDay, type DayServer } from '../../display/firmware/day-run.js';
import { Device } from '../../display/firmware/device.js';
import { TRMNL_POWER } from '../../display/firmware/power.js';
import { HttpTransport } from '../../display/firmware/transport-http.js';
import { loadPanel } from '../../src/panels/panels.js';
import { simModel, simModelNames } from '../../display/firmware/sim-models.js';
import { runSimulateCommand, simulatorOptions, type SimulateFlags } from '../../display/firmware/simulate-command.js';
import type { SimSummary } from '../../display/firmware/sim-output.js';
import { CronTimes } from '../../src/budget/cron-times.js';
import { dayServer } from '../../src/cli/day-server.js';
import type { LoadedConfig } from '../../src/config/load.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { clockAt } from '../helpers/fake-clock.js';

/**
 * `simulate --day` measures a day: the real daemon of the config on a virtual clock, with the simulated service, and
 * two simulated devices that wake on what the wire tells them (one sleeping the daemon's answer, one a fixed 15
 * minutes), over real HTTP on 127.0.0.1. What the devices count follows the daemon's schedule and its answers, not a
 * formula: a daemon on another schedule, or an answer rewritten on its way, changes the wakes.
 */

/** The default schedule: 17 hours of two updates, 34 a day. */
const SCHEDULE = '*/30 6-22 * * *';
/** The day before the one measured (2027-03-11, Europe/Berlin). */
const FROM = Date.parse('2027-03-10T12:00:00Z');

/** `creditsPerDay`: by default enough for every slot, so the daemon runs the schedule as written. */
function loadedConfig(displays: Array<Record<string, unknown>>, creditsPerDay = 3000): LoadedConfig {
  return {
    config: ConfigSchema.parse({
      api: { base_url: 'simulated' },
      budget: { credits_per_day: creditsPerDay },
      timezone: 'Europe/Berlin',
      displays,
      http: { listen: '127.0.0.1:9' },
    }),
    secrets: { apiKey: null, apiKeySource: null, mqttPassword: null, trmnlTokens: new Map() },
    file: '/tmp/config.yaml',
    warnings: [],
  };
}

/** The day daemon's warnings and errors, shown when a test fails. */
function quietLogger(): { logger: pino.Logger; text: () => string } {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  });
  return { logger: pino({ level: 'warn' }, sink), text: () => text };
}

const outs: string[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  await Promise.all(outs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** `simulate --day --wakes 0` as the command line runs it: the exit code, what it printed and the measured day. */
async function measure(
  loaded: LoadedConfig,
  flags: SimulateFlags,
  wrap: (s: DayServer) => DayServer = (s) => s,
): Promise<{ code: number; lines: string[]; day: DayReport | null; summary: SimSummary | null }> {
  const out = await mkdtemp(path.join(tmpdir(), 'outfit-sim-day-'));
  outs.push(out);
  const { logger, text } = quietLogger();
  const lines: string[] = [];
  const code = await runSimulateCommand(
    loaded,
    { day: true, wakes: '0', out, ...flags },
    {
      log: (l) => lines.push(l),
      error: (l) => lines.push(l),
      signal: new AbortController().signal,
      dayServer: wrap(dayServer({ loaded, logger })),
      clock: clockAt(() => FROM),
    },
  );
  const summary =
    code === 0 ? (JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8')) as SimSummary) : null;
  if (code === 0 && summary?.day === null) throw new Error(`no day measured\n${lines.join('\n')}\n${text()}`);
  return { code, lines, day: summary?.day ?? null, summary };
}

/**
 * A stand-in in front of the daemon that forwards every request and rewrites the answer's `X-Refresh-Rate` to
 * `seconds`: a daemon that answers another refresh rate, for the device to follow.
 */
function rewritingRefreshRate(seconds: number): (s: DayServer) => DayServer {
  return (server) => async (req) => {
    const daemon = await server(req);
    const proxy = createServer((inReq, inRes) => {
      void (async () => {
        const res = await fetch(`${daemon.baseUrl}${inReq.url ?? '/'}`, {
          headers: Object.fromEntries(
            Object.entries(inReq.headers).filter((e): e is [string, string] => typeof e[1] === 'string'),
          ),
        });
        const body = Buffer.from(await res.arrayBuffer());
        const headers: Record<string, string> = {};
        res.headers.forEach((v, k) => (headers[k] = v));
        if (headers['x-refresh-rate'] !== undefined) headers['x-refresh-rate'] = String(seconds);
        delete headers['content-encoding'];
        headers['content-length'] = String(body.length);
        inRes.writeHead(res.status, headers).end(body);
      })();
    });
    servers.push(proxy);
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const port = (proxy.address() as { port: number }).port;
    return { ...daemon, baseUrl: `http://127.0.0.1:${port}` };
  };
}

/** The slots of `schedule` (Europe/Berlin) from `from` (inclusive) to `to`. */
function slotsOn(schedule: string, from: string, to: string): number {
  const cron = new CronTimes(schedule, 'Europe/Berlin');
  let n = 0;
  for (let t = cron.nextAfter(Date.parse(from) - 1); t !== null && t < Date.parse(to); t = cron.nextAfter(t)) n++;
  return n;
}

describe('simulate --day measures the day against the daemon', () => {
  it('a TRMNL on refresh_rate wakes once a new frame; on a fixed 15 minutes 90 to 96 times for the same 34, lasting under 1/1.3 as many days', async () => {
    const loaded = loadedConfig([{ id: 'hallway', lat: 52.5, lon: 13.4, panel: 'trmnl', schedule: SCHEDULE }]);
    const { code, lines, day, summary } = await measure(loaded, { display: 'hallway', model: 'og' });
    expect(code, lines.join('\n')).toBe(0);
    expect(day).toMatchObject({ date: '2027-03-11', schedule: SCHEDULE, via: 'trmnl', panel: 'trmnl' });
    const [ours, stock] = day!.rows;
    expect(ours).toMatchObject({ policy: 'refresh_rate', wakes: 34, new_frames: 34, wakes_per_new_frame: 1 });
    expect(stock.policy).toBe('stock_15min');
    expect(stock.new_frames).toBe(34);
    // 900 s asleep after each wake of a few seconds: a little under 96 a day.
    expect(stock.wakes).toBeGreaterThan(90);
    expect(stock.wakes).toBeLessThanOrEqual(96);
    // The same 34 frames came to both; the stock device also fetched 60-odd answers that said nothing new.
    expect(stock.bytes).toBeGreaterThan(ours.bytes);
    expect(ours.days_per_charge).toBeGreaterThan(stock.days_per_charge * 1.3);
    expect(lines.join('\n')).toMatch(/measured against the daemon on a virtual clock/);
    expect(lines.join('\n')).toMatch(/our refresh_rate\s+34\s+34\s+1\.00/);
    expect(summary).toMatchObject({ model: 'og', panel: 'trmnl', wakes: 0 });
  }, 180_000);

  it("the wakes follow the daemon's schedule: every two hours, 12 wakes and 12 new frames", async () => {
    const loaded = loadedConfig([{ id: 'porch', lat: 52.5, lon: 13.4, panel: 'waveshare-2in9', schedule: SCHEDULE }]);
    const { day } = await measure(loaded, { display: 'porch', schedule: '0 */2 * * *' });
    expect(day).toMatchObject({ schedule: '0 */2 * * *', via: 'http', panel: 'waveshare-2in9' });
    expect(day!.rows[0]).toMatchObject({ wakes: 12, new_frames: 12, wakes_per_new_frame: 1 });
    // The fixed 15 minutes do not care: the same wakes, the same 12 frames.
    expect(day!.rows[1].wakes).toBeGreaterThan(90);
    expect(day!.rows[1].new_frames).toBe(12);
  }, 180_000);

  it('the device sleeps what the wire says: an answer rewritten to an hour makes hourly wakes that miss frames', async () => {
    const loaded = loadedConfig([{ id: 'porch', lat: 52.5, lon: 13.4, panel: 'waveshare-2in9', schedule: SCHEDULE }]);
    const { day } = await measure(loaded, { display: 'porch' }, rewritingRefreshRate(3600));
    const [ours, stock] = day!.rows;
    // An hour asleep after each wake of some 20 s: 23 or 24 wakes, each finding the newest of the two frames it slept through.
    expect(ours.wakes).toBeGreaterThanOrEqual(23);
    expect(ours.wakes).toBeLessThanOrEqual(24);
    expect(ours.new_frames).toBeLessThan(34);
    expect(ours.new_frames).toBeGreaterThanOrEqual(16);
    // The daemon itself did not change: the fixed device still sees all 34.
    expect(stock.new_frames).toBe(34);
  }, 180_000);

  it('a display on auto is measured on the schedule the daemon resolves for the budget, and --day is refused where it measures nothing', async () => {
    const loaded = loadedConfig([{ id: 'porch', lat: 52.5, lon: 13.4, panel: 'waveshare-2in9', schedule: 'auto' }], 60);
    const { day } = await measure(loaded, { display: 'porch' });
    // 60 credits a day: the daemon resolves `auto` to a few slots; the device sees a new frame at each of them.
    expect(day!.schedule).not.toBe('auto');
    const slots = slotsOn(day!.schedule, '2027-03-11T00:00:00+01:00', '2027-03-12T00:00:00+01:00');
    expect(slots).toBeGreaterThan(0);
    expect(day!.rows[0]).toMatchObject({ wakes: slots, new_frames: slots, wakes_per_new_frame: 1 });

    for (const [flags, message] of [
      [{ display: 'porch', via: 'mqtt' }, /--day measures a device that pulls its frame/],
      [{ display: 'porch', schedule: 'every morning' }, /--schedule: not a valid cron expression/],
    ] as const) {
      const r = await measure(loaded, flags);
      expect(r.code).toBe(2);
      expect(r.lines.join('\n')).toMatch(message);
    }
  }, 180_000);
});

describe('a day that cannot go on', () => {
  it('a daemon that never goes idle stops the day with E_SIM_DAY_STALLED, and the daemon is stopped', async () => {
    let stopped = false;
    const run = runDay({
      server: () =>
        Promise.resolve({
          baseUrl: 'http://127.0.0.1:9',
          schedule: SCHEDULE,
          idle: () => new Promise<void>(() => undefined),
          stop: () => {
            stopped = true;
            return Promise.resolve();
          },
        }),
      displayId: 'porch',
      timezone: 'Europe/Berlin',
      from: FROM,
      via: 'http',
      panel: 'waveshare-2in9',
      power: TRMNL_POWER,
      device: (r) =>
        new Device({
          panel: loadPanel('waveshare-2in9'),
          width: 296,
          height: 128,
          clock: r.clock,
          maxImageBytes: 1_000_000,
          transport: new HttpTransport({ baseUrl: r.baseUrl, displayId: 'porch', fetch: r.fetch }),
        }),
      stallMs: 300,
    });
    await expect(run).rejects.toMatchObject({ code: 'E_SIM_DAY_STALLED' });
    expect(stopped).toBe(true);
  });
});

describe('simulate flags', () => {
  const loaded = loadedConfig([{ id: 'hallway', lat: 52.5, lon: 13.4, panel: 'trmnl' }]);

  it.each([
    [{ model: 'kobo' }, /--model must be one of og, og_plus, x, reterminal_e1001, xiao, kindle/],
    [{ model: 'kindle', via: 'trmnl' }, /--model kindle speaks --via http/],
    [{ model: 'og', sensors: 'pressure=1013' }, /--sensors takes temperature=N,humidity=N,co2=N/],
    [{ model: 'kindle', sensors: 'co2=600' }, /--model kindle has no environment sensor/],
    [{ battery: '150', model: 'kindle' }, /--battery must be a percent/],
    [{ button: '0' }, /--button must be a whole number of at least 1/],
    [{ day: true, wakes: '0' }, /--day needs a daemon to measure against/],
  ])('%o is bad usage (exit 2)', async (flags, message) => {
    const errors: string[] = [];
    const code = await runSimulateCommand(
      loaded,
      { display: 'hallway', wakes: '1', out: '/tmp/never-written', ...flags },
      { log: () => undefined, error: (l) => errors.push(l), signal: new AbortController().signal },
    );
    expect(code).toBe(2);
    expect(errors.join('\n')).toMatch(message);
  });

  it('every --model resolves to the panel the model table gives its Model header', () => {
    expect(simModelNames().map((n) => [n, simModel(n)?.header, simModel(n)?.model.panel])).toEqual([
      ['og', 'og', 'trmnl'],
      ['og_plus', 'og_plus', 'trmnl-4grey'],
      ['x', 'x', 'trmnl-x'],
      ['reterminal_e1001', 'reterminal_e1001', 'trmnl-4grey'],
      ['xiao', 'xiao_epaper_display', 'trmnl'],
      ['kindle', null, 'kindle-paperwhite'],
    ]);
  });

  it('flags become options: the model picks its transport, --button lists presses', () => {
    const o = simulatorOptions(
      loaded,
      { display: 'hallway', model: 'kindle', battery: '57', button: '2,5', sensors: undefined },
      '/work',
    );
    expect(o).toMatchObject({
      via: 'http',
      batteryPct: 57,
      buttonWakes: [2, 5],
      model: { name: 'kindle', header: null, via: 'http' },
    });
  });
});
