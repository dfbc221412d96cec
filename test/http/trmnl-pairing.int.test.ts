import { statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TrmnlTransport } from '../../display/firmware/transport-trmnl.js';
import { loadConfig } from '../../src/config/load.js';
import type { HttpPublisher } from '../../src/http/http-publisher.js';
import { openPairingFile, PAIRING_FILE } from '../../src/trmnl/pairing.js';
import { httpRequest } from '../helpers/http-client.js';
import { servePublisher, type ServeOptions } from '../helpers/serve-publisher.js';
import { runCli, simulatedConfig, tempConfig } from '../helpers/cli.js';
import { display } from '../fixtures/display.js';
import { manualClock } from '../helpers/fake-clock.js';
import { update } from '../fixtures/frames.js';

const MAC = 'AA:BB:CC:DD:EE:01';
const OTHER_MAC = 'AA:BB:CC:DD:EE:02';
const TOKEN = 'tok-hallway-0123456789';
const OTHER_TOKEN = 'tok-porch-0123456789';
const hallway = display('hallway', { panel: 'trmnl' });
const porch = display('porch', { panel: 'trmnl' });

describe('TRMNL pairing', () => {
  const started: HttpPublisher[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.stop()));
  });

  function serve(over: ServeOptions = {}) {
    return servePublisher(
      {
        displays: [hallway, porch],
        clock: manualClock(),
        started,
        defaults: {
          trmnlDevices: [
            { mac: MAC, display: 'hallway' },
            { mac: OTHER_MAC, display: 'porch' },
          ],
          trmnlTokens: new Map([
            [MAC, TOKEN],
            [OTHER_MAC, OTHER_TOKEN],
          ]),
          refresh: () => Promise.resolve(null),
        },
      },
      over,
    );
  }

  const setup = (url: string, mac = MAC) =>
    httpRequest(`${url}/api/setup/`, { headers: { ID: mac, 'FW-Version': '1.6.2', Model: 'og' } });
  const codes = (logs: () => string): string[] =>
    logs()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { code?: string }).code ?? '')
      .filter((c) => c !== '');

  it('a bare MAC gets no token while pairing is closed; open, one setup gets it, then it is closed again', async () => {
    const { p, publish, url, clock, logs } = await serve();
    await publish(update(hallway, 1));
    const closed = await setup(url);
    expect(closed.status).toBe(404);
    expect(closed.json()).toMatchObject({ status: 404, api_key: null, friendly_id: null, image_url: null });
    expect(closed.text()).not.toContain(TOKEN);
    // A configured MAC and an unknown one get the same answer: setup does not tell which MACs exist.
    const unknown = await setup(url, '11:22:33:44:55:66');
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toEqual(closed.json());

    // The firmware simulator, like the device, shows the server's message: how to open pairing.
    const sim = new TrmnlTransport({ baseUrl: url, mac: MAC });
    const wake = {
      batteryVolts: 4.1,
      rssi: -60,
      refreshRateS: 900,
      fwVersion: '1.6.2',
      model: 'og',
      width: 800,
      height: 480,
      batteryPct: 91.7,
      wakeReason: 'timer' as const,
      extra: null,
    };
    expect(await sim.fetch(wake)).toMatchObject({
      kind: 'error',
      code: 'MAC_NOT_REGISTERED',
      message: expect.stringContaining('outfit-display pair') as unknown,
    });
    expect(sim.registered).toBe(false);

    p.pairing.open([MAC]);
    // Opening one device opens no other.
    expect((await setup(url, OTHER_MAC)).status).toBe(404);
    const paired = await setup(url);
    expect(paired.status).toBe(200);
    expect(paired.json()).toMatchObject({ status: 200, api_key: TOKEN });
    const again = await setup(url);
    expect(again.status).toBe(404);
    expect(again.text()).not.toContain(TOKEN);

    // Two setups racing for one window: one token, not two.
    p.pairing.open([MAC]);
    const raced = await Promise.all(Array.from({ length: 8 }, () => setup(url)));
    expect(raced.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404, 404, 404, 404]);

    // A window that runs out without a setup closes by itself (5 minutes by default).
    p.pairing.open([MAC]);
    clock.advance(5 * 60_000);
    expect((await setup(url)).status).toBe(404);
    // The first refusal from this source is logged at once; the rest of its minute is summed up later.
    expect(codes(logs)).toEqual(['W_TRMNL_PAIRING_CLOSED']);
    expect(logs()).not.toContain(TOKEN);
  });

  it('a pairing file (what `outfit-display pair` writes) opens pairing; the daemon drops the entry once the device paired', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'outfit-pair-'));
    const file = path.join(dir, PAIRING_FILE);
    const { p, url, clock, logs } = await serve({ pairingFile: file });
    expect((await setup(url)).status).toBe(404);
    await openPairingFile(file, [MAC, OTHER_MAC], 5, clock.now());
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    // The status page shows it, read from the file.
    expect((await httpRequest(`${url}/`)).text()).toMatch(
      /Pair TRMNL AA:BB:CC:DD:EE:01 \(5 minutes\)<\/button> <small>pairing open until/,
    );
    expect((await setup(url)).json()).toMatchObject({ status: 200, api_key: TOKEN });
    expect((await setup(url)).status).toBe(404);
    const left = JSON.parse(await readFile(file, 'utf8')) as { devices: { mac: string }[] };
    expect(left.devices.map((d) => d.mac)).toEqual([OTHER_MAC]);
    // A restart (a new server, same file) does not reopen the paired device.
    await p.stop();
    const second = await serve({ pairingFile: file });
    second.clock.set(clock.now());
    expect((await setup(second.url)).status).toBe(404);
    expect((await setup(second.url, OTHER_MAC)).json()).toMatchObject({ status: 200, api_key: OTHER_TOKEN });

    // A file others may write is not trusted; one that is not JSON neither, each with W_PAIRING_FILE.
    await openPairingFile(file, [MAC], 5, second.clock.now());
    await chmod(file, 0o666);
    expect((await setup(second.url)).status).toBe(404);
    await writeFile(file, '{"devices": [', { mode: 0o600 });
    await chmod(file, 0o600);
    expect((await setup(second.url)).status).toBe(404);
    expect(codes(second.logs).filter((c) => c === 'W_PAIRING_FILE')).toHaveLength(2);
    // A hand-made window longer than the CLI allows is ignored.
    const now = second.clock.now();
    await writeFile(
      file,
      JSON.stringify({
        version: 1,
        devices: [
          { mac: MAC, opened_at: new Date(now).toISOString(), until: new Date(now + 86_400_000).toISOString() },
        ],
      }),
      { mode: 0o600 },
    );
    expect((await setup(second.url)).status).toBe(404);
    expect(logs()).not.toContain(TOKEN);
  });

  /** The pairing form's token for `dashed` (AA-BB-…) on a status page, as a browser would send it back. */
  const formToken = (page: string, dashed: string): string => {
    const m = new RegExp(`action="/trmnl/${dashed}/pair"><input type="hidden" name="token" value="([^"]+)">`).exec(
      page,
    );
    if (m === null) throw new Error(`no pairing form for ${dashed} on the page`);
    return m[1]!;
  };
  const form = (token: string): { body: string; headers: Record<string, string> } => ({
    body: `token=${encodeURIComponent(token)}`,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  const pairPost = (url: string, opts: { token?: string; headers?: Record<string, string> } = {}) => {
    const f = opts.token === undefined ? { body: '', headers: {} } : form(opts.token);
    return httpRequest(`${url}/trmnl/AA-BB-CC-DD-EE-01/pair`, {
      method: 'POST',
      body: f.body,
      headers: { ...f.headers, ...opts.headers },
    });
  };

  it('the status page has a pairing button per TRMNL device; its POST opens pairing only with the page’s own form token, from its own origin', async () => {
    const { url, clock, logs } = await serve();
    // A bare POST, as curl sends it from anywhere on the network (no Origin, no token): refused, nothing opened.
    const bare = await pairPost(url);
    expect(bare.status).toBe(403);
    expect(bare.text()).toContain('form token');
    expect(codes(logs)).toEqual(['W_HTTP_PAIR_REFUSED']);
    expect((await setup(url)).status).toBe(404);

    const page = (await httpRequest(`${url}/`)).text();
    expect(page).toContain('action="/trmnl/AA-BB-CC-DD-EE-01/pair"');
    expect(page).toContain('action="/trmnl/AA-BB-CC-DD-EE-02/pair"');
    const token = formToken(page, 'AA-BB-CC-DD-EE-01');
    expect(page).not.toContain(TOKEN);
    // A wrong token, the other device's, one cut short, and one from another server's page (another start) are refused.
    const other = await serve();
    const foreign = formToken((await httpRequest(`${other.url}/`)).text(), 'AA-BB-CC-DD-EE-01');
    for (const bad of ['x', formToken(page, 'AA-BB-CC-DD-EE-02'), token.slice(0, -1), foreign]) {
      const r = await pairPost(url, { token: bad });
      expect(r.status, bad).toBe(403);
      expect(r.text()).toContain('wrong form token');
    }
    // The right token from another site's page: refused as before.
    const host = new URL(url).host;
    expect((await pairPost(url, { token, headers: { Origin: 'http://evil.example', Host: host } })).status).toBe(403);
    expect((await setup(url)).status).toBe(404);
    expect(
      (await httpRequest(`${url}/trmnl/11-22-33-44-55-66/pair`, { method: 'POST', headers: { Origin: url } })).status,
    ).toBe(404);
    expect((await httpRequest(`${url}/trmnl/AA-BB-CC-DD-EE-01/pair`)).status).toBe(405);

    // The page's own form, as a browser sends it (no Origin header is needed): pairing opens.
    const press = await pairPost(url, { token });
    expect(press.status).toBe(303);
    expect(press.headers.location).toBe('/?pairing=AA-BB-CC-DD-EE-01');
    const after = (await httpRequest(`${url}${String(press.headers.location)}`)).text();
    expect(after).toContain('Pairing of AA:BB:CC:DD:EE:01 is open until');
    expect(after).toMatch(/pairing open until/);
    expect((await setup(url)).json()).toMatchObject({ status: 200, api_key: TOKEN });
    expect((await setup(url, OTHER_MAC)).status).toBe(404);
    // With Origin and Sec-Fetch-Site, as a browser adds them.
    const browser = await pairPost(url, { token, headers: { Origin: url, 'Sec-Fetch-Site': 'same-origin' } });
    expect(browser.status).toBe(303);
    expect((await setup(url)).json()).toMatchObject({ status: 200, api_key: TOKEN });

    // A page older than an hour: its button no longer works; a reloaded page's does.
    clock.advance(60 * 60_000 + 1);
    const old = await pairPost(url, { token });
    expect(old.status).toBe(403);
    expect(old.text()).toContain('expired form token');
    const fresh = formToken((await httpRequest(`${url}/`)).text(), 'AA-BB-CC-DD-EE-01');
    expect((await pairPost(url, { token: fresh })).status).toBe(303);
    expect(logs()).not.toContain(TOKEN);
  });

  it(
    '`outfit-display pair` opens pairing for the chosen devices through <state_dir>/pairing.json; bad flags exit 2',
    { timeout: 60_000 },
    async () => {
      const displays = [
        '  - id: hallway',
        '    lat: 52.52',
        '    lon: 13.405',
        '    panel: trmnl',
        '  - id: porch',
        '    lat: 52.52',
        '    lon: 13.405',
        '    panel: trmnl',
      ].join('\n');
      const trmnl = `http:\n  listen: 127.0.0.1:0\ntrmnl:\n  devices:\n    - mac: "${MAC.toLowerCase()}"\n      display: hallway\n      token: ${TOKEN}\n    - mac: "${OTHER_MAC}"\n      display: porch\n      token: ${OTHER_TOKEN}\n`;
      const { dir, file } = await tempConfig(simulatedConfig({ displays }) + trmnl);
      await mkdir(path.join(dir, 'state'));
      const r = await runCli(['pair', '--config', file, '--display', 'hallway', '--minutes', '3']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`pairing open for ${MAC} (display hallway)`);
      expect(r.stdout).not.toContain(TOKEN);
      const written = JSON.parse(await readFile(path.join(dir, 'state', PAIRING_FILE), 'utf8')) as {
        devices: { mac: string; opened_at: string; until: string }[];
      };
      expect(written.devices.map((d) => d.mac)).toEqual([MAC]);
      const w = written.devices[0]!;
      expect(Date.parse(w.until) - Date.parse(w.opened_at)).toBe(3 * 60_000);
      // The daemon's HTTP server, built from the same config, sees it.
      const loaded = await loadConfig(file);
      const { p, url, clock } = await serve({ pairingFile: path.join(loaded.config.state_dir, PAIRING_FILE) });
      clock.set(Date.parse(w.opened_at) + 1_000);
      expect((await setup(url)).json()).toMatchObject({ status: 200, api_key: TOKEN });
      await p.stop();

      const byMac = await runCli(['pair', '--config', file, '--mac', OTHER_MAC.replace(/:/g, '-')]);
      expect(byMac.code, byMac.stderr).toBe(0);
      for (const bad of [
        ['--mac', '11:22:33:44:55:66'],
        ['--minutes', '61'],
        ['--minutes', '0x10'],
        ['--minutes', '1e1'],
        ['--display', 'hallway', '--mac', MAC],
      ]) {
        const b = await runCli(['pair', '--config', file, ...bad]);
        expect(b.code, `${bad.join(' ')}: ${b.stderr}`).toBe(2);
      }
    },
  );
});

describe('TRMNL tokens from a file', () => {
  it(
    'a token_file needs the inline token’s 8 characters: exit 2 naming the file, never its content',
    { timeout: 30_000 },
    async () => {
      const displays = ['  - id: hallway', '    lat: 52.52', '    lon: 13.405', '    panel: trmnl'].join('\n');
      const { dir, file } = await tempConfig(
        `${simulatedConfig({ displays })}http:\n  listen: 127.0.0.1:0\ntrmnl:\n  devices:\n    - mac: "${MAC}"\n      display: hallway\n      token_file: short.token\n`,
      );
      const tokenFile = path.join(dir, 'short.token');
      await writeFile(tokenFile, 'Qx7!a2\n', { mode: 0o600 });
      const r = await runCli(['check-config', '--config', file]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('E_SECRET_TOO_SHORT');
      expect(r.stderr).toContain(tokenFile);
      expect(r.stderr + r.stdout).not.toContain('Qx7!a2');
      // Eight characters are enough, as for an inline token.
      await writeFile(tokenFile, 'Qx7!a2b9\n');
      const loaded = await loadConfig(file, { env: {} });
      expect(loaded.secrets.trmnlTokens.get(MAC)).toBe('Qx7!a2b9');
    },
  );
});
