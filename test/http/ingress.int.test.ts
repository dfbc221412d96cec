import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpPublisher } from '../../src/http/http-publisher.js';
import { httpRequest } from '../helpers/http-client.js';
import { servePublisher, type ServeOptions } from '../helpers/serve-publisher.js';
import { display } from '../fixtures/display.js';
import { manualClock } from '../helpers/fake-clock.js';
import { update } from '../fixtures/frames.js';

/**
 * Home Assistant's ingress proxy, as the Supervisor forwards a request: the browser's Host and Origin (Home
 * Assistant's name), X-Forwarded-Host with the same, X-Ingress-Path with the prefix, and the path without it. Its
 * peer address (172.30.32.2 in an add-on) is 127.0.0.1 here, named with `ingressProxies`.
 */

const hallway = display('hallway', { panel: 'waveshare-7in5-v2' });
const PREFIX = '/api/hassio_ingress/AbC_123-xYz';
const HA = 'homeassistant.local:8123';
const MAC = 'AA:BB:CC:DD:EE:01';

function viaIngress(extra: Record<string, string> = {}): Record<string, string> {
  return { Host: HA, 'X-Forwarded-Host': HA, 'X-Ingress-Path': PREFIX, 'X-Hass-Source': 'core.ingress', ...extra };
}

