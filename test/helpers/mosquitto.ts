import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

/**
 * A real Mosquitto for tests: started on a free port of 127.0.0.1 with a test-written mosquitto.conf
 * (persistence off, so a restart loses every retained message, like a broker whose disk was wiped).
 * Every broker started here is killed when the test process exits, whatever happens.
 */

export const MOSQUITTO_BIN =
  ['/usr/sbin/mosquitto', '/usr/local/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p)) ?? null;

export function hasMosquittoPasswd(): boolean {
  try {
    execFileSync('mosquitto_passwd', ['-h'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // mosquitto_passwd -h exits 1 after printing its usage; only a missing binary is a failure.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of running) p.kill('SIGKILL');
});

export interface MosquittoOptions {
  /** username → password: written with `mosquitto_passwd -b -c`; anonymous access is then refused. */
  users?: Record<string, string>;
  /** TLS listener: PEM files; requireCertificate asks every client for a certificate signed by the CA. */
  tls?: { caFile: string; certFile: string; keyFile: string; requireCertificate?: boolean };
}

export interface Mosquitto {
  readonly port: number;
  readonly url: string;
  readonly dir: string;
  /** Everything the broker logged. */
  log(): string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** Starts again on the same port and config (retained messages are gone: persistence is off). */
  restart(): Promise<void>;
  /** stop() and remove the temp folder. */
  dispose(): Promise<void>;
}

function config(port: number, dir: string, opts: MosquittoOptions): string {
  const lines = [
    `listener ${port} 127.0.0.1`,
    'persistence false',
    'log_dest stderr',
    'log_type error',
    'log_type warning',
    'log_type notice',
    'log_type information',
  ];
  // Run as root, Mosquitto would switch to the "mosquitto" user, which cannot read the test's 0700 temp folder.
  if (process.getuid?.() === 0) lines.unshift(`user ${userInfo().username}`);
  if (opts.users) {
    lines.push('allow_anonymous false', `password_file ${path.join(dir, 'passwd')}`);
  } else {
    lines.push('allow_anonymous true');
  }
  if (opts.tls) {
    lines.push(`cafile ${opts.tls.caFile}`, `certfile ${opts.tls.certFile}`, `keyfile ${opts.tls.keyFile}`);
    if (opts.tls.requireCertificate) lines.push('require_certificate true');
  }
  return lines.join('\n') + '\n';
}

function launch(confFile: string, port: number, logs: string[]): Promise<ChildProcess> {
  if (!MOSQUITTO_BIN) throw new Error('mosquitto is not installed (.ci/setup installs it)');
  const child = spawn(MOSQUITTO_BIN, ['-c', confFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mosquitto did not start on port ${port} in 5 s:\n${out}`));
    }, 5000);
    child.stderr?.on('data', (d: Buffer) => {
      out += d.toString();
      logs.push(d.toString());
      if (/ running\b/.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mosquitto exited (${code}) on port ${port}:\n${out}`));
    });
  });
}

function waitExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startMosquitto(opts: MosquittoOptions = {}): Promise<Mosquitto> {
  const dir = await mkdtemp(path.join(tmpdir(), 'outfit-mosquitto-'));
  if (opts.users) {
    const file = path.join(dir, 'passwd');
    const entries = Object.entries(opts.users);
    entries.forEach(([user, pw], i) => {
      execFileSync('mosquitto_passwd', i === 0 ? ['-b', '-c', file, user, pw] : ['-b', file, user, pw], {
        stdio: 'ignore',
      });
    });
  }
  const logs: string[] = [];
  const confFile = path.join(dir, 'mosquitto.conf');
  let child: ChildProcess | null = null;
  let port = 0;
  for (let attempt = 0; child === null; attempt++) {
    port = await freePort();
    await writeFile(confFile, config(port, dir, opts));
    try {
      child = await launch(confFile, port, logs);
    } catch (err) {
      if (attempt >= 2) throw err;
    }
  }
  const scheme = opts.tls ? 'mqtts' : 'mqtt';
  let current: ChildProcess | null = child;
  return {
    port,
    url: `${scheme}://127.0.0.1:${port}`,
    dir,
    log: () => logs.join(''),
    async stop() {
      if (current) await waitExit(current);
      current = null;
    },
    async restart() {
      if (current) await waitExit(current);
      current = await launch(confFile, port, logs);
    },
    async dispose() {
      if (current) await waitExit(current);
      current = null;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
