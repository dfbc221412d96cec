import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../../src/config/load.js';
import { packageRoot } from '../../src/shared/package-root.js';
import { buildDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { renderFrame } from '../../src/render/frame.js';
import { listPanelIds, loadPanel, type PanelProfile } from '../../src/panels/panels.js';
import { DEMO_API_KEY, startServiceSim, type RunningServiceSim } from '../../src/service-sim/server.js';
import { verdict, type Bench } from './bench.js';
import {
  BASELINE_TOLERANCE,
  baselineNote,
  movedPastBaseline,
  readBaseline,
  recordingContext,
  withRecorded,
  writeBaseline,
  type BaselineEntry,
} from './baseline.js';
import {
  COLD_RENDER_CPU_LINE,
  COLD_RENDER_LINE,
  COLD_RENDER_PEAK_LINE,
  ColdRender,
  type ColdRenderRun,
} from './cold-render.js';
import { browserToolsMissing } from './browser-compare.js';
import { coldBrowserBenches } from './cold-browser.js';
import { CLI, UNIT_ENV, UNIT_NODE_FLAGS, writeDaemonConfig } from './daemon-proc.js';
import { idleBenches } from './idle-daemon.js';
import { floodBenches } from './subscription-flood.js';
import { warmBrowserBenches } from './warm-browser.js';
import { weekBenches } from './week-under-faults.js';
import { householdBenches } from './household-weeks.js';
import { nodeMajors, SUPPORTED_MAJORS } from './node-majors.js';
import { killAllOnExit, median, run, sampleTree, type TreePeak } from './proc.js';
import { NORMAL, sampleInput, STRESS_SAMPLES } from '../fixtures/samples.js';
import { householdInput } from '../fixtures/household-samples.js';

/**
 * `npm run bench`: named benches, each run several times, reported as medians. Add a bench by adding an entry
 * to BENCHES. Run from dist/ (the cold-process benches start the compiled modules and dist/cli.js).
 * `npm run bench -- --only TEXT` runs the benches whose group contains TEXT (warm, cold, cycle, idle, day, browser,
 * png, flood, week, household; "browser cold", "browser warm" and "warm household" apart). Idle daemons: `--idle-seconds N` sets the one-display daemon's
 * sampling window (default 60; the others' is at most 20), `--idle-runs N` how many daemons of each size (default 3).
 * The cold comparison and the one-display idle RSS run on every supported Node major (node-majors.ts: the others
 * through `npx -y node@N`); `--node 20,26` names the majors.
 * The lines marked `baseline` are compared with test/bench/baseline.json (baseline.ts); `--record-baseline` writes
 * the ones that ran into it.
 * The real-time soak is separate: `npm run bench:soak`.
 */

const { values: flags } = parseArgs({
  options: {
    only: { type: 'string' },
    'idle-seconds': { type: 'string', default: '60' },
    'idle-runs': { type: 'string', default: '3' },
    node: { type: 'string' },
    'record-baseline': { type: 'boolean', default: false },
  },
});
const IDLE_SETTLE_S = 10;
const IDLE_WINDOW_S = Number(flags['idle-seconds']);
if (!(IDLE_WINDOW_S > 0)) throw new Error('--idle-seconds must be positive');
const IDLE_RUNS = Number(flags['idle-runs']);
if (!Number.isInteger(IDLE_RUNS) || IDLE_RUNS < 1) throw new Error('--idle-runs must be a whole number >= 1');
const RUNNING_MAJOR = Number(process.versions.node.split('.')[0]);
const THIS_NODE = { major: RUNNING_MAJOR, version: process.version, execPath: process.execPath };
const MAJORS = flags.node === undefined ? [...SUPPORTED_MAJORS] : flags.node.split(',').map(Number);
if (!MAJORS.every((m) => Number.isInteger(m) && m > 0)) throw new Error('--node must list Node majors, such as 20,26');
/** The other majors' binaries are looked up (npx) only when a bench that runs them is selected. */
const MAJOR_GROUPS = ['browser cold', 'idle'];
const majors =
  flags.only === undefined || MAJOR_GROUPS.some((g) => g.includes(flags.only!))
    ? nodeMajors(MAJORS.filter((m) => m !== RUNNING_MAJOR))
    : { nodes: [], missing: [] };
// The running Node first: the memory lines and the other benches are its.
const NODES = [THIS_NODE, ...majors.nodes];

const here = fileURLToPath(new URL('.', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'outfit-bench-'));
const cold = new ColdRender({ work, rec: NORMAL });

const panel = loadPanel('waveshare-7in5-v2');
/** The cold `render`'s runs, and what each measured (the warm-up's left out). */
const COLD_RUNS = 15;
const coldRuns: ColdRenderRun[] = [];
const ofColdRuns = (f: (r: ColdRenderRun) => number): number => median(coldRuns.slice(-COLD_RUNS).map(f));
const dayScript = join(here, 'day-of-cycles.js');

/** A day of cycles of two displays, accelerated, in a process under the systemd unit's heap cap. */
interface DayResult {
  ms: number;
  /** The peaks of the daemon and its render process together, sampled every 50 ms. */
  tree: TreePeak;
  /** The daemon's peak RSS, and its render process's. */
  vmHwmKb: number;
  renderHwmKb: number;
  renderStarts: number;
  cycles: number;
  fresh: number;
}

async function dayOfCycles(): Promise<DayResult> {
  // The service in this process, without a rate limit: the day runs on a fake clock, minutes apart, in seconds.
  const sim = await startServiceSim({ ratePerMinute: 1_000_000 });
  const r = await new Promise<{ status: number | null; stdout: string; stderr: string; tree: TreePeak }>((resolve) => {
    // The settings of systemd/outfit-display.service.
    const child = spawn(process.execPath, [...UNIT_NODE_FLAGS, dayScript], {
      env: { ...process.env, OUTFIT_SIM_URL: sim.url, ...UNIT_ENV },
    });
    const sampler = sampleTree(child.pid!, 50);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr, tree: sampler.stop() }));
  });
  await sim.close();
  if (r.status !== 0) throw new Error(`day of cycles failed: ${r.stderr}`);
  const out = { ...(JSON.parse(r.stdout) as Omit<DayResult, 'tree'>), tree: r.tree };
  if (out.fresh !== out.cycles) throw new Error(`day of cycles: only ${out.fresh} of ${out.cycles} cycles were fresh`);
  return out;
}
const daySamples: DayResult[] = [];

