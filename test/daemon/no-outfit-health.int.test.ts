import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import { simulatedConfig, startCli, tempConfig } from '../helpers/cli.js';
import { watchProcess } from '../helpers/daemon-process.js';
import { freePort } from '../helpers/free-port.js';
import { httpRequest } from '../helpers/http-client.js';
import { startSimProcess } from '../helpers/service-sim-process.js';
import { until } from '../helpers/until.js';
import { daemonTests, linesWithCode, type DaemonRig } from './helpers.js';
import { watch } from '../helpers/mqtt-watch.js';

/**
 * Healthy only with an outfit on show: a start with nothing to show and no purchase before its next slot (that slot is
 * due within two minutes, so the start leaves the purchase to it) answers /healthz 503 naming it, and a last good file
 * that could not be read back is a state problem (E_STATE_READ) on state.json, /healthz, the status page and the MQTT
 * diagnostics until the next answer is saved over it.
 */

const t = daemonTests({ broker: true });

const TEN_MIN = 600_000;
/** Half a minute before a slot of the rig's default schedule (every 10 minutes): the start buys nothing. */
const beforeSlot = (): number => Math.ceil(Date.now() / TEN_MIN) * TEN_MIN - 30_000;

interface HealthBody {
  ok: boolean;
  reason: string;
  displays: { id: string; ok: boolean; reason: string; last_success_at: string | null; state_problem: string | null }[];
}

async function health(r: DaemonRig): Promise<{ status: number; body: HealthBody }> {
  const res = await httpRequest(`${r.http}/healthz`);
  return { status: res.status, body: res.json<HealthBody>() };
}

/** Moves the fake clock past the slot and waits until its purchase is on show (/healthz 200). */
async function pastTheSlot(r: DaemonRig): Promise<void> {
  r.clock.advance(60_000);
  await until('the slot’s outfit on show (/healthz 200)', async () => (await health(r)).status === 200, {
    context: () => r.logText().slice(-3000),
  });
}

