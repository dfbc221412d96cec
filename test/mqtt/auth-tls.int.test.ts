import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { redactUrl } from '../../src/mqtt/connection.js';
import { MqttPublisher } from '../../src/mqtt/mqtt-publisher.js';
import { startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';
import { testViews } from '../helpers/views.js';
import { budgetStatus } from '../fixtures/budget-status.js';
import { capturingLogger, silentLogger } from '../helpers/capturing-logger.js';
import { display } from '../fixtures/display.js';
import { mqttConfig } from '../fixtures/mqtt-config.js';
import { rec } from '../fixtures/rec.js';
import { update } from '../fixtures/frames.js';
import { watch } from '../helpers/mqtt-watch.js';

const hallway = display('hallway');
const PASSWORD = 'S3cr3t-pässwörd!with:colon';

it('keeps credentials of a URL out of what it logs', () => {
  expect(redactUrl('mqtt://user:pa55@broker.lan:1883')).toBe('mqtt://broker.lan:1883');
  expect(redactUrl('mqtts://broker.lan')).toBe('mqtts://broker.lan');
});

describe('username and password (mosquitto_passwd)', () => {
  let broker: Mosquitto;
  beforeAll(async () => {
    broker = await startMosquitto({ users: { outfit: PASSWORD, reader: 'reader-pw' } });
  });
  afterAll(async () => {
    await broker?.dispose();
  });

  it('connects with the password, and the password appears in no log line, topic or payload', async () => {
    const { logger, text } = capturingLogger();
    const w = await watch(broker.url, ['#'], { username: 'reader', password: 'reader-pw' });
    const pViews = testViews({ displays: [hallway], budget: budgetStatus });
    const p = new MqttPublisher({
      mqtt: mqttConfig(broker.url, { username: 'outfit', password_file: '/run/credentials/mqtt-password' }),
      password: PASSWORD,
      displays: [hallway],
      views: pViews.views,
      timezone: 'UTC',
      logger,
      onRefresh: () => undefined,
    });
    await p.start();
    expect(p.connected).toBe(true);
    await p.publish(pViews.show(update(hallway, 'auth', { rec: rec() })));
    await w.waitFor((all) => all.some((m) => m.topic === 'outfit-display/hallway/state'), 'state');
    await p.stop();
    await w.waitFor((all) => all.at(-1)?.payload.toString() === 'offline', 'offline');
    await w.close();

    expect(text()).toContain('MQTT connected');
    expect(text()).not.toContain(PASSWORD);
    expect(text()).not.toContain('pässwörd');
    for (const m of w.all) {
      expect(m.topic).not.toContain(PASSWORD);
      expect(m.payload.toString('latin1')).not.toContain('S3cr3t');
      expect(m.payload.toString('utf8')).not.toContain('S3cr3t');
    }
  });

  it('with a wrong password: not connected, retrying, and still no password in the logs', async () => {
    const { logger, text } = capturingLogger();
    const pViews = testViews({ displays: [hallway] });
    const p = new MqttPublisher({
      mqtt: mqttConfig(broker.url, { username: 'outfit' }),
      password: 'wrong-S3cr3t',
      displays: [hallway],
      views: pViews.views,
      timezone: 'UTC',
      logger,
      onRefresh: () => undefined,
      backoff: { baseMs: 20, maxMs: 50 },
    });
    await p.start();
    await vi.waitFor(() => expect(text()).toMatch(/Not authorized|Bad username or Password/i));
    expect(p.connected).toBe(false);
    await p.stop();
    expect(text()).toMatch(/Not authorized|Bad username or Password/i);
    expect(text()).not.toContain('wrong-S3cr3t');
  });
});

describe('mqtts:// with a CA file and a client certificate', () => {
  let broker: Mosquitto;
  let dir: string;
  const file = (name: string) => path.join(dir, name);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'outfit-tls-'));
    const ossl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    ossl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=outfit-test-ca');
    writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1\n');
    for (const [name, subj] of [
      ['server', '/CN=127.0.0.1'],
      ['client', '/CN=outfit-display'],
    ] as const) {
      ossl('req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subj);
      ossl(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.crt',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        `${name}.crt`,
        '-days',
        '2',
        ...(name === 'server' ? ['-extfile', 'server.ext'] : []),
      );
    }
    broker = await startMosquitto({
      tls: {
        caFile: file('ca.crt'),
        certFile: file('server.crt'),
        keyFile: file('server.key'),
        requireCertificate: true,
      },
    });
  });
  afterAll(async () => {
    await broker?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('connects with the CA and client certificate files and publishes', async () => {
    const tls = { ca_file: file('ca.crt'), cert_file: file('client.crt'), key_file: file('client.key') };
    const pViews = testViews({ displays: [hallway] });
    const p = new MqttPublisher({
      mqtt: mqttConfig(broker.url, tls),
      password: null,
      displays: [hallway],
      views: pViews.views,
      timezone: 'UTC',
      logger: silentLogger(),
      onRefresh: () => undefined,
    });
    try {
      await p.start();
      expect(p.connected).toBe(true);
      await p.publish(pViews.show(update(hallway, 'tls', { rec: rec() })));
      const w = await watch(broker.url, ['outfit-display/hallway/state'], {
        ca: readFileSync(file('ca.crt')),
        cert: readFileSync(file('client.crt')),
        key: readFileSync(file('client.key')),
      });
      await w.waitFor((all) => all.length > 0, 'state over TLS');
      await w.close();
    } finally {
      await p.stop();
    }
  });

  it('is refused without a client certificate, and names a missing file by its config key', async () => {
    const pViews = testViews({ displays: [hallway] });
    const p = new MqttPublisher({
      mqtt: mqttConfig(broker.url, { ca_file: file('ca.crt') }),
      password: null,
      displays: [hallway],
      views: pViews.views,
      timezone: 'UTC',
      logger: silentLogger(),
      onRefresh: () => undefined,
      backoff: { baseMs: 50, maxMs: 100 },
    });
    await p.start();
    expect(p.connected).toBe(false);
    await p.stop();
    const missingViews = testViews({ displays: [hallway] });
    const missing = new MqttPublisher({
      mqtt: mqttConfig(broker.url, { ca_file: file('nope.crt') }),
      password: null,
      displays: [hallway],
      views: missingViews.views,
      timezone: 'UTC',
      logger: silentLogger(),
      onRefresh: () => undefined,
    });
    await expect(missing.start()).rejects.toThrow(/mqtt\.ca_file: cannot read .*nope\.crt \(ENOENT\)/);
    await missing.stop();
  });
});
