import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { FakeClock } from '../helpers/fake-clock.js';
import { loadConfig } from '../../src/config/load.js';
import { buildDaemon } from '../../src/daemon/daemon.js';
import { RenderProcess } from '../../src/render/render-process.js';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import { systemClock } from '../../src/time/clock.js';

/**
 * A day of cycles, accelerated: the real daemon (client over real HTTP, governor, render, files) runs one cycle
 * every 5 minutes of a FakeClock for 24 hours. The simulated service runs in the bench's own process (its URL in
 * OUTFIT_SIM_URL), so this process holds only what the daemon holds on a Pi. It draws in a render process, as `run`
 * does (the day's cycles come faster than its idle timeout, so one child draws them all). Run by the bench under the
 * unit's node flags; prints JSON with the peak RSS (VmHWM) of this process and of the render process, and the heap at
 * the end.
 */
const CYCLES = 288;

function vmHwmKb(pid: number | 'self'): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmHWM for ${pid}`);
  return Number(m[1]);
}

const dir = mkdtempSync(join(tmpdir(), 'outfit-day-'));
writeFileSync(
  join(dir, 'config.yaml'),
  [
    `api: { base_url: "${process.env.OUTFIT_SIM_URL ?? 'simulated'}" }`,
    'budget: { credits_per_day: 3000 }',
    'timezone: Europe/Berlin',
    'displays:',
    '  - { id: hallway, lat: 52.52, lon: 13.405, panel: waveshare-7in5-v2, schedule: "*/5 * * * *" }',
    '  - { id: kitchen, lat: 48.14, lon: 11.58, panel: waveshare-7in3-f, schedule: "*/5 * * * *" }',
    'output_dir: frames',
    'state_dir: state',
    '',
  ].join('\n'),
);
const clock = new FakeClock(Date.UTC(2026, 10, 21, 0, 0));
const loaded = await loadConfig(join(dir, 'config.yaml'), { env: { OUTFIT_API_KEY: DEMO_API_KEY } });
const renderer = new RenderProcess({ clock: systemClock, env: process.env });
const daemon = await buildDaemon({ loaded, logger: pino({ level: 'silent' }), clock, draw: renderer.draw });
const t0 = performance.now();
let fresh = 0;
for (let i = 0; i < CYCLES; i++) {
  for (const r of (await daemon.runOnce(undefined, 'schedule')).values()) if (r.outcome === 'fresh') fresh++;
  clock.advance(5 * 60_000);
}
const ms = performance.now() - t0;
await daemon.stop();
const renderPid = renderer.pid;
if (renderPid === null) throw new Error('no render process at the end of the day');
const renderHwmKb = vmHwmKb(renderPid);
const renderStarts = renderer.starts;
await renderer.close();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(
  JSON.stringify({
    cycles: CYCLES * 2,
    fresh,
    ms,
    vmHwmKb: vmHwmKb('self'),
    renderHwmKb,
    renderStarts,
    heapUsedKb: process.memoryUsage().heapUsed / 1024,
  }),
);
