import { afterEach, describe, expect, it } from 'vitest';
import { OeplPublisher } from '../../src/oepl/oepl-publisher.js';
import { TagStatusBook } from '../../src/state/tag-status.js';
import { parseQuietHours, quietEnd } from '../../src/time/quiet-hours.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { until } from '../helpers/until.js';
import { testViews } from '../helpers/views.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { startFakeAp } from './fake-ap.js';
import { display } from '../fixtures/display.js';
import { rec } from '../fixtures/rec.js';
import { update } from '../fixtures/frames.js';

/** No push to a tag in its display's quiet hours (a tag's refresh at night is battery nobody sees): at their end. */

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('OpenEPaperLink in quiet hours', () => {
  it('holds the push until the quiet hours end, then sends only the newest picture', async () => {
    const ap = await startFakeAp();
    cleanup.push(() => ap.close());
    const d = display('hall', { panel: 'waveshare-7in5-v2' });
    // 23:00 in Berlin (UTC+1): quiet until 06:30.
    const clock = new FakeClock(Date.parse('2026-01-30T22:00:00.000Z'));
    const quiet = parseQuietHours('22:30-06:30');
    const side = testViews({ displays: [d], clock, nextUpdateAt: () => new Date(clock.now() + 30 * 60_000) });
    const cap = capturingLogger();
    const pub = new OeplPublisher({
      accessPoint: ap.url,
      tags: [{ mac: '0000021EEF5A3B2D', panel: 'oepl-4in2-bwr', display: 'hall' }],
      render: { timezone: 'Europe/Berlin' },
      status: new TagStatusBook(),
      clock,
      logger: cap.logger,
      quietEnd: () => quietEnd(quiet, clock.now(), 'Europe/Berlin'),
    });
    await pub.start();
    cleanup.push(() => pub.stop());

    await pub.publish(side.show(update(d, 1, { rec: rec() })));
    await pub.publish(side.show(update(d, 2, { rec: rec({ outfit: 'Raincoat, boots and an umbrella.' }) })));
    await pub.settled();
    expect(ap.uploads).toHaveLength(0);
    expect(cap.text()).toContain('quiet hours; the picture goes at their end');
    // 06:29: still quiet.
    clock.advance(7.5 * 3_600_000 - 60_000);
    await pub.settled();
    expect(ap.uploads).toHaveLength(0);
    clock.advance(60_000);
    await until('the push at the end of the quiet hours', () => ap.uploads.length === 1);
    await pub.settled();
    expect(ap.uploads).toHaveLength(1);
    // By day a new picture goes at once.
    await pub.publish(side.show(update(d, 3, { rec: rec({ outfit: 'T-shirt and shorts.' }) })));
    await pub.settled();
    expect(ap.uploads).toHaveLength(2);
  });
});