/** Every URL in an href, src or action attribute; and how many attribute values look like a path at all. */
function urlsOf(html: string): { urls: string[]; pathLike: number } {
  const urls = [...html.matchAll(/\s(?:href|src|action)="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
  const pathLike = [...html.matchAll(/="(?:\/|https?:|\/\/)[^"]*"/g)].length;
  return { urls, pathLike };
}

describe('the status page through Home Assistant ingress', () => {
  const started: HttpPublisher[] = [];
  const refreshed: string[] = [];
  afterEach(async () => {
    refreshed.length = 0;
    await Promise.all(started.splice(0).map((p) => p.stop()));
  });

  async function serve(over: ServeOptions = {}): Promise<string> {
    const { url, publish } = await servePublisher(
      {
        displays: [hallway],
        clock: manualClock(),
        started,
        defaults: {
          refresh: (id) => {
            refreshed.push(id);
            return Promise.resolve(null);
          },
          refreshUnavailable: null,
          trmnlDevices: [{ mac: MAC, display: 'hallway', format: 'png' }],
          trmnlTokens: new Map([[MAC, 'token-of-the-device']]),
          ingressProxies: ['127.0.0.1'],
        },
      },
      over,
    );
    await publish(update(hallway, 1));
    return url;
  }

  it('every URL on the page is under the prefix, the frame among them, and Home Assistant may frame the page', async () => {
    const url = await serve();
    const res = await httpRequest(`${url}/`, { headers: viaIngress() });
    expect(res.status).toBe(200);
    const { urls, pathLike } = urlsOf(res.text());
    // The frame (link and image), state.json, frame.png, the refresh form and the TRMNL pairing form.
    expect(urls.length).toBeGreaterThanOrEqual(6);
    expect(pathLike).toBe(urls.length);
    for (const u of urls) expect(u.startsWith(`${PREFIX}/`), u).toBe(true);
    expect(res.text()).toContain(`action="${PREFIX}/displays/hallway/refresh"`);
    expect(res.text()).toContain(`action="${PREFIX}/trmnl/AA-BB-CC-DD-EE-01/pair"`);
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");

    // The proxy strips the prefix: the image the page names is served at the rest of its path.
    const img = urls.find((u) => u.includes('frame.png?v='))!;
    const png = await httpRequest(`${url}${img.slice(PREFIX.length)}`, { headers: viaIngress() });
    expect(png.status).toBe(200);
    expect(PNG.sync.read(png.body).width).toBe(800);
    const state = await httpRequest(`${url}/displays/hallway/state.json`, { headers: viaIngress() });
    expect(state.json<{ frame: { png: string } }>().frame.png).toBe(`${PREFIX}/displays/hallway/frame.png`);
  });

  it('a refresh from the page through the proxy goes back under the prefix; a pairing too', async () => {
    const url = await serve();
    const post = await httpRequest(`${url}/displays/hallway/refresh`, {
      method: 'POST',
      headers: viaIngress({ Origin: `http://${HA}`, 'Sec-Fetch-Site': 'same-origin' }),
    });
    expect(post.status).toBe(303);
    expect(post.headers.location).toBe(`${PREFIX}/?refreshed=hallway`);
    expect(refreshed).toEqual(['hallway']);
    // The pairing form carries the page's token (pair-form-token.ts), as the page shown through the proxy has it.
    const page = (await httpRequest(`${url}/`, { headers: viaIngress() })).text();
    const token = /name="token" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const pair = await httpRequest(`${url}/trmnl/AA-BB-CC-DD-EE-01/pair`, {
      method: 'POST',
      headers: viaIngress({ Origin: `http://${HA}`, 'Content-Type': 'application/x-www-form-urlencoded' }),
      body: `token=${encodeURIComponent(token)}`,
    });
    expect(pair.status).toBe(303);
    expect(pair.headers.location).toBe(`${PREFIX}/?pairing=AA-BB-CC-DD-EE-01`);
  });

  it('a POST from another site is refused with X-Ingress-Path, through the proxy or not', async () => {
    const url = await serve();
    const cases: Record<string, string>[] = [
      viaIngress({ Origin: 'https://evil.example' }),
      viaIngress({ Origin: `http://${HA}`, 'Sec-Fetch-Site': 'cross-site' }),
      viaIngress({ Origin: 'null' }),
      { 'X-Ingress-Path': PREFIX, Origin: 'https://evil.example' },
    ];
    for (const headers of cases) {
      const r = await httpRequest(`${url}/displays/hallway/refresh`, { method: 'POST', headers });
      expect(r.status, JSON.stringify(headers)).toBe(403);
      const p = await httpRequest(`${url}/trmnl/AA-BB-CC-DD-EE-01/pair`, { method: 'POST', headers });
      expect(p.status, JSON.stringify(headers)).toBe(403);
    }
    expect(refreshed).toEqual([]);
  });

  it('only the proxy is excused from the Host check; a prefix from anyone shapes links only', async () => {
    const url = await serve({ ingressProxies: ['172.30.32.2'] });
    const foreign = await httpRequest(`${url}/`, { headers: viaIngress() });
    expect(foreign.status).toBe(421);
    const local = await httpRequest(`${url}/`, { headers: { 'X-Ingress-Path': PREFIX } });
    expect(local.status).toBe(200);
    for (const u of urlsOf(local.text()).urls) expect(u.startsWith(`${PREFIX}/`), u).toBe(true);
    // Not framed: that is only for Home Assistant's own page, through its proxy.
    expect(local.headers['x-frame-options']).toBe('DENY');
    expect(local.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('an ingress header that is not a plain path is ignored', async () => {
    const url = await serve();
    for (const bad of [
      '/api/x"><script>alert(1)</script>',
      'https://evil.example/x',
      '//evil.example/x',
      '/a/../b',
      'api/no-slash',
      '/a b',
      `/${'x'.repeat(300)}`,
    ]) {
      const res = await httpRequest(`${url}/`, { headers: { 'X-Ingress-Path': bad } });
      expect(res.status, bad).toBe(200);
      const { urls, pathLike } = urlsOf(res.text());
      expect(pathLike).toBe(urls.length);
      for (const u of urls) expect(u.startsWith('/displays/') || u.startsWith('/trmnl/'), `${bad}: ${u}`).toBe(true);
      expect(res.text()).not.toContain('evil.example');
      expect(res.text()).not.toContain('<script>');
    }
    // Through the proxy with a bad header: no excuse from the Host check either.
    const r = await httpRequest(`${url}/`, { headers: { Host: HA, 'X-Ingress-Path': '//evil.example' } });
    expect(r.status).toBe(421);
  });

  it('without ingress the page is as before: root paths, not framed', async () => {
    const url = await serve();
    const res = await httpRequest(`${url}/`);
    const { urls } = urlsOf(res.text());
    expect(urls.length).toBeGreaterThanOrEqual(6);
    for (const u of urls) expect(/^\/(displays|trmnl)\//.test(u), u).toBe(true);
    expect(res.headers['x-frame-options']).toBe('DENY');
    const post = await httpRequest(`${url}/displays/hallway/refresh`, { method: 'POST' });
    expect(post.headers.location).toBe('/?refreshed=hallway');
  });
});
