import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { renderFrame } from '../../src/render/frame.js';
import { listPanelIds, loadPanel } from '../../src/render/panels.js';
import { NORMAL, sampleInput } from '../../src/render/samples.js';
import { startServiceSim } from '../../src/service-sim/server.js';

/**
 * `npm run bench`: named benches, each run several times, reported as medians. Add a bench by adding an entry
 * to BENCHES. Run from dist/ (the cold-process bench starts the compiled render module).
 */

export interface Bench {
  name: string;
  unit: string;
  /** What the issue asks for; the line says whether the median meets it. */
  target?: { max: number };
  runs: number;
  warmup?: number;
  /** One measurement. */
  measure(): Promise<number>;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const here = fileURLToPath(new URL('.', import.meta.url));
const renderFileModule = pathToFileURL(join(here, '../../src/render/render-file.js')).href;
const panelsModule = pathToFileURL(join(here, '../../src/render/panels.js')).href;
const work = mkdtempSync(join(tmpdir(), 'outfit-bench-'));
const inputPath = join(work, 'rec.json');
writeFileSync(inputPath, JSON.stringify(NORMAL));

/** A fresh node process that renders a saved Recommendation to a PNG, as the `render` command does. */
function coldRender(): { ms: number; maxRssKb: number } {
  const script = `
    const t0 = performance.now();
    const { renderRecommendationFile } = await import(${JSON.stringify(renderFileModule)});
    const { loadPanel } = await import(${JSON.stringify(panelsModule)});
    await renderRecommendationFile({ inputPath: ${JSON.stringify(inputPath)}, outPath: ${JSON.stringify(join(work, 'out.png'))},
      panel: loadPanel('waveshare-7in5-v2'), displayName: 'Hallway', timezone: 'Europe/Berlin', rotation: 0 });
    // VmHWM is this process's own peak; getrusage's maxRSS would carry the parent's over the fork and exec.
    let rss = process.resourceUsage().maxRSS;
    try {
      const m = /VmHWM:\\s+(\\d+) kB/.exec((await import('node:fs')).readFileSync('/proc/self/status', 'utf8'));
      if (m) rss = Number(m[1]);
    } catch {}
    process.stdout.write(JSON.stringify({ inner: performance.now() - t0, rss }));
  `;
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`cold render failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { rss: number };
  return { ms, maxRssKb: out.rss };
}

const panel = loadPanel('waveshare-7in5-v2');
const rssSamples: number[] = [];
const dayScript = join(here, 'day-of-cycles.js');

/** A day of cycles of two displays, accelerated, in a process under the systemd unit's heap cap. */
async function dayOfCycles(): Promise<{ ms: number; vmHwmKb: number; cycles: number; fresh: number }> {
  // The service in this process, without a rate limit: the day runs on a fake clock, minutes apart, in seconds.
  const sim = await startServiceSim({ ratePerMinute: 1_000_000 });
  const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    // The settings of systemd/outfit-display.service.
    const child = spawn(process.execPath, ['--max-old-space-size=96', '--max-semi-space-size=2', dayScript], {
      env: { ...process.env, OUTFIT_SIM_URL: sim.url, MALLOC_MMAP_THRESHOLD_: '131072' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
  await sim.close();
  if (r.status !== 0) throw new Error(`day of cycles failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { ms: number; vmHwmKb: number; cycles: number; fresh: number };
  if (out.fresh !== out.cycles) throw new Error(`day of cycles: only ${out.fresh} of ${out.cycles} cycles were fresh`);
  return out;
}
const daySamples: Array<{ ms: number; vmHwmKb: number }> = [];

export const BENCHES: Bench[] = [
  {
    name: 'warm render+quantize+encode 800x480 (normal day)',
    unit: 'ms',
    target: { max: 30 },
    runs: 21,
    warmup: 5,
    async measure() {
      const t0 = performance.now();
      await renderFrame(sampleInput('normal'), panel, { rotation: 0 });
      return performance.now() - t0;
    },
  },
  {
    name: 'warm render+quantize+encode 800x480 (120-word outfit)',
    unit: 'ms',
    target: { max: 30 },
    runs: 21,
    warmup: 5,
    async measure() {
      const t0 = performance.now();
      await renderFrame(sampleInput('long'), panel, { rotation: 0 });
      return performance.now() - t0;
    },
  },
  {
    name: 'cold `render` process (node start to PNG written)',
    unit: 'ms',
    target: { max: 600 },
    runs: 7,
    warmup: 1,
    measure() {
      const r = coldRender();
      rssSamples.push(r.maxRssKb);
      return Promise.resolve(r.ms);
    },
  },
  {
    name: 'peak RSS of the cold `render` process',
    unit: 'MB',
    target: { max: 120 },
    runs: 1,
    measure() {
      return Promise.resolve(median(rssSamples) / 1024);
    },
  },
  {
    name: 'a day of cycles, 2 displays x 288 (accelerated)',
    unit: 's',
    runs: 3,
    async measure() {
      const r = await dayOfCycles();
      daySamples.push(r);
      return r.ms / 1000;
    },
  },
  {
    name: 'peak RSS of that day, under the unit\'s memory settings',
    unit: 'MB',
    target: { max: 200 },
    runs: 1,
    measure() {
      return Promise.resolve(median(daySamples.map((d) => d.vmHwmKb)) / 1024);
    },
  },
];

async function main(): Promise<void> {
  process.stdout.write(`outfit-display bench (node ${process.version}, medians)\n`);
  for (const b of BENCHES) {
    for (let i = 0; i < (b.warmup ?? 0); i++) await b.measure();
    const values: number[] = [];
    for (let i = 0; i < b.runs; i++) values.push(await b.measure());
    const m = median(values);
    const verdict = b.target ? (m <= b.target.max ? `ok (target <= ${b.target.max})` : `OVER target <= ${b.target.max}`) : '';
    process.stdout.write(`${b.name.padEnd(56)} ${m.toFixed(1).padStart(8)} ${b.unit.padEnd(3)} ${verdict}  [${b.runs} runs]\n`);
  }
  process.stdout.write('\nPNG size of each panel\'s frame (normal day / 120-word outfit):\n');
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
  rmSync(work, { recursive: true, force: true });
}

await main();
