import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLedger } from '../../src/budget/ledger-file.js';
import { loadConfig } from '../../src/config/load.js';
import { buildDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { configYaml, HOUSEHOLD_PEOPLE_YAML } from '../helpers/config-yaml.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { freePort } from '../helpers/free-port.js';
import { httpRequest } from '../helpers/http-client.js';
import { until } from '../helpers/until.js';

/**
 * A household through the whole daemon: the built-in simulated service over real HTTP, the HTTP frame server on a
 * loopback port, a fake clock. Two displays at one place: the hallway dresses Anna and Ben, the kitchen Anna; a porch
 * display of one outfit (no `people`) works as before. Anna's request is the same on both displays: one purchase.
 */

const PEOPLE = HOUSEHOLD_PEOPLE_YAML;

interface Rig {
  daemon: Daemon;
  dir: string;
  http: string;
  clock: FakeClock;
  away: Set<string>;
  paid: () => Promise<number>;
}

let running: Daemon[] = [];
afterEach(async () => {
  await Promise.all(running.map((d) => d.stop()));
  running = [];
});

async function rig(o: { dir?: string; at?: number } = {}): Promise<Rig> {
  const dir = o.dir ?? (await mkdtemp(path.join(tmpdir(), 'outfit-household-')));
  const port = await freePort();
  const yaml = configYaml({
    creditsPerDay: 3000,
    displays: [
      { id: 'hallway', panel: 'waveshare-4in2', schedule: '*/10 * * * *', more: ['people: [anna, ben]'] },
      { id: 'kitchen', panel: 'waveshare-4in2', schedule: '*/10 * * * *', more: ['people: [anna]'] },
      { id: 'porch', panel: 'waveshare-4in2', schedule: '*/10 * * * *', more: ['gender: female'] },
    ],
    sections: [...PEOPLE, 'http:', `  listen: 127.0.0.1:${port}`],
  });
  await writeFile(path.join(dir, 'config.yaml'), yaml);
  const loaded = await loadConfig(path.join(dir, 'config.yaml'));
  const clock = new FakeClock(o.at ?? Math.floor(Date.now() / 600_000) * 600_000 + 30_000);
  const away = new Set<string>();
  const daemon = await buildDaemon({
    loaded,
    logger: capturingLogger().logger,
    clock,
    env: {},
    presence: { isHome: (id) => !away.has(id) },
    offsetOf: (id) => (id === 'ben' ? -4 : 0),
  });
  running.push(daemon);
  return {
    daemon,
    dir,
    http: `http://127.0.0.1:${port}`,
    clock,
    away,
    async paid() {
      const res = await fetch(`${daemon.baseUrl.replace(/\/v1$/, '')}/_sim/stats`);
      const stats = (await res.json()) as { requests: { path: string }[] };
      return stats.requests.filter((r) => /\/(recweather|recommend)$/.test(r.path)).length;
    },
  };
}

type Person = Record<string, unknown> & { id: string; outfit: string | null };

async function stateOf(r: Rig, id: string): Promise<Record<string, unknown> & { people?: Person[] }> {
  return (await httpRequest(`${r.http}/displays/${id}/state.json`)).json();
}

describe('a household display', () => {
  it('buys one answer per distinct request, across displays; each person is in state.json; a restart keeps them', async () => {
    const r = await rig();
    const results = await r.daemon.runOnce(undefined, 'schedule');
    expect([...results.values()].map((x) => x.outcome)).toEqual(['fresh', 'fresh', 'fresh']);
    // Anna (hallway and kitchen: one request), Ben, and the porch of one outfit, which buys as before.
    expect(await r.paid()).toBe(3);
    const ledger = await readLedger(path.join(r.dir, 'state', 'budget-ledger.json'));
    if (ledger.kind !== 'ok') throw new Error(`the ledger: ${ledger.kind}`);
    // Three purchases of /recweather (3 credits each): Anna's second display spent nothing.
    expect(ledger.state.dayCharged).toBe(9);

    const hall = await stateOf(r, 'hallway');
    expect(hall.people?.map((p) => p.id)).toEqual(['anna', 'ben']);
    for (const p of hall.people ?? []) {
      expect(p).toMatchObject({ away: false, stale: false });
      expect(typeof p.outfit).toBe('string');
      expect(p.garments).toEqual(expect.any(Array));
      expect(p.pictograms).toEqual(expect.any(Array));
      expect(String(p.fetched_at)).toMatch(/\+0[12]:00$/);
    }
    expect(hall.people?.[1]).toMatchObject({ offset_c: -4 });
    expect(hall.people?.[0]).toMatchObject({ offset_c: 0, additions: [] });
    // The display's own answer is its first person's: its file and the top of state.json.
    expect(hall.outfit).toBe(hall.people?.[0]?.outfit);
    const file = JSON.parse(await readFile(path.join(r.dir, 'frames', 'hallway.json'), 'utf8')) as { outfit: string };
    expect(file.outfit).toBe(hall.people?.[0]?.outfit);
    const kitchen = await stateOf(r, 'kitchen');
    expect(kitchen.people).toHaveLength(1);
    expect(kitchen.people?.[0]).toMatchObject({ id: 'anna', outfit: hall.people?.[0]?.outfit });
    expect(kitchen.people?.[0]?.fetched_at).toBe(hall.people?.[0]?.fetched_at);
    // A display of one outfit is as it was: no `people`.
    expect(await stateOf(r, 'porch')).not.toHaveProperty('people');
    await r.daemon.stop();

    // The display's own file lost: its people's answers are each in their own file, and show it again.
    await rm(path.join(r.dir, 'state', 'last', 'hallway.json'));
    const again = await rig({ dir: r.dir, at: r.clock.now() + 60_000 });
    await again.daemon.start();
    const back = await stateOf(again, 'hallway');
    expect(back.people?.map((p) => p.outfit)).toEqual(hall.people?.map((p) => p.outfit));
    expect(back.outfit).toBe(hall.outfit);
    expect(back.status).toBe('ok');
    expect(await again.paid()).toBe(0);
  });

  it('a restart in the slot buys nothing another display holds: the kitchen lost its share of Anna’s answer to a kill', async () => {
    const r = await rig();
    await r.daemon.runOnce(undefined, 'schedule');
    expect(await r.paid()).toBe(3);
    const hall = await stateOf(r, 'hallway');
    await r.daemon.stop();
    // kill -9 after the hallway bought Anna's answer and before the kitchen saved its share of it: no kitchen files.
    await rm(path.join(r.dir, 'state', 'people', 'kitchen'), { recursive: true });
    await rm(path.join(r.dir, 'state', 'last', 'kitchen.json'));
    const again = await rig({ dir: r.dir, at: r.clock.now() + 60_000 });
    await again.daemon.start();
    await again.daemon.idle();
    // Anna's request was bought a minute ago, in this slot, and the hallway kept it: the kitchen shows that answer.
    expect(await again.paid()).toBe(0);
    const kitchen = await stateOf(again, 'kitchen');
    expect(kitchen.people?.[0]).toMatchObject({ id: 'anna', outfit: hall.people?.[0]?.outfit });
    expect(kitchen.people?.[0]?.fetched_at).toBe(hall.people?.[0]?.fetched_at);
  });

  it('someone away is not bought for and keeps their answer, marked away; nobody home buys nothing', async () => {
    const r = await rig();
    await r.daemon.runOnce('hallway', 'schedule');
    expect(await r.paid()).toBe(2);
    const before = await stateOf(r, 'hallway');
    r.away.add('anna');
    r.clock.advance(10 * 60_000);
    await r.daemon.runOnce('hallway', 'schedule');
    // Only Ben's request went out.
    expect(await r.paid()).toBe(3);
    const after = await stateOf(r, 'hallway');
    expect(after.people?.[0]).toMatchObject({ id: 'anna', away: true, outfit: before.people?.[0]?.outfit });
    expect(after.people?.[0]?.fetched_at).toBe(before.people?.[0]?.fetched_at);
    expect(after.people?.[1]?.fetched_at).not.toBe(before.people?.[1]?.fetched_at);
    r.away.add('ben');
    r.clock.advance(10 * 60_000);
    const res = await r.daemon.runOnce('hallway', 'schedule');
    expect(res.get('hallway')?.outcome).toBe('away');
    expect(await r.paid()).toBe(3);
    expect((await stateOf(r, 'hallway')).people?.map((p) => p.away)).toEqual([true, true]);
  });

  it('on the schedule, displays whose slots fall together share a purchase in flight', async () => {
    const r = await rig();
    // The start makes up the slot just passed: the three displays' cycles run at once.
    await r.daemon.start();
    await until('the start’s purchases', async () => (await r.paid()) >= 3);
    await r.daemon.idle();
    expect(await r.paid()).toBe(3);
    const hall = await stateOf(r, 'hallway');
    const kitchen = await stateOf(r, 'kitchen');
    expect(kitchen.people?.[0]?.fetched_at).toBe(hall.people?.[0]?.fetched_at);
    // The next slot: again Anna's (both displays), Ben's and the porch's.
    r.clock.advance(10 * 60_000);
    await until('the next slot’s purchases', async () => (await r.paid()) >= 6);
    await r.daemon.idle();
    expect(await r.paid()).toBe(6);
    const next = await stateOf(r, 'kitchen');
    expect(next.people?.[0]?.fetched_at).not.toBe(kitchen.people?.[0]?.fetched_at);
    expect(next.people?.[0]?.fetched_at).toBe((await stateOf(r, 'hallway')).people?.[0]?.fetched_at);
  });
});