/** The whole cycle in this process: the real daemon's runOnce over real HTTP to the simulated service, then files. */
interface CycleRig {
  sim: RunningServiceSim;
  daemon: Daemon;
  dir: string;
  /** A second config (its own state and frames) for the cold `once` process. */
  onceDir: string;
  onceFile: string;
}
let cycleRig: CycleRig | null = null;
async function cycleRigUp(): Promise<CycleRig> {
  if (cycleRig) return cycleRig;
  // No rate limit in the way: the service's is high, the governor's 60 000 a minute; the budget is ample.
  const sim = await startServiceSim({ ratePerMinute: 1_000_000 });
  const { dir, file } = writeDaemonConfig({ baseUrl: sim.url, schedule: '0 0 1 1 *', ratePerMinute: 60_000 });
  const once = writeDaemonConfig({ baseUrl: sim.url, schedule: '0 0 1 1 *', ratePerMinute: 60_000 });
  const loaded = await loadConfig(file, { env: { OUTFIT_API_KEY: DEMO_API_KEY } });
  const daemon = await buildDaemon({ loaded, logger: pino({ level: 'silent' }) });
  cycleRig = { sim, daemon, dir, onceDir: once.dir, onceFile: once.file };
  return cycleRig;
}
async function cycleRigDown(): Promise<void> {
  if (!cycleRig) return;
  const { sim, daemon, dir, onceDir } = cycleRig;
  cycleRig = null;
  await daemon.stop();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(onceDir, { recursive: true, force: true });
}

