import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { drawInProcess, type DrawFrame } from '../../src/render/display-frame.js';
import { RenderError, RenderProcess } from '../../src/render/render-process.js';
import { LastGoodStore } from '../../src/store/last-good.js';
import { systemClock } from '../../src/time/clock.js';
import { CLI } from '../helpers/cli.js';
import { httpRequest } from '../helpers/http-client.js';
import { testCycle } from '../helpers/test-cycle.js';
import { keeper } from '../helpers/views.js';
import { daemonTests, hallwayState } from './helpers.js';
import { NORMAL } from '../fixtures/samples.js';
import { display } from '../fixtures/display.js';
import { manualClock } from '../helpers/fake-clock.js';
import { watch } from '../helpers/mqtt-watch.js';

/**
 * A frame that cannot be drawn (the render process died twice, gave no answer, or could not start) never replaces
 * the last good one: every publisher keeps the frame and the state it was drawn from, and the answer bought is kept
 * and drawn with the next frame. The draw fails here by injection; render-process.test.ts makes the real faults.
 */

const dirs: string[] = [];
const renderers: RenderProcess[] = [];
afterEach(async () => {
  await Promise.all(renderers.splice(0).map((r) => r.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const t = daemonTests({ broker: true });

describe('a frame the render process cannot draw', () => {
  it('keeps the last good frame and state on every publisher; the answer bought is drawn with the next frame', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'render-failure-'));
    dirs.push(dir);
    const hallway = display('hallway', { panel: 'waveshare-7in5-v2' });
    const clock = manualClock();
    const store = new LastGoodStore(dir);
    await store.save('hallway', { ...NORMAL, fetched_at: new Date(clock.now() - 60_000).toISOString() });
    const out = keeper();
    let failing = false;
    const draw: DrawFrame = (o, state, as) =>
      failing
        ? Promise.reject(
            new RenderError(
              'E_RENDER_PROCESS',
              'the render process was ended by SIGKILL while drawing a frame (twice)',
            ),
          )
        : drawInProcess(o, state, as);
    const fresh = { ...NORMAL, outfit: 'A raincoat and wellies: rain all afternoon.' };
    const { cycle, side } = testCycle({ display: hallway, clock, draw, store, rec: fresh, publishers: [out] });
    expect(await cycle.restore()).toBe(true);
    const before = out.updates.at(-1)!;
    expect(before.rec?.outfit).toBe(NORMAL.outfit);

    failing = true;
    clock.advance(3_600_000);
    await expect(cycle.run('schedule')).rejects.toMatchObject({ code: 'E_RENDER_PROCESS' });
    // The publishers are told why the frame was not replaced; what they are handed is still the frame on the wall and
    // the answer it shows.
    expect(out.updates).toHaveLength(2);
    expect(out.updates[1]).toMatchObject({
      frame: { hash: before.frame.hash },
      rec: { outfit: NORMAL.outfit },
      renderProblem: { code: 'E_RENDER_PROCESS' },
      lastError: { code: 'E_RENDER_PROCESS' },
    });
    expect(side.views.view('hallway')).toMatchObject({
      frame: { hash: before.frame.hash },
      rec: { outfit: NORMAL.outfit },
    });
    // What was bought is kept (a restart would show it).
    expect((await store.load('hallway')).rec?.outfit).toBe(fresh.outfit);

    failing = false;
    expect(await cycle.publishCurrent()).toBe(true);
    const after = out.updates.at(-1)!;
    expect(after.rec?.outfit).toBe(fresh.outfit);
    expect(after.frame.hash).not.toBe(before.frame.hash);
    expect(after.renderProblem).toBeNull();
  });
});

describe('a frame the render process cannot draw, in the daemon', () => {
  it('says why on state.json, /healthz, the MQTT diagnostics and the status page (E_RENDER_PROCESS, then E_RENDER_TIMEOUT), and clears at the next frame drawn', async () => {
    const tmp = await mkdtemp(path.join(tmpdir(), 'render-failure-daemon-'));
    dirs.push(tmp);
    const env = { PATH: process.env.PATH, TMPDIR: tmp };
    const child = (o: Partial<ConstructorParameters<typeof RenderProcess>[0]>): RenderProcess => {
      const rp = new RenderProcess({ clock: systemClock, env, closeWaitMs: 500, ...o });
      renderers.push(rp);
      return rp;
    };
    // Real children: one that dies at once each time it is started, and the real worker, frozen (SIGSTOP) once asked.
    const dies = child({ command: { file: process.execPath, args: ['-e', 'process.exit(3)'] } });
    const worker = child({ answerTimeoutMs: 1_500, command: { file: process.execPath, args: [CLI, 'render-worker'] } });
    let mode: 'ok' | 'dies' | 'freezes' = 'ok';
    const draw: DrawFrame = (o, state, as) => {
      if (mode === 'ok') return drawInProcess(o, state, as);
      if (mode === 'dies') return dies.draw(o, state, as);
      const drawn = worker.draw(o, state, as);
      if (worker.pid !== null) process.kill(worker.pid, 'SIGSTOP');
      return drawn;
    };
    const w = await watch(t.broker().url, ['outfit-display/hallway/diagnostics']);
    const diagnostics = (): Record<string, unknown> | null => {
      const d = w.latest('outfit-display/hallway/diagnostics');
      return d === undefined ? null : (JSON.parse(d.payload.toString()) as Record<string, unknown>);
    };
    const r = await t.rig({ mqttUrl: t.broker().url, draw });
    expect((await r.daemon.runOnce('hallway', 'schedule')).get('hallway')?.outcome).toBe('fresh');
    const good = await hallwayState(r);
    expect(good.render_problem ?? null).toBeNull();
    expect((await httpRequest(`${r.http}/healthz`)).status).toBe(200);

    for (const [m, code] of [
      ['dies', 'E_RENDER_PROCESS'],
      ['freezes', 'E_RENDER_TIMEOUT'],
    ] as const) {
      mode = m;
      r.clock.advance(10 * 60_000);
      await r.daemon.runOnce('hallway', 'schedule');
      const st = await hallwayState(r);
      // The last good frame and the answer it shows stay; beside them, why no newer frame came.
      expect(st.render_problem).toMatchObject({
        code,
        message: expect.any(String) as unknown,
        since: expect.any(String) as unknown,
      });
      expect(st.last_error).toMatchObject({ code });
      expect((st.frame as { hash: string }).hash).toBe((good.frame as { hash: string }).hash);
      expect(st.fetched_at).toBe(good.fetched_at);
      const health = await httpRequest(`${r.http}/healthz`);
      expect(health.status).toBe(503);
      expect(
        health.json<{ displays: { render_problem: string }[] }>().displays[0]!.render_problem.startsWith(`${code}: `),
      ).toBe(true);
      const page = (await httpRequest(`${r.http}/`)).text();
      expect(page).toContain('Drawing');
      expect(page).toContain(code);
      await w.waitFor(() => String(diagnostics()?.render_problem).startsWith(`${code}: `), `diagnostics with ${code}`);
    }

    // Drawing works again: the next cycle's frame clears it everywhere.
    mode = 'ok';
    r.clock.advance(10 * 60_000);
    await r.daemon.runOnce('hallway', 'schedule');
    const st = await hallwayState(r);
    expect(st.render_problem).toBeNull();
    expect((st.frame as { hash: string }).hash).not.toBe((good.frame as { hash: string }).hash);
    expect((await httpRequest(`${r.http}/healthz`)).status).toBe(200);
    await w.waitFor(() => diagnostics()?.render_problem === null, 'diagnostics without the render problem');
    await w.close();
  });
});
