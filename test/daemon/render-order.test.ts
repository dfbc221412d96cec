import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Publisher } from '../../src/publish/publisher.js';
import { drawInProcess, type DrawFrame } from '../../src/render/display-frame.js';
import type { ShownView } from '../../src/state/display-views.js';
import { LastGoodStore } from '../../src/store/last-good.js';
import { testCycle } from '../helpers/test-cycle.js';
import { shownView } from '../helpers/views.js';
import { until } from '../helpers/until.js';
import { NORMAL } from '../fixtures/samples.js';
import { display } from '../fixtures/display.js';
import { manualClock } from '../helpers/fake-clock.js';

/**
 * A display's publish rounds run one after the other, in the order asked, and no publisher is handed two frames at
 * once. A frame that takes long to draw (the render process starting cold) while the state changes and a newer frame
 * is asked for is dropped, not published beside a state it was not drawn from; the newer one goes out.
 */

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('publish rounds of one display', () => {
  it('a slow first frame overtaken by a tick’s purchase: dropped; the tick’s frame drawn after it and published alone', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'render-order-'));
    dirs.push(dir);
    const hallway = display('hallway', { panel: 'waveshare-7in5-v2' });
    const clock = manualClock();
    const events: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let draws = 0;
    const draw: DrawFrame = async (o, state, as) => {
      const n = ++draws;
      events.push(`draw ${n} (${state.rec === null ? 'no outfit' : state.rec.outfit})`);
      if (n === 1) await gate;
      return drawInProcess(o, state, as);
    };
    let publishing = 0;
    const shown: ShownView[] = [];
    const publisher: Publisher = {
      name: 'slow',
      start: () => Promise.resolve(),
      async publish(view) {
        expect(++publishing).toBe(1);
        events.push(`publish ${view.rec === null ? 'no outfit' : view.rec.outfit}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        shown.push(view);
        publishing--;
      },
      stop: () => Promise.resolve(),
    };
    // The tick's answer saved: the sign that its round has been asked for.
    const store = new (class extends LastGoodStore {
      override async save(...args: Parameters<LastGoodStore['save']>): Promise<void> {
        await super.save(...args);
        events.push('saved');
      }
    })(dir);
    const { cycle, side } = testCycle({ display: hallway, clock, draw, store, rec: NORMAL, publishers: [publisher] });
    // The start's first frame (no outfit yet) is slow to draw; a tick buys an outfit meanwhile.
    const first = cycle.publishCurrent();
    await until('the first frame to be asked for', () => draws === 1);
    const tick = cycle.run('schedule');
    // The tick's round waits for the first: nothing else is drawn while the first frame is.
    await until('the tick’s answer to be saved', () => events.includes('saved'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(draws).toBe(1);
    release();
    // Both callers learn that the display's frame went out: the first through the round that overtook it.
    expect(await first).toBe(true);
    expect(await tick).toMatchObject({ outcome: 'fresh', published: true });
    expect(events).toEqual(['draw 1 (no outfit)', 'saved', `draw 2 (${NORMAL.outfit})`, `publish ${NORMAL.outfit}`]);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.frame.hash).toBe(shownView(side.views, 'hallway').frame.hash);
  });
});
