import { connect } from 'node:net';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { HostCheck, hostnameOf } from '../../src/http/host-check.js';
import type { HttpPublisher } from '../../src/http/http-publisher.js';
import { httpRequest } from '../helpers/http-client.js';
import { servePublisher, type ServeOptions } from '../helpers/serve-publisher.js';
import { clockAt, manualClock } from '../helpers/fake-clock.js';
import { display } from '../fixtures/display.js';
import { update } from '../fixtures/frames.js';

const MAC = 'AA:BB:CC:DD:EE:01';
const TOKEN = 'tok-hallway-0123456789';
const hallway = display('hallway', { panel: 'trmnl' });

/** A raw HTTP/1.0 request without a Host header (node:http always sends one). */
function withoutHost(url: string, path: string): Promise<string> {
  return rawRequest(url, `GET ${path} HTTP/1.0\r\n\r\n`);
}

/** `head` written as it is to the server's socket; the whole answer, once the server closes. */
function rawRequest(url: string, head: string): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(u.port), u.hostname, () => s.end(head));
    let text = '';
    s.on('data', (d: Buffer) => (text += d.toString('latin1')));
    s.on('end', () => resolve(text));
    s.on('error', reject);
  });
}

describe('Host check (DNS rebinding, foreign image URLs)', () => {
  const started: HttpPublisher[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.stop()));
  });

  async function serve(over: ServeOptions = {}) {
    const served = await servePublisher(
      {
        displays: [hallway],
        clock: manualClock(),
        started,
        defaults: {
          trmnlDevices: [{ mac: MAC, display: 'hallway' }],
          trmnlTokens: new Map([[MAC, TOKEN]]),
          refresh: () => Promise.resolve(null),
        },
      },
      over,
    );
    await served.publish(update(hallway, 1));
    return served;
  }

  const device = { ID: MAC, 'Access-Token': TOKEN };

  it('a Host naming another machine gets 421 on every path, and its name never reaches an image_url', async () => {
    const { url, logs } = await serve();
    const cases: [string, string, Record<string, string>][] = [
      ['GET', '/', {}],
      ['GET', '/healthz', {}],
      ['GET', '/displays/hallway/state.json', {}],
      ['GET', '/displays/hallway/frame.png', {}],
      ['POST', '/displays/hallway/refresh', {}],
      ['GET', '/api/display', device],
      ['GET', '/api/setup/', { ID: MAC }],
      ['POST', '/trmnl/AA-BB-CC-DD-EE-01/pair', {}],
      ['GET', '/nope', {}],
    ];
    for (const host of [
      'rebind.attacker.example:8321',
      'rebind.attacker.example',
      '203.0.113.9',
      '[2001:db8::1]:80',
      'a b',
    ]) {
      for (const [method, path, headers] of cases) {
        const r = await httpRequest(`${url}${path}`, { method, headers: { ...headers, Host: host } });
        expect(r.status, `${method} ${path} Host: ${host}`).toBe(421);
        expect(r.text()).not.toContain(host);
      }
    }
    const line = logs()
      .split('\n')
      .map((l) => (l === '' ? {} : (JSON.parse(l) as Record<string, unknown>)))
      .find((l) => l.code === 'W_HTTP_HOST_REFUSED');
    expect(line).toMatchObject({ source: '127.0.0.1', count: 1, host: 'rebind.attacker.example:8321' });
  });

  it('a request with two Host headers gets 400 (W_HTTP_HOST_DUPLICATE), whichever comes first; one Host is answered', async () => {
    const { url, logs } = await serve();
    const host = new URL(url).host;
    for (const hosts of [
      [host, 'evil.example'],
      [host, host],
      ['evil.example', host],
    ]) {
      const answer = await rawRequest(
        url,
        `GET /displays/hallway/frame.png HTTP/1.1\r\n${hosts.map((h) => `Host: ${h}\r\n`).join('')}Connection: close\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    }
    // The same request with one Host line: the frame.
    expect(
      await rawRequest(url, `GET /displays/hallway/frame.png HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    ).toMatch(/^HTTP\/1\.1 200 /);
    expect(logs()).toContain('"code":"W_HTTP_HOST_DUPLICATE"');
  });

  it('this machine’s names and addresses, public_url’s host and http.allowed_hosts are answered; image_url uses that Host', async () => {
    const { url } = await serve({ allowedHosts: ['outfit.home.arpa'] });
    const port = new URL(url).port;
    const name = os.hostname().toLowerCase();
    const first = name.split('.')[0]!;
    const own = Object.values(os.networkInterfaces())
      .flat()
      .map((a) => a?.address)
      .filter((a): a is string => a !== undefined && !a.includes('%'));
    const hosts = [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      'LOCALHOST',
      '[::1]:8321',
      `${name}:${port}`,
      `${first}.local:${port}`,
      `${first}.local.`,
      'outfit.home.arpa:8321',
      ...own.map((a) => (a.includes(':') ? `[${a}]:${port}` : `${a}:${port}`)),
    ];
    for (const host of hosts) {
      const r = await httpRequest(`${url}/api/display`, { headers: { ...device, Host: host } });
      expect(r.status, host).toBe(200);
      expect(r.json<{ image_url: string }>().image_url.startsWith(`http://${host}/displays/hallway/trmnl/`), host).toBe(
        true,
      );
    }
    // HTTP/1.0 without a Host: answered, and the image URL is the socket's own address.
    const raw = await withoutHost(url, '/healthz');
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('with http.public_url, image_url is always public_url, and its host is answered', async () => {
    const { url } = await serve({ publicUrl: 'http://frames.example:9000/' });
    const r = await httpRequest(`${url}/api/display`, { headers: { ...device, Host: 'frames.example:9000' } });
    expect(r.status).toBe(200);
    expect(r.json<{ image_url: string }>().image_url).toMatch(
      /^http:\/\/frames\.example:9000\/displays\/hallway\/trmnl\//,
    );
    const local = await httpRequest(`${url}/api/display`, { headers: device });
    expect(local.json<{ image_url: string }>().image_url).toMatch(/^http:\/\/frames\.example:9000\//);
  });

  it('an address that came after the start (DHCP) is allowed once the interfaces are read again; names are parsed strictly', () => {
    let t = 0;
    let addrs: string[] = ['192.168.1.5'];
    const check = new HostCheck({
      clock: clockAt(() => t),
      hostname: () => 'Pi-Kitchen.lan',
      interfaces: () => ({
        eth0: addrs.map((address): os.NetworkInterfaceInfo => ({
          address,
          netmask: '',
          family: 'IPv4',
          mac: '',
          internal: false,
          cidr: null,
        })),
      }),
    });
    expect(check.check('192.168.1.5:8321', undefined).ok).toBe(true);
    expect(check.check('pi-kitchen:80', undefined).ok).toBe(true);
    expect(check.check('pi-kitchen.local', undefined).ok).toBe(true);
    expect(check.check('pi-kitchen.lan', undefined).ok).toBe(true);
    expect(check.check('kitchen.lan', undefined).ok).toBe(false);
    addrs = ['192.168.1.5', '10.0.0.7'];
    // Read again at most once a second (a flood of foreign addresses does not list the interfaces each time).
    expect(check.check('10.0.0.7', undefined).ok).toBe(false);
    t += 1_000;
    expect(check.check('10.0.0.7', undefined).ok).toBe(true);
    // The socket's own address, also in its IPv4-mapped form.
    expect(check.check('172.16.0.2:8321', '::ffff:172.16.0.2').ok).toBe(true);
    expect(check.check('172.16.0.3:8321', '::ffff:172.16.0.2').ok).toBe(false);
    expect(hostnameOf('[::1]:8321')).toBe('::1');
    expect(hostnameOf('Example.LAN.:80')).toBe('example.lan');
    for (const bad of ['a b', 'host:port', 'x@y', '[zz]', 'http://x']) expect(hostnameOf(bad), bad).toBeNull();
  });
});