const updated = new Date(NORMAL.fetched_at).toLocaleTimeString('en-GB', {
  timeZone: 'Europe/Berlin',
  hour: '2-digit',
  minute: '2-digit',
});
// The cold comparison's median is of nine rounds: a cold start of either side varies by tens of percent from round
// to round, and a median of fewer rounds moves across the ratio's target between two runs of the bench.
const COMPARE_RUNS = 9;
const WARM_COMPARE_RUNS = 15;
const browserMissing = browserToolsMissing();
const repoRoot = packageRoot();

const perPanel = listPanelIds().map((id) => loadPanel(id));
/** The speed targets are for a 1-bit 800x480 frame; the colour and grey panels are listed without one. */
const oneBit800x480 = (p: PanelProfile): boolean => p.png.bit_depth === 1 && p.width * p.height === 800 * 480;

/** Render, quantize and encode one frame in this (warm) process; the 30 ms target is for 1-bit 800x480 frames. */
function warmRender(
  name: string,
  group: string,
  p: PanelProfile,
  sample: 'normal' | 'long' | 'long-word',
  warmup: number,
  target = 30,
): Bench {
  const input =
    sample === 'long-word'
      ? { ...sampleInput('normal'), rec: STRESS_SAMPLES['long-word']!, garments: undefined }
      : sampleInput(sample);
  return {
    name,
    group,
    unit: 'ms',
    ...(oneBit800x480(p) && { target: { max: target } }),
    runs: 21,
    warmup,
    async measure() {
      const t0 = performance.now();
      await renderFrame(input, p, { rotation: 0 });
      return performance.now() - t0;
    },
  };
}

/**
 * A household frame of four in this (warm) process: the frame tries the ways its people can share it
 * (household-arrangement.ts) where an outfit would be cut on the even split. Reported, no target.
 */
function warmHousehold(p: PanelProfile, rotation: 0 | 90): Bench {
  return {
    name: `warm household of four ${p.id} at ${rotation}`,
    group: 'warm household',
    unit: 'ms',
    runs: 11,
    warmup: 2,
    async measure() {
      const t0 = performance.now();
      await renderFrame(householdInput('household-4'), p, { rotation });
      return performance.now() - t0;
    },
  };
}

