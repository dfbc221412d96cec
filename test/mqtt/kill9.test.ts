import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';
import { readRetained, watch } from './fixtures.js';

/**
 * A separate process holds the real MqttPublisher; `kill -9` gives it no chance to say goodbye, so only the last
 * will can tell Home Assistant: the broker must deliver `offline` on <base>/status, retained.
 * The publisher's files are transpiled (types stripped) into a temp folder, so no build of the whole project is needed.
 */

const SOURCES = ['mqtt-publisher', 'mqtt-connection', 'mqtt-state', 'mqtt-topics', 'ha-discovery', 'embedded-broker'];

const HOLDER = `
import pino from 'pino';
import { MqttPublisher } from './publish/mqtt-publisher.js';
const [url, base] = process.argv.slice(2);
const display = { id: 'hallway', name: 'Hallway', lat: 0, lon: 0, unit: 'metric', gender: '', panel: 'trmnl', rotation: 0,
  schedule: 'auto', endpoint: 'recweather', dither: 'ordered' };
const p = new MqttPublisher({
  mqtt: { url, username: '', password_file: '', base_topic: base, discovery_prefix: 'homeassistant' },
  password: null, displays: [display], timezone: 'UTC', logger: pino({ level: 'silent' }), onRefresh: () => undefined,
});
await p.start();
await p.publish({ display, rec: null, status: { kind: 'ok' }, nextUpdateAt: null,
  frame: { width: 1, height: 1, png: Buffer.from('png'), bmp: null, raw: Buffer.alloc(0), hash: 'h' } });
await new Promise((resolve) => setTimeout(resolve, 300)); // let the retained frame reach the broker
process.stdout.write(p.connected ? 'ready\\n' : 'not connected\\n');
setInterval(() => undefined, 60_000);
`;

async function buildHolder(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'outfit-mqtt-holder-'));
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  await mkdir(path.join(dir, 'publish'));
  for (const name of SOURCES) {
    const source = await readFile(path.join(ROOT, 'src/publish', `${name}.ts`), 'utf8');
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
    await writeFile(path.join(dir, 'publish', `${name}.js`), js.outputText);
  }
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  await writeFile(path.join(dir, 'holder.mjs'), HOLDER);
  return dir;
}

describe('kill -9 of a process holding the publisher', () => {
  let broker: Mosquitto;
  let dir: string;
  let child: ChildProcess | null = null;

  beforeAll(async () => {
    [broker, dir] = await Promise.all([startMosquitto(), buildHolder()]);
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await broker?.dispose();
    if (dir) {
      await unlink(path.join(dir, 'node_modules')).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('makes the broker deliver the retained last will offline', async () => {
    const w = await watch(broker.url, ['od-kill/status']);
    const proc = spawn(process.execPath, [path.join(dir, 'holder.mjs'), broker.url, 'od-kill'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`holder did not get ready:\n${out}`)), 10_000);
      proc.stdout.on('data', () => {
        if (out.includes('ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once('exit', (code) => reject(new Error(`holder exited (${code}):\n${out}`)));
    });
    await w.waitFor((all) => all.some((m) => m.payload.toString() === 'online'), 'online');

    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGKILL');
    await exited;
    child = null;
    await w.waitFor((all) => all.at(-1)?.payload.toString() === 'offline', 'the will: offline');
    await w.close();
    const retained = await readRetained(broker.url, ['od-kill/#']);
    expect(retained.get('od-kill/status')?.toString()).toBe('offline');
    expect(retained.get('od-kill/hallway/image')?.toString()).toBe('png'); // the frame stays for HA
  });
});