describe('/healthz while no outfit is on show', () => {
  it('a last good file that is not JSON: 503 and E_STATE_READ on every surface until the slot’s answer is saved over it', async () => {
    const w = await watch(t.broker().url, ['outfit-display/hallway/diagnostics']);
    const file = (dir: string): string => path.join(dir, 'state', 'last', 'hallway.json');
    const r = await t.rig({
      mqttUrl: t.broker().url,
      at: beforeSlot(),
      prepare: async (dir) => {
        await mkdir(path.dirname(file(dir)), { recursive: true });
        await writeFile(file(dir), '{"outfit": "A coat and a sc');
      },
    });
    await r.daemon.start();
    expect(await r.paidRequests()).toBe(0);
    expect(r.published.at(-1)?.rec).toBeNull();

    // /healthz: 503, naming the unreadable file and that nothing is on show, for the display.
    const h = await health(r);
    expect(h.status).toBe(503);
    expect(h.body.ok).toBe(false);
    const [hallway] = h.body.displays;
    expect(hallway).toMatchObject({ id: 'hallway', ok: false, last_success_at: null });
    expect(hallway?.state_problem).toMatch(/^E_STATE_READ: /);
    expect(hallway?.state_problem).toContain(file(r.dir));
    expect(hallway?.reason).toContain('the last good answer cannot be read back: E_STATE_READ');
    expect(hallway?.reason).toMatch(/no outfit on show yet: the next update is due \d{4}-/);
    expect(h.body.reason).toMatch(/^hallway: /);

    // state.json, the status page and the MQTT diagnostics carry the same problem.
    const state = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Record<string, unknown>>();
    expect(state.state_problem).toMatchObject({ code: 'E_STATE_READ', file: file(r.dir) });
    expect((await httpRequest(`${r.http}/`)).text()).toContain('E_STATE_READ');
    await w.waitFor(() => {
      const d = w.latest('outfit-display/hallway/diagnostics');
      return (
        d !== undefined &&
        String((JSON.parse(d.payload.toString()) as { state_problem: unknown }).state_problem).startsWith(
          'E_STATE_READ',
        )
      );
    }, 'diagnostics with E_STATE_READ');
    expect(linesWithCode(r.logText(), 'E_STATE_READ').some((l) => l.level === 50)).toBe(true);

    // The slot buys, saves over the file, and every surface clears.
    await pastTheSlot(r);
    expect(await r.paidRequests()).toBe(1);
    expect((JSON.parse(await readFile(file(r.dir), 'utf8')) as { outfit: string }).outfit.length).toBeGreaterThan(0);
    expect((await health(r)).body.displays[0]?.state_problem).toBeNull();
    expect(
      (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Record<string, unknown>>().state_problem,
    ).toBeNull();
    expect((await httpRequest(`${r.http}/`)).text()).not.toContain('E_STATE_READ');
    await w.waitFor(() => {
      const d = w.latest('outfit-display/hallway/diagnostics');
      return d !== undefined && (JSON.parse(d.payload.toString()) as { state_problem: unknown }).state_problem === null;
    }, 'diagnostics without a state problem');
    await w.close();
  });

  it('a first start (no state at all) that waits for its slot: 503 "no outfit on show yet", no state problem; 200 once the slot’s outfit is on show', async () => {
    const r = await t.rig({ at: beforeSlot() });
    await r.daemon.start();
    expect(await r.paidRequests()).toBe(0);
    const h = await health(r);
    expect(h.status).toBe(503);
    const slot = new Date(r.clock.now() + 30_000).toISOString();
    expect(h.body.displays[0]).toMatchObject({
      ok: false,
      state_problem: null,
      reason: `no outfit on show yet: the next update is due ${slot}`,
    });
    await pastTheSlot(r);
    expect(await r.paidRequests()).toBe(1);
    expect((await health(r)).body.displays[0]).toMatchObject({ ok: true, reason: 'last cycle succeeded' });
  });
});

describe('the daemon process restarted with its last good file corrupt', () => {
  it('does not buy the paid slot again (its next slot is 12 hours away) and answers 503 with E_STATE_READ, not 200', async () => {
    const sim = await startSimProcess();
    const { dir, file } = await tempConfig('');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const paid = async (): Promise<number> =>
      (await sim.stats()).requests.filter((q) => /\/(recweather|recommend)$/.test(q.path)).length;
    try {
      await writeFile(path.join(dir, 'key'), `${DEMO_API_KEY}\n`, { mode: 0o600 });
      await writeFile(
        file,
        simulatedConfig({ baseUrl: sim.url, keyFile: 'key' }).replace(
          'output_dir:',
          `http:\n  listen: 127.0.0.1:${port}\noutput_dir:`,
        ),
      );
      const healthOf = async (): Promise<{ status: number; body: HealthBody } | null> => {
        const res = await httpRequest(`${url}/healthz`).catch(() => null);
        return res === null ? null : { status: res.status, body: res.json<HealthBody>() };
      };

      // The first run buys at once (a first start), and its answer is on show.
      const first = startCli(['run', '--config', file]);
      const one = watchProcess(first);
      await until('the first outfit on show', async () => (await healthOf())?.status === 200, { context: one.output });
      expect(await paid()).toBe(1);
      first.kill('SIGTERM');
      expect(await one.exited).toBe(0);

      // Cut short, as a power cut during a copy would leave it.
      const last = path.join(dir, 'state', 'last', 'hallway.json');
      await writeFile(last, (await readFile(last, 'utf8')).slice(0, 40));

      const second = startCli(['run', '--config', file]);
      const two = watchProcess(second);
      try {
        const h = await until(
          '/healthz of the restarted daemon',
          async () => {
            const got = await healthOf();
            return got !== null && got.body.displays[0]?.reason !== 'no frame yet' ? got : null;
          },
          { context: two.output },
        );
        expect(h.status).toBe(503);
        expect(h.body.displays[0]).toMatchObject({ id: 'hallway', ok: false, last_success_at: null });
        expect(h.body.displays[0]?.state_problem).toMatch(
          new RegExp(`^E_STATE_READ: ${last.replaceAll('/', '\\/')}: not JSON`),
        );
        expect(h.body.displays[0]?.reason).toContain('no outfit on show yet: the next update is due');
        const state = (await httpRequest(`${url}/displays/hallway/state.json`)).json<Record<string, unknown>>();
        expect(state.state_problem).toMatchObject({ code: 'E_STATE_READ', file: last });
        expect((await httpRequest(`${url}/`)).text()).toContain('E_STATE_READ');
        // The ledger holds the purchase: its slot is not bought again.
        expect(await paid()).toBe(1);
      } finally {
        second.kill('SIGTERM');
        expect(await two.exited).toBe(0);
      }
    } finally {
      await sim.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