export const BENCHES: Bench[] = [
  warmRender('warm render+quantize+encode 800x480 (normal day)', 'warm 800x480', panel, 'normal', 5),
  warmRender('warm render+quantize+encode 800x480 (120-word outfit)', 'warm 800x480', panel, 'long', 5),
  // An outfit ending in a word of 10,400 characters: laid out in time in proportion to its length.
  warmRender(
    'warm render+quantize+encode 800x480 (outfit ending in a 10,400-character word)',
    'warm 800x480',
    panel,
    'long-word',
    3,
    200,
  ),
  ...perPanel.map((p) => warmRender(`warm render ${p.id} ${p.width}x${p.height}`, 'warm per panel', p, 'normal', 3)),
  ...(['waveshare-7in5-v2', 'kindle-paperwhite'] as const).flatMap((id) =>
    ([0, 90] as const).map((r) => warmHousehold(loadPanel(id), r)),
  ),
  {
    name: COLD_RENDER_LINE,
    group: 'cold 800x480',
    unit: 'ms',
    target: { max: 600 },
    baseline: true,
    runs: COLD_RUNS,
    // Writes the bench's own disk caches, which the runs then read.
    warmup: 1,
    async measure() {
      const r = await cold.run();
      coldRuns.push(r);
      return r.ms;
    },
  },
  {
    name: COLD_RENDER_PEAK_LINE,
    group: 'cold 800x480',
    unit: 'MB',
    target: { max: 120 },
    baseline: true,
    runs: 1,
    label: `[median of the ${COLD_RUNS} runs above]`,
    measure() {
      return Promise.resolve(ofColdRuns((r) => r.peakKb) / 1024);
    },
  },
  {
    name: COLD_RENDER_CPU_LINE,
    group: 'cold 800x480',
    unit: 'ms',
    baseline: true,
    runs: 1,
    label: `[median of the ${COLD_RUNS} runs above]`,
    measure() {
      return Promise.resolve(ofColdRuns((r) => r.cpuMs));
    },
  },
  ...perPanel.map((p): Bench => ({
    name: `cold render process ${p.id}`,
    group: 'cold per panel',
    unit: 'ms',
    ...(oneBit800x480(p) && { target: { max: 600 } }),
    runs: 3,
    // The glyphs of this panel's sizes into the cache.
    warmup: 1,
    async measure() {
      return (await cold.run(p.id)).ms;
    },
  })),
  {
    name: 'whole cycle in the daemon: fetch -> render -> files',
    group: 'cycle',
    unit: 'ms',
    runs: 21,
    warmup: 3,
    async measure() {
      const { daemon } = await cycleRigUp();
      const t0 = performance.now();
      const results = await daemon.runOnce(undefined, 'once');
      const ms = performance.now() - t0;
      for (const [id, r] of results)
        if (r.outcome !== 'fresh' || !r.published)
          throw new Error(`cycle of ${id}: ${r.outcome}, published ${r.published}`);
      return ms;
    },
    note: () =>
      '  (runOnce of the real daemon in this process; real HTTP to the simulated service on 127.0.0.1, state and frames written with fsync)',
  },
  {
    name: 'cold `once` process (node start to exit)',
    group: 'cycle',
    unit: 'ms',
    runs: 5,
    warmup: 1,
    async measure() {
      const rig = await cycleRigUp();
      const r = await run(process.execPath, [CLI, 'once', '--config', rig.onceFile], {
        cwd: rig.onceDir,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, OUTFIT_API_KEY: DEMO_API_KEY },
      });
      if (r.code !== 0) throw new Error(`once failed (${r.code}): ${r.stderr.slice(-1500)}`);
      return r.ms;
    },
    cleanup: cycleRigDown,
  },
  ...idleBenches({ settleS: IDLE_SETTLE_S, windowS: IDLE_WINDOW_S, runs: IDLE_RUNS, otherNodes: majors.nodes }),
  ...floodBenches(),
  {
    name: 'a day of cycles, 2 displays x 288 (accelerated)',
    group: 'day',
    unit: 's',
    runs: 3,
    async measure() {
      const r = await dayOfCycles();
      daySamples.push(r);
      return r.ms / 1000;
    },
  },
  {
    // The daemon and its render process share the node binary's pages, which the unit's cgroup (MemoryHigh,
    // MemoryMax) charges once: their VmRSS added counts them twice, an upper bound of what the cgroup holds.
    name: "peak RSS of that day, daemon and render process together, under the unit's memory settings",
    group: 'day',
    unit: 'MB',
    target: { max: 200 },
    runs: 1,
    label: '[median of the 3 runs above]',
    measure() {
      return Promise.resolve(median(daySamples.map((d) => d.tree.rssKb)) / 1024);
    },
    note: () =>
      `  (their VmRSS added every 50 ms, shared pages counted twice; their PSS added ${(median(daySamples.map((d) => d.tree.pssKb)) / 1024).toFixed(1)} MB at most, ` +
      `shared pages split, with this bench's own node among them; ` +
      `each one's peak: the daemon ${(median(daySamples.map((d) => d.vmHwmKb)) / 1024).toFixed(1)} MB, the render process ` +
      `${(median(daySamples.map((d) => d.renderHwmKb)) / 1024).toFixed(1)} MB, started ${median(daySamples.map((d) => d.renderStarts))} time(s) in the day)`,
  },
  ...weekBenches(),
  ...householdBenches(),
  ...(browserMissing !== null
    ? []
    : [
        ...coldBrowserBenches({ rec: NORMAL, updated, runs: COMPARE_RUNS, repoRoot, nodes: NODES }),
        ...warmBrowserBenches({ panel, rec: NORMAL, updated, runs: WARM_COMPARE_RUNS }),
      ]),
];

