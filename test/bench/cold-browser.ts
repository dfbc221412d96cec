import { join } from 'node:path';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import type { Bench } from './bench.js';
import { BrowserCompare, CONVERT, type Watch, type WayResult } from './browser-compare.js';
import { COLD_RATIO_TARGET, type NodeBinary } from './node-majors.js';
import { median, type TreePeak } from './proc.js';

/**
 * The cold comparison's bench lines (browser-compare.ts makes the frames): the browser way and ours on each
 * supported Node major interleaved run by run (the order turning each run), so all see the same noise; then the
 * ratios with targets: the browser way at least 4x the time of ours on Node 22 and later and 3x on
 * Node 20, and 4x the memory (PSS summed over each process tree) on the running Node. Each round times every way
 * unwatched, then runs every way again under the memory sampler (browser-compare.ts, Watch).
 */

export interface ColdCompareOptions {
  rec: StoredRecommendation;
  /** The header's "Updated" time, as our frame shows it. */
  updated: string;
  runs: number;
  /** The repository: the last frames go to display/compare/ in it. */
  repoRoot: string;
  /** Ours is run on each (node-majors.ts); the first is the running Node, whose memory the memory lines report. */
  nodes: NodeBinary[];
}

const mbOf = (kb: number): number => kb / 1024;
const medOf = (ws: WayResult[], f: (w: WayResult) => number): number => median(ws.map(f));
/** The peak of a run watched for memory. */
const peakOf = (w: WayResult): TreePeak => {
  if (!w.peak) throw new Error('a run timed without the sampler has no peak');
  return w.peak;
};

