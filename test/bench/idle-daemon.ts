import { rmSync } from 'node:fs';
import { startServiceSim } from '../../src/service-sim/server.js';
import type { Bench } from './bench.js';
import type { NodeBinary } from './node-majors.js';
import { startDaemon, writeDaemonConfig } from './daemon-proc.js';
import { CLK_TCK, cpuSeconds, descendants, median, memoryOf, sleep, statusKb, within } from './proc.js';

/**
 * The daemon process idle, under the systemd unit's node flags and environment: a schedule that fires once a year,
 * after the first frame of each display at start. Once the render process that drew them has ended (render-process.ts:
 * it goes when idle) and `settleS` more have passed, it samples VmRSS every 5 s for `windowS` and reads the CPU time
 * spent in the window. A sample is the whole tree's, the daemon's and any child's, so a child that stayed would count.
 */

export interface IdleOptions {
  displays: number;
  settleS: number;
  windowS: number;
  /** The node binary the daemon runs on; default this process's. */
  node?: string;
}

export interface IdleResult {
  /** The median of the window's VmRSS samples (the daemon and its children, if any). */
  rssKb: number;
  /** Seconds from the last display's first frame to the end of the render process. */
  renderExitS: number;
  samples: number;
  /** VmHWM at the end: the peak since start (the first frames). */
  hwmKb: number;
  cpuS: number;
  windowS: number;
}

