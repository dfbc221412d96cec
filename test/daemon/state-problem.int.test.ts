import { readFileSync } from 'node:fs';
import { readFile, rm, mkdir, writeFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codesIn } from '../../src/shared/codes.js';
import { PNG } from 'pngjs';
import { W_REFRESH_REFUSED } from '../../src/daemon/refresh-gate.js';
import { ROOT } from '../helpers/cli.js';
import { httpRequest } from '../helpers/http-client.js';
import { daemonTests, linesWithCode, plantLastGood } from './helpers.js';
import { watch } from '../helpers/mqtt-watch.js';

/**
 * State that cannot be saved (issue: an outside probe found 6 paid calls in 30 s, none shown, and /healthz 200):
 * what was bought is shown on every publisher, the problem is reported with its code everywhere an owner looks,
 * and no second answer is bought within the interval while the state cannot be kept.
 */

const t = daemonTests({ broker: true });

/** `state/last/hallway.json` made a directory: the save fails (EISDIR), as with a folder owned by root. */
async function breakLastGood(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'state', 'last', 'hallway.json'), { recursive: true });
}

describe('state that cannot be saved', () => {
  it('shows what was bought, reports E_STATE_WRITE everywhere, and buys no second answer in the interval', async () => {
    const w = await watch(t.broker().url, ['outfit-display/hallway/diagnostics']);
    const r = await t.rig({ mqttUrl: t.broker().url, prepare: breakLastGood });

    const first = await r.daemon.runOnce('hallway', 'schedule');
    expect(first.get('hallway')?.outcome).toBe('fresh');
    expect(first.get('hallway')?.published).toBe(true);

    // Shown: the frame and the JSON are on disk, decodable, and carry the new outfit.
    const json = JSON.parse(await readFile(path.join(r.dir, 'frames', 'hallway.json'), 'utf8')) as { outfit: string };
    expect(json.outfit.length).toBeGreaterThan(0);
    const png = PNG.sync.read(await readFile(path.join(r.dir, 'frames', 'hallway.png')));
    expect([png.width, png.height]).toEqual([400, 300]);

    // Reported, with the code, on state.json, /healthz (503 naming the cause), the status page, and MQTT diagnostics.
    const state = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Record<string, unknown>>();
    expect(state.outfit).toBe(json.outfit);
    expect(state.state_problem).toMatchObject({
      code: 'E_STATE_WRITE',
      file: path.join(r.dir, 'state', 'last', 'hallway.json'),
    });
    const health = await httpRequest(`${r.http}/healthz`);
    expect(health.status).toBe(503);
    expect(health.text()).toContain('E_STATE_WRITE');
    expect(health.text()).toContain('hallway.json');
    const page = (await httpRequest(`${r.http}/`)).text();
    expect(page).toContain('E_STATE_WRITE');
    await w.waitFor(() => {
      const d = w.latest('outfit-display/hallway/diagnostics');
      return (
        d !== undefined &&
        String((JSON.parse(d.payload.toString()) as { state_problem: unknown }).state_problem).startsWith(
          'E_STATE_WRITE',
        )
      );
    }, 'diagnostics with the state problem');
    expect(linesWithCode(r.logText(), 'E_STATE_WRITE').some((l) => l.level === 50)).toBe(true);

    // No second purchase within the interval (10 min schedule): a tick, a catch-up or a restart-less retry waits.
    expect(await r.paidRequests()).toBe(1);
    r.clock.advance(60_000);
    const second = await r.daemon.runOnce('hallway', 'schedule');
    expect(second.get('hallway')?.outcome).toBe('deferred');
    expect(await r.paidRequests()).toBe(1);

    // Once the state can be kept again, the next interval buys, saves, and every publisher says all is well.
    await rm(path.join(r.dir, 'state', 'last', 'hallway.json'), { recursive: true });
    r.clock.advance(10 * 60_000);
    const third = await r.daemon.runOnce('hallway', 'schedule');
    expect(third.get('hallway')?.outcome).toBe('fresh');
    expect(await r.paidRequests()).toBe(2);
    expect((await stat(path.join(r.dir, 'state', 'last', 'hallway.json'))).isFile()).toBe(true);
    expect((await httpRequest(`${r.http}/healthz`)).status).toBe(200);
    const after = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Record<string, unknown>>();
    expect(after.state_problem).toBeNull();
    await w.close();
  });

  it('an unwritable ledger is reported the same way, and nothing is bought without a record of it', async () => {
    const w = await watch(t.broker().url, ['outfit-display/hallway/diagnostics']);
    // The ledger's temp file a directory: every write of the ledger fails, as in a read-only or full state folder.
    const blocker = (dir: string): string => path.join(dir, 'state', 'budget-ledger.json.tmp');
    const r = await t.rig({
      mqttUrl: t.broker().url,
      prepare: (dir) => mkdir(blocker(dir), { recursive: true }).then(() => undefined),
    });
    const first = await r.daemon.runOnce('hallway', 'schedule');
    expect(first.get('hallway')?.outcome).toBe('deferred');
    expect(await r.paidRequests()).toBe(0);

    const ledger = path.join(r.dir, 'state', 'budget-ledger.json');
    const state = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Record<string, unknown>>();
    expect(state.state_problem).toMatchObject({ code: 'E_STATE_WRITE', file: ledger });
    const health = await httpRequest(`${r.http}/healthz`);
    expect(health.status).toBe(503);
    expect(health.text()).toContain('E_STATE_WRITE');
    expect(health.text()).toContain('budget-ledger.json');
    expect((await httpRequest(`${r.http}/`)).text()).toContain('budget-ledger.json');
    await w.waitFor(() => {
      const d = w.latest('outfit-display/hallway/diagnostics');
      return (
        d !== undefined &&
        String((JSON.parse(d.payload.toString()) as { state_problem: unknown }).state_problem).includes(
          'budget-ledger.json',
        )
      );
    }, 'diagnostics naming the ledger');

    // Two more ticks while the folder stays unwritable: deferred, nothing sent, nothing counted.
    for (let i = 0; i < 2; i++) {
      r.clock.advance(61_000);
      expect((await r.daemon.runOnce('hallway', 'schedule')).get('hallway')?.outcome).toBe('deferred');
    }
    expect(await r.paidRequests()).toBe(0);

    await rm(blocker(r.dir), { recursive: true });
    r.clock.advance(61_000);
    expect((await r.daemon.runOnce('hallway', 'schedule')).get('hallway')?.outcome).toBe('fresh');
    expect(await r.paidRequests()).toBe(1);
    // The ledger counts what was sent: one purchase of 3 credits, none of the three that were never sent.
    const counted = JSON.parse(await readFile(ledger, 'utf8')) as {
      day_spent: number;
      day_unknown: number;
      day_charged: number;
    };
    expect(counted).toMatchObject({ day_spent: 3, day_charged: 3, day_unknown: 0 });
    expect(
      (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Record<string, unknown>>().state_problem,
    ).toBeNull();
    expect((await httpRequest(`${r.http}/healthz`)).status).toBe(200);
    await w.close();
  });

  it('`once`, run by hand, still buys while the state cannot be kept', async () => {
    const r = await t.rig({ prepare: breakLastGood });
    await r.daemon.runOnce('hallway', 'once');
    await r.daemon.runOnce('hallway', 'once');
    expect(await r.paidRequests()).toBe(2);
  });
});

describe('last good files that cannot be trusted', () => {
  it('a last good answer dated in the future is shown but not fresh: a new one is bought at start', async () => {
    const future = new Date(Date.now() + 24 * 3_600_000).toISOString();
    const r = await t.rig({
      prepare: (dir) => plantLastGood(dir, 'A planted outfit from the future.', future),
    });
    await r.daemon.start();
    // start() buys a first answer for a display without a fresh one: the planted file does not count as fresh.
    expect(await r.paidRequests()).toBe(1);
    const state = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<{ outfit: string }>();
    expect(state.outfit).not.toBe('A planted outfit from the future.');
    expect(linesWithCode(r.logText(), 'W_STATE_IGNORED').length).toBeGreaterThan(0);
  });

  it('an oversized last good file is not read, and is reported (E_STATE_READ) until the answer bought at start is saved', async () => {
    const r = await t.rig({
      prepare: async (dir) => {
        await mkdir(path.join(dir, 'state', 'last'), { recursive: true });
        // 5 MB of a valid-looking recommendation: parsing it whole took a probe's RSS to 350 MB.
        const huge = JSON.stringify({
          outfit: 'x'.repeat(5_000_000),
          weather: {},
          fetched_at: new Date().toISOString(),
        });
        await writeFile(path.join(dir, 'state', 'last', 'hallway.json'), huge);
      },
    });
    await r.daemon.start();
    const ignored = linesWithCode(r.logText(), 'E_STATE_READ').filter(
      (l) => (l.err as { code?: string } | undefined)?.code === 'E_STATE_READ',
    );
    expect(ignored.map((l) => String((l.err as { message?: string }).message))).toEqual([
      expect.stringMatching(/5000\d+ bytes, more than a last good file can be/),
    ]);
    expect(await r.paidRequests()).toBe(1);
    expect(
      (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Record<string, unknown>>().state_problem,
    ).toBeNull();
    expect((await httpRequest(`${r.http}/healthz`)).status).toBe(200);
  });
});

describe('codes', () => {
  const doc = readFileSync(path.join(ROOT, 'docs/guides/troubleshooting.md'), 'utf8');
  it.each([...codesIn('state'), W_REFRESH_REFUSED])('%s is documented in docs/guides/troubleshooting.md', (code) => {
    expect(doc).toMatch(new RegExp(`\\| \`${code}\` \\|`));
  });
});
