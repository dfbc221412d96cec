import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { CronTimes } from '../../src/budget/cron-times.js';
import { resolveSchedules } from '../../src/budget/planner.js';
import { loadConfig, type LoadedConfig } from '../../src/config/load.js';
import { buildDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { DEMO_API_KEY, startServiceSim } from '../../src/service-sim/server.js';
import { seededRandom } from '../../src/service-sim/weather.js';
import { clockAt } from '../helpers/fake-clock.js';
import type { Bench } from './bench.js';
import { run } from './proc.js';
import { parseWindow, weekFigures, type FaultWindow, type Sample, type WeekFigures } from './week-metrics.js';
import { DrivenClock, ServiceGate, WeekDriver } from './week-rig.js';

/**
 * A week under faults: the real daemon (built in this process from a config file, its requests over real HTTP)
 * against the simulated service, on a clock the bench drives minute by minute through a week of faults. Prints the
 * figures of week-metrics.ts for each schedule. `node dist/test/bench/week-under-faults.js [--schedule daily,hourly,auto]
 * [--json]`; `npm run bench -- --only week` runs it for the three.
 *
 * The trace (Europe/Berlin, the week of Monday 23 November 2026, UTC+1 throughout). The daemon starts for the first
 * time on Monday at 00:00, with no state. All week, each purchase has a 1 % chance of an HTTP 500 (a seeded draw).
 * Tuesday 07:00-07:20 the service answers 503 to everything (an outage). Wednesday 08:00-12:00 the account is empty
 * (402) until a top-up at noon. Thursday 07:05 the daemon restarts. Friday 06:30-08:30 connections are refused.
 * Saturday 08:00 the machine is switched off, and on again on Sunday at 08:00.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Monday 23 November 2026, 00:00 in Berlin (UTC+1). */
const WEEK = Date.UTC(2026, 10, 22, 23, 0);
const at = (day: number, hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return WEEK + day * DAY + (h ?? 0) * HOUR + (m ?? 0) * MIN;
};
/** How long after its slot an answer may come and still keep the promise. */
const GRACE_MS = 5 * MIN;
const ERROR_RATE = 0.01;
const TIMEZONE = 'Europe/Berlin';

export interface WeekCase {
  name: string;
  schedule: string;
  /** `active_hours` of an auto display. */
  activeHours?: string;
  creditsPerDay: number;
  /** The local hours in which freshness is counted. */
  window: string;
}

export const WEEK_CASES: WeekCase[] = [
  { name: 'daily', schedule: '0 7 * * *', creditsPerDay: 3000, window: '07:00-22:00' },
  { name: 'hourly', schedule: '0 * * * *', creditsPerDay: 3000, window: '00:00-24:00' },
  // 120 credits a day: every 30 minutes from 06:00 to 22:30 fits (34 x 3), every 20 minutes would not.
  { name: 'auto', schedule: 'auto', activeHours: '06:00-23:00', creditsPerDay: 120, window: '06:00-23:00' },
];

export const FAULTS: FaultWindow[] = [
  { label: 'outage (503) Tue 07:00-07:20', start: at(1, '07:00'), end: at(1, '07:20'), boundMin: 30 },
  { label: '402 Wed 08:00, top-up 12:00', start: at(2, '08:00'), end: at(2, '12:00'), boundMin: 60 },
  { label: 'restart Thu 07:05', start: at(3, '07:05'), end: at(3, '07:05'), boundMin: 0 },
  { label: 'refused connections Fri 06:30-08:30', start: at(4, '06:30'), end: at(4, '08:30'), boundMin: 30 },
  { label: 'powered off Sat 08:00-Sun 08:00', start: at(5, '08:00'), end: at(6, '08:00'), boundMin: 0 },
];

export interface WeekResult extends WeekFigures {
  name: string;
  /** The schedule that ran (auto resolved). */
  ran: string;
  /** Warnings and errors the daemon logged, by code. */
  codes: Record<string, number>;
  seconds: number;
}

export async function runWeek(c: WeekCase, seed = 21): Promise<WeekResult> {
  const t0 = performance.now();
  // The governor's backoff jitter is Math.random: seeded, so that a run is repeatable and before/after compare.
  Math.random = seededRandom(seed);
  const draw = seededRandom(seed + 1);
  const clock = new DrivenClock(WEEK);
  const driver = new WeekDriver(clock);
  const sim = await startServiceSim({ clock: clockAt(() => clock.now()), ratePerMinute: 1000 });
  const gate = new ServiceGate(sim.port);
  await gate.open();
  const dir = mkdtempSync(join(tmpdir(), 'outfit-week-'));
  writeFileSync(
    join(dir, 'config.yaml'),
    [
      `api: { base_url: "http://127.0.0.1:${gate.port}/v1" }`,
      `budget: { credits_per_day: ${c.creditsPerDay} }`,
      `timezone: ${TIMEZONE}`,
      'displays:',
      `  - { id: hallway, lat: 52.52, lon: 13.405, panel: waveshare-7in5-v2, schedule: "${c.schedule}"${c.activeHours ? `, active_hours: "${c.activeHours}"` : ''} }`,
      'output_dir: frames',
      'state_dir: state',
      '',
    ].join('\n'),
  );
  const codes: Record<string, number> = {};
  const logSink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) {
        const m = /"code":"([EW]_[A-Z_]+)"/.exec(line);
        if (m?.[1] !== undefined) codes[m[1]] = (codes[m[1]] ?? 0) + 1;
      }
      done();
    },
  });
  // WEEK_LOG=file: the daemon's log there too (WEEK_LOG_LEVEL, default info; dated by the bench's clock), to see what it did.
  const logFile = process.env.WEEK_LOG;
  const logger = logFile
    ? pino(
        { level: process.env.WEEK_LOG_LEVEL ?? 'info', timestamp: () => `,"time":${clock.now()}` },
        pino.multistream([
          { level: 'warn', stream: logSink },
          { level: 'trace', stream: pino.destination({ dest: logFile, sync: true }) },
        ]),
      )
    : pino({ level: 'warn' }, logSink);
  const loaded: LoadedConfig = await loadConfig(join(dir, 'config.yaml'), { env: { OUTFIT_API_KEY: DEMO_API_KEY } });
  const ran = resolveSchedules(loaded.config, { now: WEEK }).get('hallway') ?? c.schedule;

  let daemon: Daemon | null = null;
  let shown: number | null = null;
  const up = async (): Promise<void> => {
    const d = await buildDaemon({ loaded, logger, clock });
    driver.watch(d);
    daemon = d;
    await driver.settle(d.start());
  };
  const down = async (): Promise<void> => {
    const d = daemon;
    daemon = null;
    if (d !== null) await driver.settle(d.stop());
  };
  const look = (): void => {
    const rec = daemon?.views.view('hallway')?.rec;
    if (rec) shown = Date.parse(rec.fetched_at);
  };

  // The 1 % errors: one 500 queued at a time, drawn anew after each paid request.
  let armed = false;
  let drawnAt = -1;
  const paid = (): number => sim.stats().requests.filter((r) => /\/(recweather|recommend)$/.test(r.path)).length;
  const drawError = (): void => {
    if (armed && sim.stats().pendingFaults.length === 0) armed = false;
    const n = paid();
    if (armed || n === drawnAt) return;
    drawnAt = n;
    if (draw() < ERROR_RATE) {
      sim.injectFault({ kind: 'status', status: 500, count: 1, path: 'recweather' });
      armed = true;
    }
  };
  const events = new Map<number, () => Promise<void> | void>([
    [at(1, '07:00'), () => sim.injectFault({ kind: 'status', status: 503, count: 1_000_000 })],
    [
      at(1, '07:20'),
      () => {
        sim.clearFaults();
        armed = false;
      },
    ],
    [at(2, '08:00'), () => sim.setCredits(DEMO_API_KEY, 0)],
    [at(2, '12:00'), () => sim.setCredits(DEMO_API_KEY, 1_000_000)],
    [
      at(3, '07:05'),
      async () => {
        await down();
        await up();
      },
    ],
    [at(4, '06:30'), () => gate.refuse()],
    [at(4, '08:30'), () => gate.open()],
    [at(5, '08:00'), down],
    [at(6, '08:00'), up],
  ]);

  const samples: Sample[] = [];
  try {
    drawError();
    await up();
    look();
    samples.push({ at: WEEK, fetchedAt: shown });
    for (let t = WEEK + MIN; t <= WEEK + 7 * DAY; t += MIN) {
      // Faults go in just before the minute's ticks.
      await driver.advanceTo(t - 1);
      await events.get(t)?.();
      drawError();
      await driver.advanceTo(t);
      look();
      samples.push({ at: t, fetchedAt: shown });
    }
  } finally {
    await down();
    await gate.refuse();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const requests = sim.stats().requests;
  const figures = weekFigures({
    cron: new CronTimes(ran, TIMEZONE),
    timezone: TIMEZONE,
    graceMs: GRACE_MS,
    window: parseWindow(c.window),
    samples,
    faults: FAULTS,
    purchases: requests.filter((r) => r.creditsCharged > 0).map((r) => ({ at: r.time, credits: r.creditsCharged })),
    errorHits: requests.filter((r) => r.status === 500).map((r) => r.time),
  });
  return { name: c.name, ran, ...figures, codes, seconds: (performance.now() - t0) / 1000 };
}

