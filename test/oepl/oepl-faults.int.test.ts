import { afterEach, describe, expect, it } from 'vitest';
import type { DisplayConfig } from '../../src/config/schema.js';
import { UNFED_AFTER_MS } from '../../src/oepl/failed-tries.js';
import { OeplPublisher, OEPL_BACKOFF } from '../../src/oepl/oepl-publisher.js';
import { ANSWER_LIMIT_BYTES } from '../../src/oepl/upload.js';
import { TagStatusBook } from '../../src/state/tag-status.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { memoryPeak } from '../helpers/memory-peak.js';
import { until } from '../helpers/until.js';
import { testViews } from '../helpers/views.js';
import { startFakeAp } from './fake-ap.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { display } from '../fixtures/display.js';
import { rec } from '../fixtures/rec.js';
import { update } from '../fixtures/frames.js';

/**
 * An access point that misbehaves, through real HTTP (fake-ap.ts): an answer of hundreds of MB is read only up to
 * its limit (memory flat, the connection closed), an upload without an answer in time is never sent again the same,
 * and a login in the access point's URL never reaches a log.
 */

const MAC = '0000021EEF5A3B1C';
const MB = 1024 * 1024;

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup(o: { uploadTimeoutMs?: number; url?: (apUrl: string) => string } = {}) {
  const ap = await startFakeAp();
  cleanup.push(() => ap.close());
  const d: DisplayConfig = display('hall', { panel: 'waveshare-7in5-v2' });
  const clock = new FakeClock(Date.parse('2026-01-31T07:00:00.000Z'));
  const status = new TagStatusBook();
  const side = testViews({
    displays: [d],
    clock,
    nextUpdateAt: () => new Date(clock.now() + 30 * 60_000),
    tagProblem: (id) => status.get(id),
  });
  const cap = capturingLogger();
  const pub = new OeplPublisher({
    accessPoint: o.url?.(ap.url) ?? ap.url,
    tags: [{ mac: MAC, panel: 'oepl-2in9-bwr', display: 'hall' }],
    render: { timezone: 'Europe/Berlin' },
    status,
    clock,
    logger: cap.logger,
    ...(o.uploadTimeoutMs !== undefined && { uploadTimeoutMs: o.uploadTimeoutMs }),
  });
  await pub.start();
  cleanup.push(() => pub.stop());
  const outfit = (n: number) => update(d, n, { rec: rec({ outfit: `Outfit number ${n}: a coat and boots.` }) });
  return { ap, clock, status, side, pub, outfit, logs: cap.text };
}

