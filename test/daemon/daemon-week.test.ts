import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { BadResponseError, ServiceError } from '../../src/api/errors.js';
import { CronTimes } from '../../src/budget/cron-times.js';
import { loadConfig } from '../../src/config/load.js';
import { buildDaemon, type Daemon } from '../../src/daemon/daemon.js';
import type { ShownView } from '../../src/state/display-views.js';
import { DrivenClock, WeekDriver } from '../bench/week-rig.js';
import { fakeClient, type Answer, type Call } from '../budget/fake-client.js';
import { rec } from '../fixtures/rec.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { configYaml } from '../helpers/config-yaml.js';
import { keeper } from '../helpers/views.js';

/**
 * The daemon on the fake clock for days, in this process: the Daemon as `run` builds it (scheduler, governor, cycle,
 * files publisher) with no HTTP or MQTT section, its service client answered by the in-process fake client. The
 * daemon's integration tests (test/daemon/*.int.test.ts) do the same over real HTTP against the simulated service;
 * this is their core, fast: purchases at the scheduled slots, the frame written on each success, the last good kept
 * on a bad answer, the backoff after a failure, the budget respected.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const TZ = 'Europe/Berlin';
const KEY = `sk_live_${'w'.repeat(24)}`;

interface WeekRig {
  daemon: Daemon;
  driver: WeekDriver;
  clock: DrivenClock;
  calls: Call[];
  /** What the publishers were handed, in order. */
  shown: ShownView[];
  /** The files publisher's `<output_dir>/hallway.json`, parsed. */
  json: () => Promise<{ outfit: string; fetched_at: string }>;
  /** The files publisher's `<output_dir>/hallway.png`, decoded by pngjs. */
  png: () => Promise<PNG>;
  logText: () => string;
}

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/**
 * Builds and starts the daemon on a fake clock at `start`. Every paid call is answered from `script` (an answer, an
 * error, or a function of the call), then rec() with a new outfit each time.
 */
