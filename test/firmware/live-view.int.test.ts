import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { INK, PAPER } from '../../display/firmware/live-page.js';
import { runSimulator, type SimulatorResult } from '../../display/firmware/run.js';
import { parsedSimulatedConfig } from '../helpers/parsed-simulated-config.js';
import { HttpPublisher } from '../../src/http/http-publisher.js';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { httpRequest } from '../helpers/http-client.js';
import { systemClock } from '../../src/time/clock.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { testViews } from '../helpers/views.js';
import { display } from '../fixtures/display.js';
import { update } from '../fixtures/frames.js';

/** The same FNV-1a over the red channel the page computes. */
function fnvRed(png: Buffer): string {
  const data = PNG.sync.read(png).data;
  let h = 0x811c9dc5;
  for (let i = 0; i < data.length; i += 4) {
    h ^= data[i]!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16);
}

const grey = display('study', { panel: 'trmnl-4grey' });

describe('simulate --web in headless Chromium', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it(
    'shows the current frame on a paper tone, and updates (with a flash) after a wake',
    { timeout: 90_000 },
    async () => {
      const serverViews = testViews({ displays: [grey], clock: systemClock });
      const server = new HttpPublisher({
        listen: '127.0.0.1:0',
        displays: [grey],
        views: serverViews.views,
        timezone: 'Europe/Berlin',
        clock: systemClock,
      });
      await server.start();
      cleanup.push(() => server.stop());
      const u1 = update(grey, 1);
      await server.publish(serverViews.show(u1));
      const out = await mkdtemp(path.join(tmpdir(), 'outfit-live-'));
      cleanup.push(() => rm(out, { recursive: true, force: true }));

      const config = parsedSimulatedConfig({
        displays: [{ id: 'study', lat: 52.5, lon: 13.4, panel: 'trmnl-4grey' }],
      });
      // The device's sleeps wait until the test lets it wake (runNext).
      const clock = new FakeClock(Date.now());
      let webUrl: string | null = null;
      const abort = new AbortController();
      const run: Promise<SimulatorResult> = runSimulator({
        config,
        displayId: 'study',
        via: 'http',
        wakes: 2,
        outDir: out,
        web: true,
        webPort: 0,
        keepWebOpen: true,
        baseUrl: server.url!,
        clock,
        signal: abort.signal,
        log: (line) => {
          const m = /^live view at (\S+)$/.exec(line);
          if (m) webUrl = m[1]!;
        },
      });
      cleanup.push(async () => {
        abort.abort();
        await run.catch(() => undefined);
      });
      await expect.poll(() => clock.pendingTimers(), { timeout: 10_000 }).toBe(1);
      expect(webUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const page0 = await httpRequest(webUrl!);
      expect(page0.headers['content-security-policy']).toContain("script-src 'nonce-");

      let browser: Chromium | null = await launchChromium();
      cleanup.push(async () => browser?.close());
      const page = await browser.context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      await page.goto(webUrl!);
      await page.waitForSelector('body[data-wake="1"]', { timeout: 15_000 });
      expect(await page.getAttribute('#glass', 'data-fnv')).toBe(fnvRed(u1.frame.png));
      expect(await page.locator('#rows tr').count()).toBe(1);

      // The glass is drawn in ink on paper: a black pixel of the frame is ink, a white one the paper tone.
      const decoded = PNG.sync.read(u1.frame.png);
      const find = (v: number): [number, number] => {
        const i = decoded.data.findIndex((x, k) => k % 4 === 0 && x === v) / 4;
        return [i % decoded.width, Math.floor(i / decoded.width)];
      };
      const [bx, by] = find(0);
      const [wx, wy] = find(255);
      const pixels = await page.evaluate(
        ([a, b, c, d]) => {
          const ctx = (document.getElementById('glass') as HTMLCanvasElement).getContext('2d')!;
          return [
            Array.from(ctx.getImageData(a!, b!, 1, 1).data.slice(0, 3)),
            Array.from(ctx.getImageData(c!, d!, 1, 1).data.slice(0, 3)),
          ];
        },
        [bx, by, wx, wy],
      );
      expect(pixels).toEqual([[...INK], [...PAPER]]);

      // A new frame, a wake: the page follows without a reload, flashing for the full refresh of a 4-grey panel.
      const u2 = update(grey, 2);
      await server.publish(serverViews.show(u2));
      clock.runNext();
      await page.waitForSelector('body[data-wake="2"]', { timeout: 15_000 });
      expect(await page.getAttribute('#glass', 'data-fnv')).toBe(fnvRed(u2.frame.png));
      expect(await page.getAttribute('body', 'data-flashes')).toBe('1');
      expect(await page.locator('#rows tr').count()).toBe(2);
      expect(await page.locator('#rows tr').first().textContent()).toContain('full');
      expect(problems).toEqual([]);

      await browser.close();
      browser = null;
      abort.abort();
      const result = await run;
      expect(result.refreshed).toBe(2);
    },
  );
});
