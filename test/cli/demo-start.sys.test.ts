import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';
import { existsSync, realpathSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { until } from '../helpers/until.js';

/**
 * The README's demo as a newcomer starts it: `npm start` in a clone with nothing built, its log in the readable form
 * a terminal gets (OUTFIT_LOG_FORMAT=pretty). The build says nothing on success, and the daemon's first lines say where
 * to look: the frame file, the status page and the broker. The clone is a copy of the build's inputs in a temp
 * folder, so its build never touches the dist/ the other tests run; its one change is the status page's port (a free
 * one, since 8321 may be in use on the machine running the tests).
 */

/** What `npm run build` reads (tsconfig.build.json's include and what it imports), and the demo's config. */
const CLONE = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  '.rolldown.config.js',
  '.ci/bundle.js',
  '.ci/build-id.js',
  'src',
  'display',
  'test',
  'config',
];

let clone = '';
let child: ChildProcess | null = null;
let stdout = '';
let stderr = '';
let port = 0;
let exited: number | null | undefined;

/**
 * A port that is free now, drawn at random below the range the other tests' free-port.ts hands out in turn: the
 * build takes tens of seconds before the daemon binds it, and a port handed out in turn is the next test's too.
 */
async function quietPort(): Promise<number> {
  for (;;) {
    const candidate = randomInt(10_000, 20_000);
    const srv = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      srv.once('listening', () => resolve(true));
      srv.once('error', () => resolve(false));
      srv.listen(candidate, '127.0.0.1');
    });
    if (!bound) continue;
    await new Promise<void>((resolve) => srv.close(() => resolve()));
    return candidate;
  }
}

beforeAll(async () => {
  clone = await mkdtemp(path.join(tmpdir(), 'outfit-demo-start-'));
  for (const entry of CLONE) {
    await cp(path.join(ROOT, entry), path.join(clone, entry), {
      recursive: true,
      filter: (src) => !src.includes(`${path.sep}.demo`) && !src.includes(`${path.sep}dist${path.sep}`),
    });
  }
  await symlink(realpathSync(path.join(ROOT, 'node_modules')), path.join(clone, 'node_modules'));
  port = await quietPort();
  const demo = path.join(clone, 'config/demo.yaml');
  const yaml = await readFile(demo, 'utf8');
  expect(yaml).toMatch(/^ {2}listen: 127\.0\.0\.1:8321$/m);
  await writeFile(demo, yaml.replace(/^ {2}listen: 127\.0\.0\.1:8321$/m, `  listen: 127.0.0.1:${port}`));
  // Its own process group: the stop reaches npm, its shell and the daemon under them.
  child = spawn('npm', ['start'], {
    cwd: clone,
    detached: true,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, OUTFIT_LOG_FORMAT: 'pretty' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.once('exit', (code) => (exited = code));
  const output = (): string => `stdout:\n${stdout.slice(-3000)}\nstderr:\n${stderr.slice(-3000)}`;
  await until(
    'the demo daemon to say it started (or to end)',
    () => / INFO {2}daemon started/.test(stdout) || exited !== undefined,
    {
      timeoutMs: 240_000,
      everyMs: 250,
      context: output,
    },
  );
  expect(exited, output()).toBeUndefined();
}, 300_000);

afterAll(async () => {
  if (child?.pid !== undefined && exited === undefined) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    process.kill(-child.pid, 'SIGINT');
    await exited;
  }
  if (clone !== '') await rm(clone, { recursive: true, force: true });
}, 60_000);

/** stdout without npm's own echo of the script it runs ("> outfit-display@0.1.0 start", "> npm run ..."). */
function ours(): string[] {
  return stdout.split('\n').filter((l) => !l.startsWith('> ') && l.trim() !== '');
}

describe('npm start in a fresh clone', () => {
  it("the build prints nothing: before the daemon's first line, only npm's echo of the start script; stderr is empty", async () => {
    const pkg = JSON.parse(await readFile(path.join(clone, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      scripts: { start: string };
    };
    const before = stdout.slice(0, stdout.indexOf('frame:'));
    expect(before.split('\n').filter((l) => l.trim() !== '')).toEqual([
      `> ${pkg.name}@${pkg.version} start`,
      `> ${pkg.scripts.start}`,
    ]);
    expect(stderr).toBe('');
  });

  it('the first lines name the frame file, the status page and the broker, and each is where the daemon put it', async () => {
    const [frame, status, broker] = ours().slice(0, 3);
    expect(frame).toBe('frame:       config/.demo/frames/hallway.png');
    expect(status).toBe(`status page: http://127.0.0.1:${port}/`);
    expect(broker).toMatch(/^MQTT broker: mqtt:\/\/127\.0\.0\.1:1883, inside the daemon \(another free port/);
    // The daemon's log comes after them.
    expect(ours()[3]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} INFO /);
    expect(existsSync(path.join(clone, 'config/.demo/frames/hallway.png'))).toBe(true);
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Hallway');
    // The broker is at the address the banner names, or the log says at once which one it took instead.
    const started = / INFO {2}mqtt: embedded MQTT broker started {2}url=(\S+)/.exec(stdout)?.[1];
    if (started !== 'mqtt://127.0.0.1:1883') expect(stdout).toContain('[W_MQTT_PORT_TAKEN]');
  });
});