async function main(): Promise<void> {
  killAllOnExit();
  const only = flags.only;
  const selected = BENCHES.filter((b) => only === undefined || (b.group ?? b.name).includes(only));
  process.stdout.write(
    `outfit-display bench (node ${process.version}, medians${only === undefined ? '' : `, --only ${JSON.stringify(only)}`})\n`,
  );
  if (browserMissing !== null)
    process.stdout.write(`(the headless-browser comparison is skipped: ${browserMissing})\n`);
  if (majors.nodes.length > 0)
    process.stdout.write(
      `(the cold comparison and the idle RSS also on ${majors.nodes.map((n) => n.version).join(', ')}, through npx)\n`,
    );
  for (const m of majors.missing) process.stdout.write(`(left out: ${m})\n`);
  const baseline = readBaseline();
  const recorded: Record<string, BaselineEntry> = {};
  const moved: string[] = [];
  try {
    for (const b of selected) {
      try {
        for (let i = 0; i < (b.warmup ?? 0); i++) await b.measure();
        const values: number[] = [];
        for (let i = 0; i < b.runs; i++) values.push(await b.measure());
        const m = median(values);
        process.stdout.write(
          `${b.name.padEnd(56)} ${m.toFixed(b.digits ?? 1).padStart(8)} ${b.unit.padEnd(3)} ${verdict(b, m)}  ${b.label ?? `[${b.runs} run${b.runs === 1 ? '' : 's'}]`}\n`,
        );
        if (b.baseline) {
          const line = baselineNote(baseline, b.name, m, b.unit);
          process.stdout.write(`${line}\n`);
          if (movedPastBaseline(line)) moved.push(b.name);
          recorded[b.name] = { median: Number(m.toFixed(1)), unit: b.unit, ...recordingContext() };
        }
      } finally {
        await b.cleanup?.();
      }
      const note = b.note?.();
      if (note) process.stdout.write(`${note}\n`);
    }
    if (only === undefined || 'png sizes'.includes(only)) await pngSizes();
    if (moved.length > 0) {
      process.stdout.write(
        `\nMoved more than ${BASELINE_TOLERANCE * 100} % from test/bench/baseline.json: ${moved.join('; ')}.\n`,
      );
    }
    if (flags['record-baseline']) {
      if (Object.keys(recorded).length === 0)
        process.stdout.write('\nNothing recorded: no line with a baseline ran (--only "cold 800x480" runs them).\n');
      else {
        writeBaseline(withRecorded(baseline, recorded));
        process.stdout.write(`\nRecorded in test/bench/baseline.json: ${Object.keys(recorded).join('; ')}.\n`);
      }
    }
  } finally {
    await cycleRigDown();
    rmSync(work, { recursive: true, force: true });
  }
}

async function pngSizes(): Promise<void> {
  process.stdout.write("\nPNG size of each panel's frame (normal day / 120-word outfit):\n");
  for (const id of listPanelIds()) {
    const p = loadPanel(id);
    const normal = await renderFrame(sampleInput('normal'), p, { rotation: 0 });
    const long = await renderFrame(sampleInput('long'), p, { rotation: 0 });
    const target = p.png.bit_depth === 1 && p.width * p.height === 800 * 480 ? ' (target <= 20 KB)' : '';
    const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
    process.stdout.write(
      `  ${id.padEnd(20)} ${`${p.width}x${p.height}`.padEnd(10)} ${`${p.png.colour_type} ${p.png.bit_depth}-bit`.padEnd(12)} ${kb(normal.png.length).padStart(9)} / ${kb(long.png.length).padStart(9)}${target}\n`,
    );
  }
}

await main();