export function coldBrowserBenches(o: ColdCompareOptions): Bench[] {
  const first = o.nodes[0];
  if (!first) throw new Error('the cold comparison needs at least one node');
  // Timed runs, and the runs under the memory sampler apart.
  const cmp = { ours: o.nodes.map((): WayResult[] => []), browser: [] as WayResult[], images: [] as string[] };
  const mem = { ours: o.nodes.map((): WayResult[] => []), browser: [] as WayResult[] };
  let compare: BrowserCompare | null = null;
  let warmed = false;
  /** One round: the browser way and ours on each node, timed, then again under the sampler; the order turned each round. */
  const compareRun = async (): Promise<number> => {
    if (!compare) {
      const made = new BrowserCompare(o.rec, 'Hallway', o.updated);
      // Its temporary folder goes even when a bench fails before the last line's cleanup.
      process.once('exit', () => made.close());
      compare = made;
    }
    const c = compare;
    const ways = (watch: Watch, into: typeof mem): Array<() => Promise<void>> => [
      async () => void into.browser.push(await c.browser(watch)),
      ...o.nodes.map((n, i) => async () => void into.ours[i]!.push(await c.ours(watch, n.execPath))),
    ];
    if (!warmed) {
      // One unrecorded run of each: the page cache holds chromium, each node and the fonts, as on a machine in use,
      // and each major has its compiled-module cache (Node 22.1+) written.
      await c.browser('time');
      for (const n of o.nodes) await c.ours('time', n.execPath);
      warmed = true;
    }
    const turn = cmp.browser.length % (o.nodes.length + 1);
    for (const [watch, into] of [
      ['time', cmp],
      ['memory', mem],
    ] as const) {
      const all = ways(watch, into);
      for (const way of [...all.slice(turn), ...all.slice(0, turn)]) await way();
    }
    return cmp.ours[0]!.at(-1)!.ms;
  };
  const timeRatio = (i: number): number => medOf(cmp.browser, (w) => w.ms) / medOf(cmp.ours[i]!, (w) => w.ms);
  const memRatio = (i: number, f: (p: TreePeak) => number): number =>
    medOf(mem.browser, (w) => f(peakOf(w))) / medOf(mem.ours[i]!, (w) => f(peakOf(w)));
  const oursPeak = (i: number, f: (p: TreePeak) => number): number => medOf(mem.ours[i]!, (w) => f(peakOf(w)));
  const browserPeak = (f: (p: TreePeak) => number): number => medOf(mem.browser, (w) => f(peakOf(w)));
  const above = `[median of the ${o.runs} runs above]`;
  const sampled = `[median of ${o.runs} runs of its own, under the sampler]`;
  const interleaved = `[medians of the ${o.runs} interleaved runs above]`;
  const on = (n: NodeBinary): string => `Node ${n.major}`;
  return [
    ...o.nodes.map((n, i): Bench => ({
      name: `ours: \`render\` CLI process, 800x480 1-bit, ${on(n)}`,
      group: 'browser cold',
      unit: 'ms',
      runs: i === 0 ? o.runs : 1,
      ...(i === 0 ? {} : { label: `[${o.runs} runs, interleaved]` }),
      measure: i === 0 ? compareRun : () => Promise.resolve(medOf(cmp.ours[i]!, (w) => w.ms)),
      // The PSS of the npx binaries is higher than the running Node's: no other process maps their pages, where
      // the running Node's are shared with this bench's own process. RSS compares the majors.
      note: () =>
        `  (${n.version}: peak RSS ${mbOf(oursPeak(i, (p) => p.rssKb)).toFixed(1)} MB, PSS ${mbOf(oursPeak(i, (p) => p.pssKb)).toFixed(1)} MB)`,
    })),
    {
      name: `ours: peak memory of the process (PSS), ${on(first)}`,
      group: 'browser cold',
      unit: 'MB',
      runs: 1,
      label: sampled,
      measure: () => Promise.resolve(mbOf(oursPeak(0, (p) => p.pssKb))),
      note: () => `  (RSS ${mbOf(oursPeak(0, (p) => p.rssKb)).toFixed(1)} MB)`,
    },
    {
      name: 'chromium --headless --screenshot + convert, wall time',
      group: 'browser cold',
      unit: 'ms',
      runs: 1,
      label: above,
      measure: () => Promise.resolve(medOf(cmp.browser, (w) => w.ms)),
      note: () =>
        `  (${browserPeak((p) => p.maxProcesses)} processes at once, ${browserPeak((p) => p.processes)} in all; a fresh profile each run)`,
    },
    {
      name: 'chromium+convert: peak memory, process tree (PSS)',
      group: 'browser cold',
      unit: 'MB',
      runs: 1,
      label: sampled,
      measure: () => Promise.resolve(mbOf(browserPeak((p) => p.pssKb))),
      note: () => `  (RSS summed over the tree ${mbOf(browserPeak((p) => p.rssKb)).toFixed(1)} MB)`,
    },
    ...o.nodes.map((n, i): Bench => {
      const target = COLD_RATIO_TARGET[n.major];
      return {
        name: `cold: chromium+convert / ours, wall time, ${on(n)}`,
        group: 'browser cold',
        unit: 'x',
        ...(target !== undefined && { target: { min: target } }),
        runs: 1,
        label: interleaved,
        measure: () => Promise.resolve(timeRatio(i)),
      };
    }),
    {
      name: `cold: chromium+convert / ours, peak memory (PSS), ${on(first)}`,
      group: 'browser cold',
      unit: 'x',
      target: { min: 4 },
      runs: 1,
      label: `[medians of the ${o.runs} interleaved runs under the sampler]`,
      measure: () => Promise.resolve(memRatio(0, (p) => p.pssKb)),
      note: () => {
        const others = o.nodes.slice(1).map((n, j) => `${on(n)} ${memRatio(j + 1, (p) => p.pssKb).toFixed(1)}x`);
        const byRss = `${memRatio(0, (p) => p.rssKb).toFixed(1)}x by RSS summed`;
        return `  (${[byRss, ...others].join('; ')})\n  1-bit frames: ${cmp.images.join(', ')}`;
      },
      cleanup() {
        if (compare) {
          const saved = compare.saveImages(join(o.repoRoot, 'display/compare'), CONVERT);
          cmp.images = saved.map((p) => p.slice(o.repoRoot.length + 1));
          compare.close();
          compare = null;
        }
        return Promise.resolve();
      },
    },
  ];
}
