import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DrawFrame } from '../../src/render/display-render.js';
import { renderDisplayFrame } from '../../src/render/render-display-frame.js';
import { RenderError } from '../../src/render/render-process.js';
import { LastGoodStore } from '../../src/store/last-good.js';
import { NORMAL } from '../gallery/samples.js';
import { display, manualClock } from '../http/fixtures.js';
import { testCycle } from '../helpers/test-cycle.js';
import { keeper } from '../helpers/views.js';

/**
 * A frame that cannot be drawn (the render process died twice, gave no answer, or could not start) never replaces
 * the last good one: every publisher keeps the frame and the state it was drawn from, and the answer bought is kept
 * and drawn with the next frame. The draw fails here by injection; render-process.test.ts makes the real faults.
 */

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});


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
      failing ? Promise.reject(new RenderError('E_RENDER_PROCESS', 'the render process was ended by SIGKILL while drawing a frame (twice)')) : renderDisplayFrame(o, state, as);
    const fresh = { ...NORMAL, outfit: 'A raincoat and wellies: rain all afternoon.' };
    const { cycle, side } = testCycle({ display: hallway, clock, draw, store, rec: fresh, publishers: [out] });
    expect(await cycle.restore()).toBe(true);
    const before = out.updates.at(-1)!;
    expect(before.rec?.outfit).toBe(NORMAL.outfit);

    failing = true;
    clock.advance(3_600_000);
    await expect(cycle.run('schedule')).rejects.toMatchObject({ code: 'E_RENDER_PROCESS' });
    // Nothing reached the publishers: the board's view is the frame on the wall and the answer it shows.
    expect(out.updates).toHaveLength(1);
    expect(side.views.view('hallway')).toMatchObject({ frame: { hash: before.frame.hash }, rec: { outfit: NORMAL.outfit } });
    // What was bought is kept (a restart would show it).
    expect((await store.load('hallway')).rec?.outfit).toBe(fresh.outfit);

    failing = false;
    expect(await cycle.publishCurrent()).toBe(true);
    const after = out.updates.at(-1)!;
    expect(after.rec?.outfit).toBe(fresh.outfit);
    expect(after.frame.hash).not.toBe(before.frame.hash);
  });
});
