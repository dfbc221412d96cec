import { configYaml } from '../helpers/config-yaml.js';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../../src/config/load.js';
import { secretValues } from '../../src/config/secrets.js';
import { buildDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { createLogger } from '../../src/log/logging.js';
import { parseListen, startHttpServer } from '../../src/http/server.js';
import { HttpPublisher } from '../../src/http/http-publisher.js';
import { openPairingFile, PAIRING_FILE } from '../../src/trmnl/pairing.js';
import { frameContent } from '../../src/render/layout/content.js';
import { renderIndices, type FrameInput } from '../../src/render/frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { startServiceSim, type RunningServiceSim } from '../helpers/service-sim.js';
import { runCli } from '../helpers/cli.js';
import { httpRequest, type RawResponse } from '../helpers/http-client.js';
import { startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';
import { systemClock } from '../../src/time/clock.js';
import { WRONG_TOKENS_ALLOWED } from '../../src/trmnl/token-throttle.js';
import { shownView, testViews } from '../helpers/views.js';
import { watch, type Watcher } from '../helpers/mqtt-watch.js';

/**
 * Secrets stay secret, end to end: a full daemon (buildDaemon from a config file through the real loader) with a
 * distinctive API key and MQTT password, a password-protected Mosquitto, the HTTP frame server and a TRMNL device.
 * Everything observable is collected: every log line (trace level, the real logger), every MQTT message under `#`,
 * every HTTP response (status page, /healthz, state.json, frames, TRMNL endpoints with right, wrong and missing
 * tokens, errors), every file in output_dir and state_dir, the texts drawn on the error screens (the layout's own
 * report of what it placed: no OCR needed) and the budget warnings. Neither secret may appear in any of them, raw,
 * URL-encoded, base64 (also as a Basic-auth pair) or JSON-escaped, not even in part; also when the service echoes
 * the key back in its error messages.
 *
 * Also here: the HTTP server binds to loopback unless configured otherwise; device endpoints refuse unknown MACs
 * and wrong or missing tokens with no image. Not here, because it is already tested: a world-readable key file gets
 * a warning ("warns about a world-readable key file" in test/config/load.test.ts); a bad secret (a line break inside,
 * a 200 MB file, a FIFO...) is refused at load, naming its source and never its content (test/config/secrets.test.ts, secrets.int.test.ts). `npm audit --audit-level=high`
 * runs in CI (.ci/run), not in this suite: it needs the registry.
 */

const API_KEY = 'sk_live_SECtest7f3a9c1e5b2d4086Zq';
const MQTT_USER = 'outfit';
const MQTT_PASSWORD = 'mqttPW-9d2f_c71e!a4b8/Qx';
const TRMNL_TOKEN = 'trmnl-tok-4c9e1a7b3d5f';
const MAC = 'AA:BB:CC:DD:EE:01';
const UNKNOWN_MAC = 'AA:BB:CC:DD:EE:99';

/** Every form a secret could leak in. */
function forms(secret: string, user?: string): string[] {
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  const out = [
    secret,
    encodeURIComponent(secret),
    encodeURIComponent(encodeURIComponent(secret)),
    JSON.stringify(secret).slice(1, -1),
    b64(secret),
    Buffer.from(secret).toString('base64url'),
    Buffer.from(secret).toString('hex'),
    // A part of it: a key shortened for display is still a leak.
    secret.slice(8, 22),
  ];
  if (user !== undefined) out.push(b64(`${user}:${secret}`), `${user}:${encodeURIComponent(secret)}`);
  return [...new Set(out)];
}

interface Observed {
  where: string;
  bytes: Buffer;
}

function leaks(observed: readonly Observed[], secrets: Record<string, string[]>): string[] {
  const found: string[] = [];
  for (const o of observed) {
    for (const [name, list] of Object.entries(secrets)) {
      for (const f of list) {
        if (o.bytes.includes(Buffer.from(f)) || o.bytes.toString('latin1').toLowerCase().includes(f.toLowerCase())) {
          found.push(`${name} (as "${f}") in ${o.where}`);
        }
      }
    }
  }
  return found;
}

async function filesUnder(dir: string): Promise<Observed[]> {
  const out: Observed[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const p = path.join(e.parentPath, e.name);
    out.push({ where: `file ${p}`, bytes: await readFile(p) });
  }
  return out;
}

function responseBytes(where: string, r: RawResponse): Observed {
  const head = `HTTP ${r.status}\n${Object.entries(r.headers)
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join('\n')}\n\n`;
  return { where, bytes: Buffer.concat([Buffer.from(head), r.body]) };
}

describe('no secret in anything the daemon shows', () => {
  let sim: RunningServiceSim;
  let broker: Mosquitto;
  let dir: string;
  let daemon: Daemon | undefined;
  let watcher: Watcher | undefined;
  let logText = '';

  beforeAll(async () => {
    sim = await startServiceSim({ keys: { [API_KEY]: { credits: 100_000 } } });
    broker = await startMosquitto({ users: { [MQTT_USER]: MQTT_PASSWORD, reader: 'reader-pw' } });
    dir = await mkdtemp(path.join(tmpdir(), 'outfit-security-'));
    await mkdir(path.join(dir, 'secrets'));
    await writeFile(path.join(dir, 'secrets', 'api-key'), `${API_KEY}\n`, { mode: 0o600 });
    await writeFile(path.join(dir, 'secrets', 'mqtt-password'), `${MQTT_PASSWORD}\n`, { mode: 0o600 });
    await writeFile(path.join(dir, 'secrets', 'trmnl-token'), `${TRMNL_TOKEN}\n`, { mode: 0o600 });
  });
  afterAll(async () => {
    await daemon?.stop();
    await watcher?.close();
    await broker?.dispose();
    await sim?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('neither the API key nor the MQTT password appears in logs, topics, payloads, HTTP responses, files or error screens', async () => {
    const configFile = path.join(dir, 'config.yaml');
    await writeFile(
      configFile,
      configYaml({
        baseUrl: sim.url,
        api: ['key_file: secrets/api-key'],
        creditsPerDay: 500,
        budget: ['refresh_reserve_credits: 30'],
        displays: [
          { id: 'hallway', panel: 'trmnl', schedule: '0 3 1 1 *' },
          {
            id: 'porch',
            lat: 50.94,
            lon: 6.96,
            panel: 'waveshare-2in13',
            schedule: '0 3 1 1 *',
            more: ['endpoint: recommend'],
          },
        ],
        sections: [
          'mqtt:',
          `  url: ${broker.url}`,
          `  username: ${MQTT_USER}`,
          '  password_file: secrets/mqtt-password',
          'http:',
          '  listen: 127.0.0.1:0',
          'trmnl:',
          '  devices:',
          `    - mac: "${MAC}"`,
          '      display: hallway',
          '      token_file: secrets/trmnl-token',
        ],
        outputDir: 'out/frames',
        stateDir: 'out/state',
        logLevel: 'trace',
      }),
    );
    const loaded = await loadConfig(configFile, { env: {} });
    expect(loaded.secrets.apiKey).toBe(API_KEY);
    expect(loaded.secrets.mqttPassword).toBe(MQTT_PASSWORD);
    expect(loaded.warnings).toEqual([]);
    expect(JSON.stringify(loaded.config)).not.toContain(API_KEY);

    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        logText += chunk.toString();
        cb();
      },
    });
    // The logger as the CLI makes it: the one redactor over every line, built from the loaded secrets.
    const logger = createLogger({ level: 'trace', secrets: secretValues(loaded.secrets), destination: sink });
    watcher = await watch(broker.url, ['#'], { username: 'reader', password: 'reader-pw' });
    daemon = await buildDaemon({ loaded, logger });
    await daemon.start();
    const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*HTTP frame server listening/.exec(logText)?.[1];
    expect(url, 'the HTTP server logs its address').toBeDefined();
    await watcher.waitFor((all) => all.some((m) => m.topic === 'outfit-display/porch/state'), 'first states');
    const observed: Observed[] = [];

    // --- HTTP: every endpoint, devices with the right, a wrong and no token, an unknown device --------------------
    const get = async (
      p: string,
      headers: Record<string, string> = {},
      method = 'GET',
      body?: string,
    ): Promise<RawResponse> => {
      const r = await httpRequest(`${url}${p}`, { method, headers, ...(body !== undefined && { body }) });
      observed.push(responseBytes(`${method} ${p} ${JSON.stringify(headers)}`, r));
      return r;
    };
    const sweep = async (): Promise<void> => {
      for (const p of [
        '/',
        '/healthz',
        '/displays/hallway/state.json',
        '/displays/porch/state.json',
        '/displays/hallway/frame.png',
        '/displays/porch/frame.bmp',
        '/displays/nope/state.json',
        '/nope',
        '/api/setup/../../etc/passwd',
      ]) {
        await get(p);
      }
      await get('/displays/hallway/refresh', { Origin: 'https://evil.example' }, 'POST');
      await get('/', {}, 'DELETE');
    };
    await sweep();

    // Setup hands out a token only while the owner has pairing open (what `outfit-display pair` writes).
    await openPairingFile(path.join(dir, 'out', 'state', PAIRING_FILE), [MAC], 5, Date.now());
    const setup = await get('/api/setup/', { ID: MAC });
    expect(setup.status).toBe(200);
    expect(setup.json<{ api_key: string }>().api_key).toBe(TRMNL_TOKEN); // the device's own token, by protocol
    const setupUnknown = await get('/api/setup/', { ID: UNKNOWN_MAC });
    expect(setupUnknown.status).toBe(404);
    expect(setupUnknown.json<{ api_key: unknown }>().api_key).toBeNull();

    const ok = await get('/api/display', { ID: MAC, 'Access-Token': TRMNL_TOKEN });
    expect(ok.status).toBe(200);
    const imageUrl = ok.json<{ image_url: string }>().image_url;
    expect(imageUrl).toMatch(/\/displays\/hallway\/trmnl\/outfit-[0-9a-f]{8}\.png$/);
    const image = await get(new URL(imageUrl).pathname);
    expect(image.headers['content-type']).toBe('image/png');

    expect(
      (
        await get(
          '/api/log',
          { ID: MAC, 'Access-Token': TRMNL_TOKEN },
          'POST',
          JSON.stringify({ logs: [{ message: 'boot' }] }),
        )
      ).status,
    ).toBe(204);

    // Refused: no token, an empty token, an unknown device, a wrong token, a token of the right length. After five
    // wrong tokens the address is slowed (429 for a minute, every TRMNL endpoint): those answers are watched too.
    const refused: Array<[Record<string, string>, number]> = [
      [{ ID: MAC }, 401],
      [{ ID: MAC, 'Access-Token': '' }, 401],
      [{ ID: UNKNOWN_MAC, 'Access-Token': TRMNL_TOKEN }, 404],
      [{ 'Access-Token': TRMNL_TOKEN }, 404],
      [{ ID: MAC, 'Access-Token': 'wrong-token-0000' }, 403],
      [{ ID: MAC, 'Access-Token': TRMNL_TOKEN.replace(/.$/, 'X') }, 403],
      [{ ID: MAC, 'Access-Token': TRMNL_TOKEN.toUpperCase() }, 403],
      [{ ID: MAC, 'Access-Token': API_KEY }, 403],
    ];
    let wrong = 0;
    const expected = (status: number): number => (status === 403 && wrong++ >= WRONG_TOKENS_ALLOWED ? 429 : status);
    for (const [headers, status] of refused) {
      const r = await get('/api/display', headers);
      expect(r.status, JSON.stringify(headers)).toBe(expected(status));
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      const body = r.json<Record<string, unknown>>();
      expect(body.image_url ?? null, JSON.stringify(headers)).toBeNull();
      expect(body.filename ?? null).toBeNull();
      expect(r.text()).not.toContain('/trmnl/outfit-');
      const log = await get('/api/log', headers, 'POST', JSON.stringify({ logs: [{ message: 'hello' }] }));
      expect(log.status, `log ${JSON.stringify(headers)}`).toBe(expected(status));
    }
    expect(wrong).toBeGreaterThan(WRONG_TOKENS_ALLOWED);

    // --- the service echoes the key back inside a 200 answer: every text, an alert, a field of its own -----------
    sim.injectFault({ kind: 'echo_key', count: 2 });
    await daemon.runOnce(undefined, 'once');
    for (const cycle of daemon.cycles.values()) {
      const snap = shownView(daemon.views, cycle.display.id);
      expect(snap.status.kind, cycle.display.id).toBe('ok');
      // Taken, not refused: the texts are there, each with the key replaced.
      expect(snap.rec?.outfit, cycle.display.id).toMatch(/\S.* \[redacted\]$/);
      expect(snap.rec?.weather.alerts, cycle.display.id).toHaveLength(2);
      const input: FrameInput = {
        rec: snap.rec,
        displayName: cycle.display.name ?? cycle.display.id,
        timezone: 'Europe/Berlin',
        status: snap.status,
        now: new Date(),
      };
      const drawn = renderIndices(input, loadPanel(cycle.display.panel), { rotation: cycle.display.rotation }).report;
      expect(drawn.texts.join(' ')).toContain('[redacted]');
      observed.push({
        where: `texts drawn on ${cycle.display.id}'s frame of an echoing answer`,
        bytes: Buffer.from(JSON.stringify(drawn.texts)),
      });
      observed.push({
        where: `${cycle.display.id}'s frame content of an echoing answer`,
        bytes: Buffer.from(JSON.stringify(frameContent(input))),
      });
    }
    const echoed = await get('/displays/hallway/state.json');
    expect(echoed.text()).toContain('echo_[redacted]');
    await watcher.waitFor(
      (all) => all.some((m) => m.topic === 'outfit-display/porch/state' && m.payload.toString().includes('[redacted]')),
      'the echoing answer on MQTT',
    );
    await sweep();

    // --- the service echoes the key back in its errors: a refused request, then a rejected key --------------------
    sim.injectFault({
      kind: 'status',
      status: 400,
      error: `bad request for key ${API_KEY} (Bearer ${API_KEY})`,
      count: 2,
    });
    await daemon.runOnce(undefined, 'once');
    expect(shownView(daemon.views, 'hallway').status.kind).toBe('service_error');
    await sweep();
    sim.injectFault({ kind: 'status', status: 401, error: `invalid API key ${API_KEY}`, count: 2 });
    await daemon.runOnce(undefined, 'once');
    for (const cycle of daemon.cycles.values()) {
      const snap = shownView(daemon.views, cycle.display.id);
      expect(snap.status.kind, cycle.display.id).toBe('key_rejected');
      // The error screen: what the layout drew, word for word, and every text prepared for it.
      const input: FrameInput = {
        rec: snap.rec,
        displayName: cycle.display.name ?? cycle.display.id,
        timezone: 'Europe/Berlin',
        status: snap.status,
        now: new Date(),
      };
      const drawn = renderIndices(input, loadPanel(cycle.display.panel), { rotation: cycle.display.rotation }).report;
      expect(drawn.texts.join(' ')).toMatch(/key/i);
      observed.push({
        where: `texts drawn on ${cycle.display.id}'s key-rejected frame`,
        bytes: Buffer.from(JSON.stringify(drawn.texts)),
      });
      observed.push({
        where: `${cycle.display.id}'s frame content`,
        bytes: Buffer.from(JSON.stringify(frameContent(input))),
      });
      observed.push({
        where: `${cycle.display.id}'s snapshot`,
        bytes: Buffer.from(JSON.stringify({ ...snap, frame: null })),
      });
      // ...and with no outfit at all (the error layout).
      const bare = renderIndices({ ...input, rec: null }, loadPanel(cycle.display.panel), {
        rotation: cycle.display.rotation,
      }).report;
      observed.push({
        where: `texts drawn on ${cycle.display.id}'s bare error screen`,
        bytes: Buffer.from(JSON.stringify(bare.texts)),
      });
    }
    observed.push({ where: 'budget status', bytes: Buffer.from(JSON.stringify(daemon.governor.status())) });
    await sweep();
    await watcher.waitFor(
      (all) =>
        all.some(
          (m) => m.topic === 'outfit-display/hallway/diagnostics' && m.payload.toString().includes('key_rejected'),
        ),
      'key_rejected diagnostics',
    );

    // Also a refresh through the status page's own form (same origin), and over MQTT: each is waited for to its end
    // (the refresh's cycle failing on the rejected key; the press right after it refused as too soon), so that what
    // they log and publish is among what is checked.
    const porchLinesSince = (mark: number): Array<Record<string, unknown>> =>
      logText
        .slice(mark)
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.display === 'porch');
    let mark = logText.length;
    await get('/displays/porch/refresh', { Origin: url!, Host: new URL(url!).host }, 'POST');
    await expect
      .poll(() => porchLinesSince(mark).map((l) => (l.err as { code?: string } | undefined)?.code), { timeout: 10_000 })
      .toContain('E_KEY_REJECTED');
    // E_KEY_REJECTED is logged before that cycle draws and publishes its error frame, and a press while the cycle
    // still runs shares it without a word; so the press is made again until one is refused as too soon.
    mark = logText.length;
    const presser = watcher;
    await expect
      .poll(
        () => {
          const codes = porchLinesSince(mark).map((l) => l.code);
          if (!codes.includes('W_REFRESH_REFUSED')) presser.client.publish('outfit-display/porch/refresh', 'PRESS');
          return codes;
        },
        { timeout: 10_000, interval: 250 },
      )
      .toContain('W_REFRESH_REFUSED');

    await daemon.stop();
    daemon = undefined;
    await watcher.waitFor(
      (all) => all.some((m) => m.topic === 'outfit-display/status' && m.payload.toString() === 'offline'),
      'offline',
    );

    // --- collect and check ------------------------------------------------------------------------------------
    observed.push({ where: 'the log', bytes: Buffer.from(logText) });
    for (const m of watcher.all)
      observed.push({ where: `MQTT ${m.topic}`, bytes: Buffer.concat([Buffer.from(`${m.topic}\n`), m.payload]) });
    observed.push(...(await filesUnder(path.join(dir, 'out'))));
    expect(watcher.all.length).toBeGreaterThan(20);
    expect(observed.filter((o) => o.where.startsWith('file ')).length).toBeGreaterThanOrEqual(5);
    // Refused device requests are one line a minute per source (src/log/refusal-log.ts), not one each.
    expect(logText.split('\n').length).toBeGreaterThan(20);
    expect(logText).toMatch(/"code":"W_TRMNL_[A-Z_]+"/);
    expect(logText).toContain('E_KEY_REJECTED');

    expect(leaks(observed, { 'API key': forms(API_KEY), 'MQTT password': forms(MQTT_PASSWORD, MQTT_USER) })).toEqual(
      [],
    );
    // The device token only ever goes to its own device (GET /api/setup/ with its MAC).
    const notToDevice = observed.filter((o) => !o.where.startsWith(`GET /api/setup/ {"ID":"${MAC}"}`));
    expect(leaks(notToDevice, { 'TRMNL token': forms(TRMNL_TOKEN) })).toEqual([]);
  }, 60_000);
});

