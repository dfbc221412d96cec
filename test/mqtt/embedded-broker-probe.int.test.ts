import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedConfig, startCli, tempConfig } from '../helpers/cli.js';
import { outsider, publishOutcome, retainedOf } from './broker-clients.js';
import { watch } from '../helpers/mqtt-watch.js';

/**
 * The outside probe, repeated against the real daemon process with `mqtt.url: embedded`: a local client publishes
 * a big retained message (OUTFIT_PROBE_MB, default 64; the probe used 200) and tries to overwrite the daemon's
 * state. The daemon's RSS is read from /proc before and after and printed.
 */

const PROBE_MB = Number(process.env.OUTFIT_PROBE_MB ?? 64);
const STATE = 'outfit-display/hallway/state';
const STATUS = 'outfit-display/status';

/** A field of /proc/<pid>/status in MB. */
function procMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

let daemon: ChildProcess;
let exited: Promise<unknown>;
let dir: string;
let url: string;

beforeAll(async () => {
  const yaml = simulatedConfig().replace('output_dir:', 'mqtt:\n  url: embedded\noutput_dir:');
  ({ dir } = await tempConfig(''));
  const file = `${dir}/config.yaml`;
  await writeFile(file, yaml);
  daemon = startCli(['run', '--config', file], { cwd: dir });
  exited = new Promise((resolve) => daemon.once('exit', resolve));
  let out = '';
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no broker URL in the daemon's log:\n${out}`)), 15_000);
    daemon.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /"url":"(mqtt:\/\/[^"]+)"[^\n]*embedded MQTT broker started/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  const w = await watch(url, [STATE]);
  await w.waitFor((all) => all.some((m) => m.topic === STATE), 'the daemon’s first state', 15_000);
  await w.close();
}, 30_000);

afterAll(async () => {
  daemon.kill('SIGTERM');
  await exited;
  await rm(dir, { recursive: true, force: true });
});

describe('the daemon’s embedded broker, probed from outside', () => {
  it(`a ${PROBE_MB} MB retained message is refused on its header: the daemon's memory stays flat`, async () => {
    const pid = daemon.pid!;
    const before = procMb(pid, 'VmRSS');
    const o = await outsider(url);
    const outcome = await publishOutcome(o, 'probe/big', Buffer.alloc(PROBE_MB * 1024 * 1024, 0x61), true);
    await o.end();
    const after = procMb(pid, 'VmRSS');
    const peak = procMb(pid, 'VmHWM');
    console.log(
      `embedded broker probe: ${PROBE_MB} MB retained → ${outcome}; daemon RSS ${before} MB before, ${after} MB after, peak ${peak} MB`,
    );
    expect(outcome).toBe('closed');
    expect(await retainedOf(url, 'probe/big', STATUS)).toBeUndefined();
    expect(after - before).toBeLessThan(32);
    expect(daemon.exitCode).toBeNull();
  }, 60_000);

  it('a subscription flood (3,000 filters a SUBSCRIBE, 100,000 from 4 clients) gets 0x80 beyond the limits: the memory stays flat', async () => {
    // Before, every filter was kept: the RSS grew by about 60 MB, and under the unit's node flags the daemon died of
    // "JavaScript heap out of memory" (at about 100,000 filters from one client). `npm run bench -- --only flood`.
    const pid = daemon.pid!;
    const before = procMb(pid, 'VmRSS');
    const clients = await Promise.all([0, 1, 2, 3].map(() => outsider(url)));
    let granted = 0;
    await Promise.all(
      clients.map(async (o, c) => {
        for (let n = 0; n < 25_000; n += 3000) {
          const filters = Array.from({ length: Math.min(3000, 25_000 - n) }, (_, i) => `f/${c}/${n + i}`);
          const codes = await o.client.subscribeAsync(filters, { qos: 0 }).then(
            (g) => g.map((x) => x.qos),
            (err: { packet?: { granted?: number[] } }) => err.packet?.granted ?? [],
          );
          granted += codes.filter((q) => q !== 0x80).length;
        }
      }),
    );
    const after = procMb(pid, 'VmRSS');
    console.log(
      `embedded broker probe: 100,000 filters → ${granted} granted; daemon RSS ${before} MB before, ${after} MB after`,
    );
    expect(clients.every((o) => !o.isClosed())).toBe(true);
    expect(granted).toBeLessThanOrEqual(4000 + 4 * 50);
    // The memory itself is the bench's (`npm run bench -- --only flood`, under the unit's node flags): here, without
    // them, V8 leaves the flood's garbage (the parsed packets) for a later GC, 24-40 MB by when it runs, and a bound on
    // RSS failed at random (CI on Node 24). What this test holds is the behaviour: the filters beyond the limits
    // refused, every client still connected, the daemon alive.
    await Promise.all(clients.map((o) => o.end()));
    expect(daemon.exitCode).toBeNull();
  }, 60_000);

  it('an anonymous client cannot overwrite the daemon’s retained state', async () => {
    const o = await outsider(url);
    expect(await publishOutcome(o, STATE, '{"outfit":"hacked"}', true)).toBe('closed');
    const state = await retainedOf(url, STATE, STATUS);
    expect((JSON.parse(state!.toString()) as { outfit: string }).outfit).not.toBe('hacked');
  });
});
