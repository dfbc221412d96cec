import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import mqtt, { type MqttClient } from 'mqtt';
import { startServiceSim } from '../../src/service-sim/server.js';
import type { Bench } from './bench.js';
import { startDaemon, writeDaemonConfig } from './daemon-proc.js';
import { median, sleep, statusKb, within } from './proc.js';

/**
 * The daemon process with `mqtt.url: embedded`, under the systemd unit's node flags and environment, while guests
 * flood its broker with subscriptions the way the outside probe did: `clients` connections each send
 * SUBSCRIBEs of `perSubscribe` filters, one after another, until `filters` filters are sent in all. VmRSS is read
 * before the flood and after it (the guests still connected, holding what they were granted), and VmHWM at the end.
 * Before the broker bounded subscriptions the daemon died of "JavaScript heap out of memory" at about 90–100k.
 * `node dist/test/bench/subscription-flood.js` runs it 3 times and prints each run; `npm run bench -- --only flood`
 * reports the medians.
 */

export interface FloodOptions {
  filters: number;
  clients: number;
  perSubscribe: number;
}

export interface FloodResult {
  rssBeforeKb: number;
  /** VmHWM before the flood: the start's peak (the first frame). */
  hwmBeforeKb: number;
  /** After the flood; null when the daemon died. */
  rssAfterKb: number | null;
  hwmKb: number | null;
  /** Filters the broker granted, and refused with 0x80. */
  granted: number;
  refused: number;
  /** Filters sent until the daemon died (or all of them). */
  sent: number;
  died: boolean;
  seconds: number;
}

export const FLOOD: FloodOptions = { filters: 100_000, clients: 4, perSubscribe: 3000 };

/** One SUBSCRIBE; its SUBACK codes, or null when the connection closed first. */
async function subscribeCodes(client: MqttClient, filters: string[]): Promise<number[] | null> {
  try {
    return (await client.subscribeAsync(filters, { qos: 0 })).map((g) => g.qos);
  } catch (err) {
    // mqtt.js rejects a SUBACK with any 0x80 in it, with the packet.
    return (err as { packet?: { granted?: number[] } }).packet?.granted ?? null;
  }
}

export async function measureFlood(o: FloodOptions = FLOOD): Promise<FloodResult> {
  const sim = await startServiceSim({ ratePerMinute: 1_000_000 });
  const { dir, file } = writeDaemonConfig({ baseUrl: sim.url, schedule: '0 0 1 1 *', embeddedBroker: true });
  const d = startDaemon(file, dir);
  const clients: MqttClient[] = [];
  try {
    const { brokerUrl } = await within(d.started, 120_000, 'the daemon did not start');
    if (brokerUrl === null) throw new Error('the daemon logged no embedded broker URL');
    // Its first frame, when the daemon buys one at start (a display without one), before the clock starts.
    for (
      const until = performance.now() + 20_000;
      (d.counts.get('new recommendation') ?? 0) < 1 && performance.now() < until;
    )
      await sleep(200);
    await sleep(5000);
    const rssBeforeKb = statusKb(d.pid, 'VmRSS') ?? NaN;
    const hwmBeforeKb = statusKb(d.pid, 'VmHWM') ?? NaN;
    const t0 = performance.now();
    let granted = 0;
    let refused = 0;
    let sent = 0;
    let died = false;
    const share = Math.ceil(o.filters / o.clients);
    await Promise.all(
      Array.from({ length: o.clients }, async (_, c) => {
        const client = await mqtt.connectAsync(brokerUrl, {
          reconnectPeriod: 0,
          connectTimeout: 10_000,
          clientId: `flood-${c}`,
        });
        client.on('error', () => undefined);
        clients.push(client);
        for (let n = 0; n < share && !died; n += o.perSubscribe) {
          // Short filters, so that 3,000 fit in a guest's packet (64 KiB).
          const filters = Array.from({ length: Math.min(o.perSubscribe, share - n) }, (_, i) => `f/${c}/${n + i}`);
          sent += filters.length;
          const codes = await subscribeCodes(client, filters);
          if (codes === null) {
            // The connection closed: the daemon died, or the broker cut this client.
            died = statusKb(d.pid, 'VmRSS') === null;
            break;
          }
          for (const code of codes)
            if (code === 0x80) refused += 1;
            else granted += 1;
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    await sleep(3000);
    const alive = statusKb(d.pid, 'VmRSS');
    died ||= alive === null;
    return {
      rssBeforeKb,
      hwmBeforeKb,
      rssAfterKb: alive,
      hwmKb: statusKb(d.pid, 'VmHWM'),
      granted,
      refused,
      sent,
      died,
      seconds,
    };
  } finally {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await d.stop();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const mb = (kb: number | null): string => (kb === null ? '(dead)' : `${(kb / 1024).toFixed(1)} MB`);

export function describeFlood(r: FloodResult): string {
  return r.died
    ? `the daemon DIED after ${r.sent} filters sent (${r.granted} granted); RSS ${mb(r.rssBeforeKb)} before`
    : `RSS ${mb(r.rssBeforeKb)} before, ${mb(r.rssAfterKb)} after; peak ${mb(r.hwmBeforeKb)} before, ${mb(r.hwmKb)} after; ${r.granted} filters granted, ${r.refused} refused (0x80), in ${r.seconds.toFixed(1)} s`;
}

/** `npm run bench -- --only flood`: the daemon's RSS after the flood, median of 3 daemons. */
export function floodBenches(runs = 3): Bench[] {
  const results: FloodResult[] = [];
  return [
    {
      name: `daemon RSS after a subscription flood (${FLOOD.filters.toLocaleString('en')} filters, ${FLOOD.perSubscribe.toLocaleString('en')} a SUBSCRIBE, ${FLOOD.clients} clients)`,
      group: 'flood',
      unit: 'MB',
      runs,
      async measure() {
        const r = await measureFlood();
        results.push(r);
        if (r.died || r.rssAfterKb === null) throw new Error(`subscription flood: ${describeFlood(r)}`);
        return r.rssAfterKb / 1024;
      },
      note: () =>
        `  (before the flood ${(median(results.map((r) => r.rssBeforeKb)) / 1024).toFixed(1)} MB, peak ${(median(results.map((r) => r.hwmKb ?? NaN)) / 1024).toFixed(1)} MB; ` +
        `granted ${median(results.map((r) => r.granted))}, refused ${median(results.map((r) => r.refused))}; the unit's node flags)`,
    },
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.env.FLOOD_RUNS ?? 3);
  const all: FloodResult[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await measureFlood();
    all.push(r);
    console.log(`run ${i + 1}: ${describeFlood(r)}`);
  }
  const alive = all.filter((r) => !r.died);
  console.log(
    `median: RSS before ${mb(median(all.map((r) => r.rssBeforeKb)))} (peak ${mb(median(all.map((r) => r.hwmBeforeKb)))})` +
      (alive.length > 0
        ? `, after ${mb(median(alive.map((r) => r.rssAfterKb ?? NaN)))}, peak ${mb(median(alive.map((r) => r.hwmKb ?? NaN)))}`
        : '') +
      `; ${all.length - alive.length} of ${all.length} daemons died`,
  );
}