async function weekRig(o: {
  schedule: string;
  start: number;
  creditsPerDay?: number;
  budget?: string[];
  script?: Answer[];
}): Promise<WeekRig> {
  const dir = await mkdtemp(path.join(tmpdir(), 'outfit-week-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(
    path.join(dir, 'config.yaml'),
    configYaml({
      baseUrl: 'https://outfit.example/v1',
      ...(o.creditsPerDay !== undefined && { creditsPerDay: o.creditsPerDay }),
      budget: o.budget ?? [],
      timezone: TZ,
      displays: [{ id: 'hallway', panel: 'waveshare-2in13', schedule: o.schedule }],
      outputDir: path.join(dir, 'frames'),
      stateDir: path.join(dir, 'state'),
    }),
  );
  const loaded = await loadConfig(path.join(dir, 'config.yaml'), { env: { OUTFIT_API_KEY: KEY } });
  const clock = new DrivenClock(o.start);
  let n = 0;
  const fake = fakeClient(clock.fake, [
    ...(o.script ?? []),
    ...Array.from({ length: 200 }, () => () => Promise.resolve(rec({ outfit: `Outfit ${++n}.`, fetchedAt: null }))),
  ]);
  const { logger, text } = capturingLogger();
  const shown = keeper();
  // The service's client answered in process: the daemon is otherwise as `run` builds it.
  const daemon = await buildDaemon({ loaded, logger, clock, publishers: [shown], env: {}, client: fake.client });
  cleanup.push(() => daemon.stop());
  const driver = new WeekDriver(clock);
  driver.watch(daemon);
  await driver.settle(daemon.start());
  return {
    daemon,
    driver,
    clock,
    calls: fake.calls,
    shown: shown.updates,
    json: async () =>
      JSON.parse(await readFile(path.join(dir, 'frames', 'hallway.json'), 'utf8')) as {
        outfit: string;
        fetched_at: string;
      },
    png: async () => PNG.sync.read(await readFile(path.join(dir, 'frames', 'hallway.png'))),
    logText: text,
  };
}

/**
 * The next 08:00 in Berlin: a start the clock guard trusts (the build is older than it), an hour after the day's first
 * slot of the schedules below, whatever the time the test runs at.
 */
const eightOClock = (): number => new CronTimes('0 8 * * *', TZ).nextAfter(Date.now())!;

/** The slots of `schedule` in (from, to]. */
function slots(schedule: string, from: number, to: number): number[] {
  const cron = new CronTimes(schedule, TZ);
  const out: number[] = [];
  for (let t = cron.nextAfter(from); t !== null && t <= to; t = cron.nextAfter(t)) out.push(t);
  return out;
}

describe('the daemon over a week, on the fake clock', () => {
  it('buys at each slot of the schedule and nowhere else, and writes each answer’s frame and JSON', async () => {
    const schedule = '0 7,13,19 * * *';
    const start = eightOClock();
    const r = await weekRig({ schedule, start });
    // Nothing on show at the start: the latest slot is made up at once.
    expect(r.calls.map((c) => c.wall)).toEqual([start]);
    expect((await r.json()).outfit).toBe('Outfit 1.');

    const due = slots(schedule, start, start + 7 * DAY);
    expect(due).toHaveLength(21);
    for (const [i, slot] of due.entries()) {
      await r.driver.advanceTo(slot + 5 * MIN);
      expect(r.calls.at(-1)?.wall, new Date(slot).toISOString()).toBe(slot);
      expect(r.calls).toHaveLength(i + 2);
      // The files publisher wrote the slot's answer and its frame: a PNG of the panel's size.
      const json = await r.json();
      expect(json.outfit).toBe(`Outfit ${i + 2}.`);
      expect(Date.parse(json.fetched_at)).toBe(slot);
    }
    const png = await r.png();
    expect([png.width, png.height].sort((a, b) => a - b)).toEqual([122, 250]);
    expect(r.shown.at(-1)?.status).toEqual({ kind: 'ok' });
    expect(r.daemon.healthy()).toBe(true);
  });

  it('keeps the last good answer on a bad one, backs off after a failure, and buys the slot when the backoff ends', async () => {
    const schedule = '0 7,13,19 * * *';
    const start = eightOClock();
    const [first, second, third] = slots(schedule, start, start + DAY);
    const r = await weekRig({
      schedule,
      start,
      script: [
        rec({ outfit: 'At the start.', fetchedAt: null }),
        rec({ outfit: 'The first slot’s.', fetchedAt: null }),
        new BadResponseError('POST /recweather: a 2xx whose body is not JSON', null, { status: 200 }),
        new ServiceError('POST /recweather: HTTP 500', { status: 500 }),
      ],
    });
    await r.driver.advanceTo(first! + MIN);
    const good = await r.json();
    expect(good.outfit).toBe('The first slot’s.');
    const goodPng = (await r.png()).data;

    // A bad answer (paid for): the last good answer stays in the files, the frame says what went wrong, and the slot
    // is not bought again before the next one.
    await r.driver.advanceTo(second! + 30 * MIN);
    expect(r.calls.map((c) => c.wall).slice(-1)).toEqual([second]);
    expect(await r.json()).toEqual(good);
    expect(r.shown.at(-1)?.status).toMatchObject({ kind: 'service_error', problem: 'bad_answer' });
    expect(r.shown.at(-1)?.rec?.outfit).toBe('The first slot’s.');
    expect(Buffer.compare((await r.png()).data, goodPng)).not.toBe(0);

    // A 500: the slot is tried again after the backoff (30 to 60 s), not before, and not again after its answer.
    await r.driver.advanceTo(third! + 10 * MIN);
    const [failed, retried, ...after] = r.calls.filter((c) => c.wall >= third!);
    expect(failed?.wall).toBe(third);
    expect(retried!.wall - failed!.wall).toBeGreaterThanOrEqual(30_000);
    expect(retried!.wall - failed!.wall).toBeLessThanOrEqual(60_000 + MIN);
    expect(after).toEqual([]);
    expect(r.logText()).toContain('E_SERVICE');
    expect((await r.json()).outfit).toBe('Outfit 1.');
    expect(r.shown.at(-1)?.status).toEqual({ kind: 'ok' });
  });

  it('spends no more than the day’s budget: the slots past it wait for the next day', async () => {
    // Four slots a day at 3 credits each, 9 credits a day, every tick until the budget is spent.
    const schedule = '0 7,11,15,19 * * *';
    const start = eightOClock();
    const r = await weekRig({
      schedule,
      start,
      creditsPerDay: 9,
      budget: ['pace_over_budget: false'],
    });
    const end = start + 3 * DAY;
    await r.driver.advanceTo(end);
    const perDay = new Map<string, number>();
    for (const c of r.calls) {
      const day = new Date(c.wall).toLocaleDateString('en-CA', { timeZone: TZ });
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    expect([...perDay.values()].every((n) => n <= 3)).toBe(true);
    // Every call was at one of the slots (or the start's), and each full day bought its three.
    const due = new Set([start, ...slots(schedule, start, end)]);
    expect(r.calls.filter((c) => !due.has(c.wall))).toEqual([]);
    expect([...perDay.values()].filter((n) => n === 3).length).toBeGreaterThanOrEqual(2);
    expect(r.shown.some((v) => v.status.kind === 'budget_exhausted')).toBe(true);
  });
});
