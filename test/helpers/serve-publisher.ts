import type { DisplayConfig } from '../../src/config/schema.js';
import { HttpPublisher, type HttpPublisherOptions } from '../../src/http/http-publisher.js';
import { capturingLogger } from './capturing-logger.js';
import { testViews, type ShownState, type TestViewsOptions } from './views.js';

/** What a test may change about the server it gets: the publisher's options, and the views' schedule and budget. */
export type ServeOptions = Partial<Omit<HttpPublisherOptions, 'views'>> &
  Pick<TestViewsOptions, 'nextUpdateAt' | 'budget'>;

export interface ServeSetup<C extends HttpPublisherOptions['clock']> {
  displays: DisplayConfig[];
  clock: C;
  /** Each server started goes here, for the test file's afterEach to stop. */
  started: HttpPublisher[];
  /** The file's own defaults (TRMNL devices and tokens, refresh...), under the test's options. */
  defaults?: Partial<Omit<HttpPublisherOptions, 'views'>>;
}

/**
 * The HTTP frame server on a free port, with the daemon's side: a display book the cycles write (here, the test) and the
 * views the server is given. `publish` does what a display's cycle does (records its state, then hands the server
 * the display's view); `record` only records it. Its log lines are captured in `logs`.
 */
export async function servePublisher<C extends HttpPublisherOptions['clock']>(
  setup: ServeSetup<C>,
  over: ServeOptions = {},
) {
  const { displays, clock } = setup;
  const { nextUpdateAt, budget, ...opts } = over;
  const cap = capturingLogger();
  const side = testViews({ displays, clock, ...(nextUpdateAt && { nextUpdateAt }), ...(budget && { budget }) });
  const p = new HttpPublisher({
    listen: '127.0.0.1:0',
    displays,
    views: side.views,
    timezone: 'Europe/Berlin',
    clock,
    logger: cap.logger,
    ...setup.defaults,
    ...opts,
  });
  setup.started.push(p);
  await p.start();
  const publish = (state: ShownState): Promise<void> => p.publish(side.show(state));
  return { p, url: p.url!, clock, publish, record: (state: ShownState) => void side.show(state), logs: cap.text };
}
