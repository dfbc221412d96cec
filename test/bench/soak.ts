import { rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { startServiceSim } from '../../src/service-sim/server.js';
import { startDaemon, writeDaemonConfig } from './daemon-proc.js';
import { cpuSeconds, killAllOnExit, median, percentile, sleep, statusKb, within } from './proc.js';

/**
 * `npm run bench:soak [-- --minutes N]`: the real-time soak. The real daemon process (`node dist/cli.js run`,
 * with the systemd unit's memory settings) on a per-second schedule ("* * * * * *") for 10 minutes, against the
 * simulated service in this process (a high rate limit, so the daemon's own governor is what limits it: 54
 * requests a minute of its 60, the rest of the ticks are deferred or skipped). Samples the daemon's VmRSS every
 * few seconds, and its event-loop delay from outside: the daemon's HTTP server is on, and a GET /healthz is timed
 * every second (a keep-alive connection, so the time is the daemon's turn-around, not a TCP handshake).
 * Verdict: no growth when the median RSS of the last quarter is within the tolerance of the first quarter's.
 */

const { values: flags } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    'rss-every-s': { type: 'string', default: '5' },
    'probe-every-ms': { type: 'string', default: '1000' },
  },
});
const MINUTES = Number(flags.minutes);
const RSS_EVERY_MS = Number(flags['rss-every-s']) * 1000;
const PROBE_EVERY_MS = Number(flags['probe-every-ms']);
if (!(MINUTES > 0) || !(RSS_EVERY_MS > 0) || !(PROBE_EVERY_MS > 0))
  throw new Error('--minutes, --rss-every-s and --probe-every-ms must be positive');
/** "No growth": the last quarter's median RSS at most this much above the first quarter's. */
const TOLERANCE_RATIO = 0.05;
const TOLERANCE_MIN_KB = 4 * 1024;

