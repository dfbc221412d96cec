import type { Recommendation } from '../../src/api/schemas.js';
import type { DisplayConfig } from '../../src/config/schema.js';
import { DisplayCycle } from '../../src/daemon/cycle.js';
import type { Publisher } from '../../src/publish/publisher.js';
import { displayRenderOptions, type DrawFrame } from '../../src/render/display-frame.js';
import type { LastGoodStore } from '../../src/store/last-good.js';
import type { Clock } from '../../src/time/clock.js';
import { testViews, type TestViews } from './views.js';
import { capturingLogger } from './capturing-logger.js';

export interface TestCycleOptions {
  display: DisplayConfig;
  clock: Clock;
  /** How its frames are drawn: the test's drawer (a slow one, a failing one). */
  draw: DrawFrame;
  store: LastGoodStore;
  /** What every purchase answers. */
  rec: Recommendation;
  publishers: Publisher[];
}

/**
 * One display's cycle wired as the daemon wires it (display book, views, drawer), in UTC, every purchase answered with
 * `rec`: for tests of how its frames are drawn and published.
 */
export function testCycle(o: TestCycleOptions): { cycle: DisplayCycle; side: TestViews } {
  const side = testViews({ displays: [o.display], clock: o.clock });
  const cycle = new DisplayCycle({
    display: o.display,
    render: displayRenderOptions(o.display, { timezone: 'UTC' }),
    draw: o.draw,
    store: o.store,
    fetch: () => Promise.resolve({ kind: 'fresh', rec: o.rec }),
    publishers: o.publishers,
    displayBook: side.displayBook,
    views: side.views,
    clock: o.clock,
    nextUpdateAt: () => null,
    logger: capturingLogger().logger,
    purchaseIntervalMs: 60_000,
  });
  return { cycle, side };
}
