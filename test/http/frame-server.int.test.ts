import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HttpPublisher } from '../../src/http/http-publisher.js';
import { httpRequest } from '../helpers/http-client.js';
import { servePublisher, type ServeOptions } from '../helpers/serve-publisher.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { display } from '../fixtures/display.js';
import { manualClock } from '../helpers/fake-clock.js';
import { rec } from '../fixtures/rec.js';
import { update } from '../fixtures/frames.js';

const hallway = display('hallway', { panel: 'waveshare-7in5-v2' });
const kitchen = display('kitchen', { panel: 'waveshare-7in3-f' });

describe('HTTP frame server over a real socket', () => {
  const started: HttpPublisher[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.stop()));
  });

  /** The server with both displays; `publish` and `record` as servePublisher's. */
  function serve(over: ServeOptions = {}) {
    return servePublisher({ displays: [hallway, kitchen], clock: manualClock(), started }, over);
  }

  it('listens on 127.0.0.1 only, on the port asked for', async () => {
    const { p, url } = await serve();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(p.port).toBeGreaterThan(0);
  });

  it('serves the frame with ETag and Last-Modified; 304 on If-None-Match and If-Modified-Since; HEAD without body', async () => {
    const { url, clock, publish } = await serve();
    const u1 = update(hallway, 1);
    await publish(u1);
    const first = await httpRequest(`${url}/displays/hallway/frame.png`);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.body.equals(u1.frame.png)).toBe(true);
    const etag = first.headers.etag as string;
    expect(etag).toBe(`"${u1.frame.hash.slice(0, 32)}"`);
    expect(first.headers['last-modified']).toBe(new Date(clock.now()).toUTCString());
    expect(first.headers['cache-control']).toBe('no-cache');

    const head = await httpRequest(`${url}/displays/hallway/frame.png`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(u1.frame.png.length));
    expect(head.headers.etag).toBe(etag);

    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const r = await httpRequest(`${url}/displays/hallway/frame.png`, { headers: { 'If-None-Match': inm } });
      expect(r.status, inm).toBe(304);
      expect(r.body.length).toBe(0);
      expect(r.headers.etag).toBe(etag);
    }
    expect(
      (await httpRequest(`${url}/displays/hallway/frame.png`, { headers: { 'If-None-Match': '"nope"' } })).status,
    ).toBe(200);
    const lm = first.headers['last-modified'] as string;
    expect(
      (await httpRequest(`${url}/displays/hallway/frame.png`, { headers: { 'If-Modified-Since': lm } })).status,
    ).toBe(304);

    // The same frame again later keeps its Last-Modified; a new frame gets a new ETag and time.
    clock.advance(60_000);
    await publish(update(hallway, 1));
    expect((await httpRequest(`${url}/displays/hallway/frame.png`)).headers['last-modified']).toBe(lm);
    clock.advance(60_000);
    const u2 = update(hallway, 2);
    await publish(u2);
    const second = await httpRequest(`${url}/displays/hallway/frame.png`, { headers: { 'If-None-Match': etag } });
    expect(second.status).toBe(200);
    expect(second.body.equals(u2.frame.png)).toBe(true);
    expect(second.headers.etag).not.toBe(etag);
    expect(second.headers['last-modified']).toBe(new Date(clock.now()).toUTCString());
    expect(
      (await httpRequest(`${url}/displays/hallway/frame.png`, { headers: { 'If-Modified-Since': lm } })).status,
    ).toBe(200);
  });

  it('serves the BMP of a black/white panel, 404 for a colour panel, 503 before a frame, 404 for an unknown display', async () => {
    const { url, publish } = await serve();
    expect((await httpRequest(`${url}/displays/hallway/frame.png`)).status).toBe(503);
    const u = update(hallway, 3);
    await publish(u);
    await publish(update(kitchen, 3));
    const bmp = await httpRequest(`${url}/displays/hallway/frame.bmp`);
    expect(bmp.status).toBe(200);
    expect(bmp.headers['content-type']).toBe('image/bmp');
    expect(bmp.body.equals(u.frame.bmp!)).toBe(true);
    expect(bmp.body.length).toBe(48_062);
    const cached = await httpRequest(`${url}/displays/hallway/frame.bmp`, {
      headers: { 'If-None-Match': bmp.headers.etag as string },
    });
    expect(cached.status).toBe(304);
    expect((await httpRequest(`${url}/displays/kitchen/frame.bmp`)).status).toBe(404);
    expect((await httpRequest(`${url}/displays/attic/frame.png`)).status).toBe(404);
    expect((await httpRequest(`${url}/displays/hallway/frame.png`, { method: 'POST' })).status).toBe(405);
    expect((await httpRequest(`${url}/nothing`)).status).toBe(404);
  });

  it('state.json: the Recommendation with fetched_at, next_update_at, stale, status and the frame', async () => {
    const next = new Date('2026-01-31T07:30:00.000Z');
    const { url, publish } = await serve({ nextUpdateAt: () => next });
    const u = update(hallway, 4);
    await publish(u);
    const s = (await httpRequest(`${url}/displays/hallway/state.json`)).json<Record<string, unknown>>();
    expect(s).toMatchObject({
      outfit: 'Light jacket, jeans and trainers.',
      fetched_at: '2026-01-31T08:00:01.000+01:00',
      next_update_at: '2026-01-31T08:30:00.000+01:00',
      stale: false,
      status: 'ok',
      frame: {
        hash: u.frame.hash,
        width: 800,
        height: 480,
        png: '/displays/hallway/frame.png',
        bmp: '/displays/hallway/frame.bmp',
      },
    });
  });

  it('/healthz: 200 while the answer on show is current by its schedule, whatever failed since; 503 with the reason once stale', async () => {
    const { url, clock, publish, record } = await serve();
    let h = await httpRequest(`${url}/healthz`);
    expect(h.status).toBe(503);
    expect(h.json<{ reason: string }>().reason).toContain('no frame yet');

    const since = new Date(clock.now());
    const lastSuccessAt = new Date(clock.now()).toISOString();
    for (const d of [hallway, kitchen]) {
      await publish({ ...update(d, 5), lastSuccessAt });
    }
    h = await httpRequest(`${url}/healthz`);
    expect(h.status).toBe(200);
    expect(h.json()).toMatchObject({ ok: true, reason: 'ok' });

    // A failed cycle keeps the last good answer: still current by the schedule, so still healthy.
    const unreachable = {
      ...update(kitchen, 5),
      lastSuccessAt,
      status: { kind: 'unreachable', since, message: 'connect ETIMEDOUT' },
      lastError: { code: 'E_TIMEOUT', message: 'connect ETIMEDOUT', at: since.toISOString() },
    } as const;
    record(unreachable);
    clock.advance(20 * 60_000);
    h = await httpRequest(`${url}/healthz`);
    expect(h.status).toBe(200);
    expect(JSON.stringify(h.json())).toContain('the outfit on show is still current');

    // The next slot passed without a new answer: the cycle draws the frame stale and records since when.
    clock.advance(60 * 60_000);
    const staleSince = new Date(clock.now() - 10 * 60_000);
    record({ ...unreachable, stale: true, staleSince });
    h = await httpRequest(`${url}/healthz`, { method: 'HEAD' });
    expect(h.status).toBe(503);
    h = await httpRequest(`${url}/healthz`);
    expect(h.status).toBe(503);
    expect(h.json<{ reason: string }>().reason).toBe(
      `kitchen: service unreachable since ${since.toISOString()} (connect ETIMEDOUT); the outfit on show is out of date since ${staleSince.toISOString()} (a scheduled update passed without a new one)`,
    );
  });

  it('the status page: frames, next update, credits against the budget, last error, every text escaped, no secret', async () => {
    const apiKey = 'sk_live_supersecretkey123';
    const evil = `<script>alert("x")</script> & <img src=x onerror=alert(1)> ${apiKey}`;
    const cap = capturingLogger();
    const { url, publish } = await serve({
      nextUpdateAt: () => new Date('2026-01-31T07:30:00.000Z'),
      budget: () => ({
        spentToday: 12,
        leftToday: 188,
        spentMonth: 120,
        leftMonth: null,
        rateRemaining: 57,
        warnings: [],
      }),
      secrets: [apiKey],
      logger: cap.logger,
    });
    await publish({
      ...update(hallway, 6, { rec: { ...rec(), outfit: evil } }),
      status: { kind: 'key_rejected', message: `key ${apiKey} rejected` },
      lastError: { code: 'E_KEY', message: `<b>bad</b> key ${apiKey}`, at: '2026-01-31T06:59:00.000Z' },
    });
    const r = await httpRequest(`${url}/`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['content-security-policy']).toContain("default-src 'none'");
    const html = r.text();
    expect(html).toContain('name="viewport"');
    expect(html).toMatch(/<img src="\/displays\/hallway\/frame\.png\?v=[0-9a-f]{12}"/);
    expect(html).toContain(
      '&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#60;img src=x onerror=alert(1)&#62;',
    );
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>bad');
    expect(html).not.toContain(apiKey);
    expect(html).toContain('[redacted]');
    expect(html).toContain('<b>12</b> of 200 credits spent today');
    expect(html).toContain('Sat 31 Jan, 08:30 (in 30 min)');
    expect(html).toContain('No frame yet.');
    expect(cap.text()).not.toContain(apiKey);
  });

  it('refresh: a POST from the page refreshes through the provider; one from another site is refused', async () => {
    const refresh = vi.fn(() => Promise.resolve(null));
    const { url } = await serve({ refresh });
    const host = new URL(url).host;
    const foreign = await httpRequest(`${url}/displays/hallway/refresh`, {
      method: 'POST',
      headers: { Origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const crossSite = await httpRequest(`${url}/displays/hallway/refresh`, {
      method: 'POST',
      headers: { 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect(refresh).not.toHaveBeenCalled();
    const ok = await httpRequest(`${url}/displays/hallway/refresh`, {
      method: 'POST',
      headers: { Origin: `http://${host}` },
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/?refreshed=hallway');
    await vi.waitFor(() => expect(refresh).toHaveBeenCalledWith('hallway'));
    expect((await httpRequest(`${url}/displays/hallway/refresh`)).status).toBe(405);
    expect((await httpRequest(`${url}/?refreshed=hallway`)).text()).toContain('Refresh of hallway requested.');
  });
});