describe('the HTTP server listens on loopback unless configured otherwise', () => {
  // The bound address is asserted; no connection is made to a non-loopback address (tests talk to 127.0.0.1 only).

  const reachable = (host: string, port: number): Promise<boolean> =>
    new Promise((resolve) => {
      const s = connect({ host, port });
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });

  /** The HTTP publisher's app on the listener it uses itself (HttpPublisher.start does exactly this). */
  async function serverOf(listen: string): Promise<{ address: string; port: number; stop: () => Promise<void> }> {
    const pViews = testViews({ displays: [], clock: systemClock });
    const p = new HttpPublisher({ listen, displays: [], views: pViews.views, timezone: 'UTC', clock: systemClock });
    const running = await startHttpServer(p.app, parseListen(listen));
    const addr = running.server.address();
    if (addr === null || typeof addr === 'string') throw new Error('no address');
    return { address: addr.address, port: addr.port, stop: () => running.close() };
  }

  it('http.listen defaults to 127.0.0.1:8321, and the server binds 127.0.0.1 only', async () => {
    const r = parseConfig({
      api: { base_url: 'simulated' },
      budget: { credits_per_day: 10 },
      displays: [{ id: 'a', lat: 0, lon: 0 }],
      http: {},
    });
    expect(r.ok && r.config.http?.listen).toBe('127.0.0.1:8321');
    const def = r.ok ? r.config.http!.listen : '';
    // The default port itself when it is free; another engineer's server may hold it, then the default host on any port.
    const srv = await serverOf(def).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE') throw err;
      return serverOf(def.replace(/:\d+$/, ':0'));
    });
    try {
      expect(srv.address).toBe('127.0.0.1');
      expect(await reachable('127.0.0.1', srv.port)).toBe(true);
    } finally {
      await srv.stop();
    }
  });

  it('binds every address only when told to (0.0.0.0)', async () => {
    const srv = await serverOf('0.0.0.0:0');
    try {
      expect(srv.address).toBe('0.0.0.0');
    } finally {
      await srv.stop();
    }
  });
});