export async function measureIdle(o: IdleOptions): Promise<IdleResult> {
  const sim = await startServiceSim({ ratePerMinute: 1_000_000 });
  // The governor's rate limit above the first cycles' calls, so that every display has its frame at start.
  const { dir, file } = writeDaemonConfig({
    baseUrl: sim.url,
    schedule: '0 0 1 1 *',
    displays: o.displays,
    ratePerMinute: 600,
  });
  const d = startDaemon(file, dir, o.node);
  try {
    await within(d.started, 120_000, 'the idle daemon did not start');
    // Every display's first frame before the clock starts (start() may report ready before the last one is out).
    const frames = (): number => d.counts.get('new recommendation') ?? 0;
    for (const until = performance.now() + 120_000; frames() < o.displays; await sleep(200)) {
      if (performance.now() > until)
        throw new Error(`the idle daemon has ${frames()} of ${o.displays} recommendations after 120 s`);
    }
    const framed = performance.now();
    for (const until = framed + 120_000; descendants(d.pid).length > 1; await sleep(200)) {
      if (performance.now() > until) throw new Error('the idle daemon still has a child 120 s after its first frames');
    }
    const renderExitS = (performance.now() - framed) / 1000;
    await sleep(o.settleS * 1000);
    const c0 = cpuSeconds(d.pid);
    const t0 = performance.now();
    const end = t0 + o.windowS * 1000;
    const rss: number[] = [];
    for (let next = t0; next < end; next += 5000) {
      await sleep(Math.max(0, next - performance.now()));
      if (statusKb(d.pid, 'VmRSS') === null) throw new Error('the idle daemon is gone');
      rss.push(memoryOf(descendants(d.pid)).rssKb);
    }
    await sleep(Math.max(0, end - performance.now()));
    const c1 = cpuSeconds(d.pid);
    if (c0 === null || c1 === null) throw new Error('the idle daemon is gone');
    if (d.errors.length > 0) throw new Error(`the idle daemon logged errors: ${d.errors.join('\n')}`);
    return {
      rssKb: median(rss),
      renderExitS,
      samples: rss.length,
      hwmKb: statusKb(d.pid, 'VmHWM') ?? NaN,
      cpuS: c1 - c0,
      windowS: (performance.now() - t0) / 1000,
    };
  } finally {
    await d.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface IdleBenchOptions {
  settleS: number;
  /** The one-display daemon's window (its CPU figure needs a long one); the others' is at most 20 s. */
  windowS: number;
  /** Fresh daemons for each count of displays (a start's RSS varies from one to the next). */
  runs: number;
  /** Other Node majors (node-majors.ts): the one-display idle RSS on each, under the same 90 MB target. */
  otherNodes?: NodeBinary[];
}

const mb = (kb: number): number => kb / 1024;

/** The idle CPU and the idle RSS with 1, 5 and 20 displays (otherwise the same config), and the growth per display. */
export function idleBenches(o: IdleBenchOptions): Bench[] {
  const byCount = new Map<number, IdleResult[]>();
  const measure = async (displays: number): Promise<IdleResult> => {
    const r = await measureIdle({
      displays,
      settleS: o.settleS,
      windowS: displays === 1 ? o.windowS : Math.min(20, o.windowS),
    });
    byCount.set(displays, [...(byCount.get(displays) ?? []), r]);
    return r;
  };
  const rssOf = (displays: number): number => median((byCount.get(displays) ?? []).map((r) => r.rssKb));
  const one = (): IdleResult[] => byCount.get(1) ?? [];
  const runs = `${o.runs} daemon${o.runs === 1 ? '' : 's'}`;
  const rssBench = (displays: number, target?: number): Bench => ({
    name: `daemon idle RSS, ${displays} display${displays === 1 ? '' : 's'}`,
    group: 'idle',
    unit: 'MB',
    ...(target !== undefined && { target: { max: target } }),
    runs: o.runs,
    label: `[${runs}]`,
    async measure() {
      return mb((await measure(displays)).rssKb);
    },
    note() {
      const rs = byCount.get(displays) ?? [];
      const each = rs.map((r) => mb(r.rssKb).toFixed(1)).join(', ');
      const window = `each the median of ${rs[0]?.samples ?? 0} VmRSS samples 5 s apart, ${o.settleS} s after the render process ended (${median(rs.map((r) => r.renderExitS)).toFixed(0)} s after the first frames)`;
      const hwm = `VmHWM since start ${mb(median(rs.map((r) => r.hwmKb))).toFixed(1)} MB`;
      const growth =
        displays === 1
          ? ''
          : `; ${(mb(rssOf(displays) - rssOf(1)) / (displays - 1)).toFixed(2)} MB a display more than 1`;
      return `  (${each}: ${window}; ${hwm}${growth})`;
    },
  });
  return [
    rssBench(1, 90),
    {
      name: 'daemon idle CPU, 1 display (% of one core)',
      group: 'idle',
      unit: '%',
      digits: 2,
      runs: 1,
      label: `[the ${runs} above]`,
      measure: () => Promise.resolve(median(one().map((r) => (100 * r.cpuS) / r.windowS))),
      note() {
        const ticks = median(one().map((r) => r.cpuS)) * CLK_TCK;
        const windowS = median(one().map((r) => r.windowS));
        return (
          `  (utime+stime from /proc/<pid>/stat: ${Math.round(ticks)} ticks of 10 ms in ${windowS.toFixed(0)} s, ` +
          `resolution ${(100 / CLK_TCK / windowS).toFixed(3)} %)`
        );
      },
    },
    rssBench(5),
    rssBench(20),
    ...(o.otherNodes ?? []).map((n) => otherNodeRss(n, o)),
  ];
}

/** The one-display idle RSS on another Node major (a window of at most 20 s: the CPU figure is the running Node's). */
function otherNodeRss(n: NodeBinary, o: IdleBenchOptions): Bench {
  const results: IdleResult[] = [];
  return {
    name: `daemon idle RSS, 1 display, Node ${n.major}`,
    group: 'idle',
    unit: 'MB',
    target: { max: 90 },
    runs: o.runs,
    label: `[${o.runs} daemon${o.runs === 1 ? '' : 's'}]`,
    async measure() {
      const r = await measureIdle({
        displays: 1,
        settleS: o.settleS,
        windowS: Math.min(20, o.windowS),
        node: n.execPath,
      });
      results.push(r);
      return mb(r.rssKb);
    },
    note: () =>
      `  (${n.version}: ${results.map((r) => mb(r.rssKb).toFixed(1)).join(', ')}; VmHWM since start ${mb(median(results.map((r) => r.hwmKb))).toFixed(1)} MB)`,
  };
}