const mb = (kb: number): string => `${(kb / 1024).toFixed(1)} MB`;

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function probe(url: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${url}/healthz`, { agent, timeout: 10_000 }, (res) => {
      res.resume();
      res.once('end', () => resolve(performance.now() - t0));
    });
    req.once('timeout', () => req.destroy(new Error('healthz: no answer in 10 s')));
    req.once('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  killAllOnExit();
  const sim = await startServiceSim({ ratePerMinute: 1_000_000 });
  const { dir, file } = writeDaemonConfig({ baseUrl: sim.url, schedule: '* * * * * *', http: true });
  const daemon = startDaemon(file, dir);
  const out = (s: string): boolean => process.stdout.write(`${s}\n`);
  try {
    const { httpUrl } = await within(daemon.started, 60_000, 'the daemon did not start');
    if (httpUrl === null) throw new Error('the daemon did not log its HTTP address');
    out(
      `outfit-display soak (node ${process.version}): the daemon (pid ${daemon.pid}) on "* * * * * *" for ${MINUTES} min, ` +
        `RSS every ${RSS_EVERY_MS / 1000} s, GET /healthz every ${PROBE_EVERY_MS} ms`,
    );
    const t0 = performance.now();
    const cpu0 = cpuSeconds(daemon.pid) ?? 0;
    const end = t0 + MINUTES * 60_000;
    const rss: Array<{ t: number; kb: number }> = [];
    const probes: Array<{ t: number; ms: number }> = [];
    let probeFailures = 0;
    let nextRss = t0;
    let nextProbe = t0;
    let nextReport = t0 + 60_000;
    while (performance.now() < end) {
      const now = performance.now();
      if (now >= nextRss) {
        const kb = statusKb(daemon.pid, 'VmRSS');
        if (kb === null) throw new Error('the daemon is gone');
        rss.push({ t: now - t0, kb });
        nextRss += RSS_EVERY_MS;
      }
      if (now >= nextProbe) {
        try {
          probes.push({ t: now - t0, ms: await probe(httpUrl) });
        } catch {
          probeFailures++;
        }
        nextProbe += PROBE_EVERY_MS;
      }
      if (now >= nextReport) {
        const last = rss.at(-1);
        out(
          `  ${Math.round((now - t0) / 60_000)} min: RSS ${last ? mb(last.kb) : '?'}, ` +
            `new recommendations ${daemon.counts.get('new recommendation') ?? 0}, deferred ${daemon.counts.get('deferred') ?? 0}`,
        );
        nextReport += 60_000;
      }
      await sleep(Math.max(0, Math.min(nextRss, nextProbe, end) - performance.now()));
    }
    const wallS = (performance.now() - t0) / 1000;
    const cpuS = (cpuSeconds(daemon.pid) ?? cpu0) - cpu0;
    const hwm = statusKb(daemon.pid, 'VmHWM');
    // Errors up to here: stopping aborts a cycle that waits for a rate slot, which logs E_ABORTED, as it should.
    const errors = [...daemon.errors];
    const code = await daemon.stop();

    const requests = sim.stats().requests;
    const by = (s: number): number => requests.filter((r) => r.status === s).length;
    const q = Math.max(1, Math.floor(rss.length / 4));
    const first = median(rss.slice(0, q).map((s) => s.kb));
    const last = median(rss.slice(-q).map((s) => s.kb));
    const tolerance = Math.max(first * TOLERANCE_RATIO, TOLERANCE_MIN_KB);
    const pq = Math.max(1, Math.floor(probes.length / 4));
    const ms = probes.map((p) => p.ms);
    const c = (m: string): number => daemon.counts.get(m) ?? 0;
    out('');
    out(
      `wall ${wallS.toFixed(0)} s; daemon CPU ${cpuS.toFixed(1)} s (${((100 * cpuS) / wallS).toFixed(1)} % of one core); exit code ${code}`,
    );
    out(
      `cycles: ${c('new recommendation')} new recommendations; ${c('deferred')} deferred by the governor; ` +
        `${c('tick skipped: the previous cycle is still running')} ticks skipped (a cycle in flight); ` +
        `${requests.length} requests to the service (${by(200)} x 200, ${by(429)} x 429), ` +
        `${(requests.length / (wallS / 60)).toFixed(1)}/min; ${errors.length} error log lines before the stop`,
    );
    out(
      `RSS (${rss.length} samples): first quarter median ${mb(first)}, last quarter median ${mb(last)}, ` +
        `min ${mb(Math.min(...rss.map((s) => s.kb)))}, max ${mb(Math.max(...rss.map((s) => s.kb)))}, VmHWM ${hwm === null ? '?' : mb(hwm)}`,
    );
    out(
      `event-loop delay, as GET /healthz turn-around (${probes.length} probes, ${probeFailures} failed): ` +
        `median ${median(ms).toFixed(1)} ms, p99 ${percentile(ms, 99).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms; ` +
        `median first quarter ${median(ms.slice(0, pq)).toFixed(1)} ms, last quarter ${median(ms.slice(-pq)).toFixed(1)} ms`,
    );
    for (const e of errors.slice(0, 5)) out(`  error: ${e}`);
    const grew = last - first > tolerance;
    out(
      `VERDICT: ${grew ? 'GROWTH' : 'no growth'}: last-quarter median RSS ${mb(last)} vs first ${mb(first)} ` +
        `(${last >= first ? '+' : ''}${mb(last - first)}; tolerance +${mb(tolerance)}, i.e. ${TOLERANCE_RATIO * 100} % of the first, at least ${mb(TOLERANCE_MIN_KB)})`,
    );
    if (MINUTES < 5)
      out(`  (a run of ${MINUTES} min is mostly the daemon's warm-up: the verdict is meant for the 10-minute run)`);
    if (grew || probeFailures > 0 || errors.length > 0 || code !== 0) process.exitCode = 1;
  } finally {
    await daemon.stop();
    agent.destroy();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