describe('the real process: `once` with a rejected key', () => {
  it('exits 3 and prints neither the key nor a part of it, on stdout or stderr', async () => {
    const sim = await startServiceSim({ keys: { [API_KEY]: { credits: 100 } } });
    const dir = await mkdtemp(path.join(tmpdir(), 'outfit-security-cli-'));
    try {
      sim.revokeKey(API_KEY);
      const file = path.join(dir, 'config.yaml');
      await writeFile(
        file,
        [
          'api:',
          `  base_url: ${sim.url}`,
          'budget:',
          '  credits_per_day: 50',
          'timezone: UTC',
          'displays:',
          '  - id: hallway',
          '    lat: 52.52',
          '    lon: 13.405',
          '    panel: waveshare-2in9',
          'output_dir: frames',
          'state_dir: state',
          'log_level: trace',
          '',
        ].join('\n'),
      );
      await chmod(file, 0o600);
      const r = await runCli(['once', '--config', file], { env: { OUTFIT_API_KEY: API_KEY }, timeoutMs: 30_000 });
      expect(r.code).toBe(3);
      expect(`${r.stdout}${r.stderr}`).toMatch(/revoked|rejected/i);
      const observed = [
        { where: 'stdout', bytes: Buffer.from(r.stdout) },
        { where: 'stderr', bytes: Buffer.from(r.stderr) },
        ...(await filesUnder(dir)).filter((o) => !o.where.endsWith('config.yaml')),
      ];
      expect(leaks(observed, { 'API key': forms(API_KEY) })).toEqual([]);
    } finally {
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 40_000);
});