/** The figures of one schedule as text lines. */
export function weekText(r: WeekResult): string {
  const after = r.afterFault.map(
    (f) =>
      `    ${f.label.padEnd(38)} ${f.staleMin === null ? 'still stale at the end of the week' : `stale ${f.staleMin} min after its end`} (bound ${f.boundMin} min)`,
  );
  return [
    `  ${r.name} (${r.ran}): freshness ${r.freshnessOutside.toFixed(2)} % outside the faults (${r.staleOutside} stale min), ${r.freshnessAll.toFixed(2)} % in all`,
    ...r.staleStretches.map(
      (s) =>
        `    stale ${s.minutes} min from ${new Date(s.from).toLocaleString('en-GB', { timeZone: TIMEZONE, weekday: 'short', hour: '2-digit', minute: '2-digit' })} (outside the faults)`,
    ),
    ...after,
    `    1 % errors: ${r.errors.hits} hit, at most ${r.errors.maxStaleMin} min stale after one`,
    `    ${r.purchases} purchases, ${r.credits} credits; bought twice for a slot: ${r.twiceForSlot} (${r.wastedCredits} credits); replaced within half an interval: ${r.shortLived}`,
    `    codes logged: ${
      Object.entries(r.codes)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none'
    }; ${r.seconds.toFixed(1)} s`,
  ].join('\n');
}

