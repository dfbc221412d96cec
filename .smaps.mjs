import { readFileSync } from 'node:fs';
import { startServiceSim } from './dist/src/service-sim/server.js';
import { startDaemon, writeDaemonConfig } from './dist/test/bench/daemon-proc.js';
const node = process.argv[2];
const sim = await startServiceSim({ ratePerMinute: 1_000_000 });
const { dir, file } = writeDaemonConfig({ baseUrl: sim.url, schedule: '0 0 1 1 *', displays: 1, ratePerMinute: 600 });
const d = startDaemon(file, dir, node);
await d.started;
await new Promise((r) => setTimeout(r, 15000));
const smaps = readFileSync(`/proc/${d.pid}/smaps`, 'utf8');
const by = new Map(); let cur = '';
for (const line of smaps.split('\n')) {
  const m = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
  if (m) { cur = m[1] || '[anon]'; cur = cur.replace(/.*\//, ''); continue; }
  const r = /^Rss:\s+(\d+) kB/.exec(line); if (r) by.set(cur, (by.get(cur) ?? 0) + Number(r[1]));
}
console.log([...by].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `${(v / 1024).toFixed(1)} ${k}`).join('\n'));
await d.stop(); await sim.close(); process.exit(0);