describe('an access point that misbehaves', () => {
  it('an answer of 300 MB: at most 64 KiB read, the connection closed, memory flat; a refusal, not sent again', async () => {
    const s = await setup();
    s.ap.hugeBytes = 300 * MB;
    s.ap.script.push(200, 200, 'huge');
    // A first picture taken, so that what the drawing needs once (fonts, caches) is not counted; then one answered
    // "Ok, saved" as the control.
    await s.pub.publish(s.side.show(s.outfit(1)));
    await s.pub.settled();
    const control = await memoryPeak(async () => {
      await s.pub.publish(s.side.show(s.outfit(2)));
      await s.pub.settled();
    });
    const m = await memoryPeak(async () => {
      await s.pub.publish(s.side.show(s.outfit(3)));
      await s.pub.settled();
    });
    const sent = await until('the access point saw the connection close', () => s.ap.hugeSent[0]);
    console.log(
      `OEPL answer of ${s.ap.hugeBytes / MB} MB: ${(sent / MB).toFixed(1)} MB written before the daemon closed the connection; ` +
        `peak growth RSS ${m.rssMb.toFixed(1)} MB, heap+external ${m.heapMb.toFixed(1)} MB ` +
        `(the same push answered "Ok, saved": RSS ${control.rssMb.toFixed(1)} MB, heap+external ${control.heapMb.toFixed(1)} MB)`,
    );
    expect(sent).toBeLessThan(s.ap.hugeBytes / 10);
    expect(m.rssMb).toBeLessThan(48);
    expect(m.heapMb).toBeLessThan(48);
    // The access point's fault, named: a refusal of the picture (the tag's problem at once), not "unreachable".
    expect(s.status.get('hall')).toMatchObject({ mac: MAC, code: 'E_OEPL_PUSH' });
    expect(s.status.get('hall')!.message).toContain(`over ${ANSWER_LIMIT_BYTES / 1024} KiB`);
    // Not pushed again at any backoff: the same picture may be on the tag already.
    s.clock.advance(60 * 60_000);
    await s.pub.settled();
    expect(s.ap.uploads.map((u) => u.answered)).toEqual([200, 200, 'huge']);
    expect(s.logs()).not.toContain('W_OEPL_RETRY');
  }, 60_000);

  it('an upload without an answer in time is not sent again: a newer picture goes after the backoff; the tag is a problem after two minutes', async () => {
    const s = await setup({ uploadTimeoutMs: 300 });
    s.ap.slowMs = 5_000;
    s.ap.script.push('slow', 'slow');
    const start = s.clock.now();
    await s.pub.publish(s.side.show(s.outfit(1)));
    await s.pub.settled();
    expect(s.ap.uploads.map((u) => u.answered)).toEqual(['slow']);
    expect(s.logs()).toContain('W_OEPL_UNCONFIRMED');
    // A newer picture waits for the backoff.
    await s.pub.publish(s.side.show(s.outfit(2)));
    await s.pub.settled();
    s.clock.advance(OEPL_BACKOFF.baseMs - 1);
    await s.pub.settled();
    expect(s.ap.uploads).toHaveLength(1);
    s.clock.advance(1);
    await until('the newer picture after the backoff', () => s.ap.uploads.length === 2);
    await s.pub.settled();
    // Nothing more is sent (neither unanswered picture again), and within two minutes the tag is no problem yet.
    s.clock.advance(start + UNFED_AFTER_MS - 1 - s.clock.now());
    await s.pub.settled();
    expect(s.ap.uploads).toHaveLength(2);
    expect(s.status.get('hall')).toBeNull();
    s.clock.advance(1);
    expect(s.status.get('hall')).toMatchObject({
      mac: MAC,
      code: 'E_OEPL_UNREACHABLE',
      since: new Date(start).toISOString(),
    });
    expect(s.status.get('hall')!.message).toContain('no answer within 0.3 s');
    s.clock.advance(60 * 60_000);
    await s.pub.settled();
    expect(s.ap.uploads).toHaveLength(2);
    expect(s.ap.uploads[0]!.file.equals(s.ap.uploads[1]!.file)).toBe(false);
    // The next picture is taken: the problem is gone.
    await s.pub.publish(s.side.show(s.outfit(3)));
    await s.pub.settled();
    expect(s.ap.uploads.map((u) => u.answered)).toEqual(['slow', 'slow', 200]);
    expect(s.status.get('hall')).toBeNull();
  }, 30_000);

  it('resets three times: the tag is a problem at the third try, cleared when the fourth is taken', async () => {
    const s = await setup();
    s.ap.script.push('reset', 'reset', 'reset');
    await s.pub.publish(s.side.show(s.outfit(1)));
    await s.pub.settled();
    s.clock.advance(OEPL_BACKOFF.baseMs);
    await until('the second try', () => s.ap.uploads.length === 2);
    await s.pub.settled();
    expect(s.status.get('hall')).toBeNull();
    s.clock.advance(2 * OEPL_BACKOFF.baseMs);
    await until('the third try', () => s.ap.uploads.length === 3);
    await s.pub.settled();
    expect(s.status.get('hall')).toMatchObject({ mac: MAC, code: 'E_OEPL_UNREACHABLE' });
    expect(s.status.get('hall')!.message).toMatch(
      /^no picture taken in 3 tries since 2026-01-31T07:00:00\.000Z \(the last: /,
    );
    s.clock.advance(4 * OEPL_BACKOFF.baseMs);
    await until('the fourth try', () => s.ap.uploads.length === 4);
    await s.pub.settled();
    expect(s.ap.uploads.map((u) => u.answered)).toEqual(['reset', 'reset', 'reset', 200]);
    expect(s.status.get('hall')).toBeNull();
    expect(s.clock.pendingTimers()).toBe(0);
  });

  it('a login in the access point URL is never sent and never logged', async () => {
    const s = await setup({ url: (u) => u.replace('http://', 'http://owner:s3cr3t-pass@') });
    s.ap.script.push('reset');
    await s.pub.publish(s.side.show(s.outfit(1)));
    await s.pub.settled();
    s.clock.advance(OEPL_BACKOFF.baseMs);
    await until('the retry taken', () => s.ap.uploads.some((u) => u.answered === 200));
    await s.pub.settled();
    expect(s.logs()).toContain('W_OEPL_RETRY');
    expect(s.logs()).not.toContain('s3cr3t-pass');
    expect(s.logs()).not.toContain('owner');
    // The retry's line names the access point all the same, by its address.
    expect(s.logs()).toContain(s.ap.url);
  });
});