/**
 * The `week` group of `npm run bench`: one line a schedule (its freshness outside the faults, against the target of
 * 99 %), the rest of its figures below it. Each week runs in a process of its own (it seeds Math.random).
 */
export function weekBenches(): Bench[] {
  const script = fileURLToPath(import.meta.url);
  return WEEK_CASES.map((c): Bench => {
    let last: WeekResult | null = null;
    return {
      name: `a week under faults, ${c.name}: fresh outside the faults`,
      group: 'week',
      unit: '%',
      digits: 2,
      target: { min: 99 },
      runs: 1,
      async measure() {
        const r = await run(process.execPath, [script, '--json', '--schedule', c.name], { timeoutMs: 300_000 });
        if (r.code !== 0) throw new Error(`the week of ${c.name} failed (${r.code}): ${r.stderr.slice(-1500)}`);
        const [result] = JSON.parse(r.stdout) as WeekResult[];
        if (result === undefined) throw new Error(`the week of ${c.name} printed no figures`);
        last = result;
        return result.freshnessOutside;
      },
      note: () => (last === null ? null : weekText(last)),
    };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { schedule: { type: 'string' }, json: { type: 'boolean' } } });
  const names = values.schedule?.split(',') ?? WEEK_CASES.map((c) => c.name);
  const results: WeekResult[] = [];
  for (const name of names) {
    const c = WEEK_CASES.find((x) => x.name === name);
    if (c === undefined) throw new Error(`--schedule: no case "${name}" (${WEEK_CASES.map((x) => x.name).join(', ')})`);
    results.push(await runWeek(c));
    if (!values.json) process.stdout.write(`${weekText(results[results.length - 1] as WeekResult)}\n`);
  }
  if (values.json) process.stdout.write(JSON.stringify(results));
}
