import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import { track } from './proc.js';

/**
 * The real daemon as a process (`node dist/cli.js run`), started the way systemd/outfit-display.service starts it
 * (V8 heap cap, semi-space, glibc mmap threshold), against a service at `baseUrl` with the key in OUTFIT_API_KEY.
 * Its pino log (JSON lines on stdout) is read as it comes: counts by message, and the HTTP server's address.
 */

const here = fileURLToPath(new URL('.', import.meta.url));
/** dist/cli.js: this module runs from dist/test/bench/. */
export const CLI = join(here, '../../cli.js');

/** The node flags and environment of systemd/outfit-display.service. */
export const UNIT_NODE_FLAGS = ['--max-old-space-size=96', '--max-semi-space-size=2'];
export const UNIT_ENV = { MALLOC_MMAP_THRESHOLD_: '131072', NODE_ENV: 'production' };

export interface DaemonConfig {
  baseUrl: string;
  schedule: string;
  /** budget.rate_limit_per_minute; default 60 (the service's published limit). */
  ratePerMinute?: number;
  http?: boolean;
  panel?: string;
}

/** A temp folder with config.yaml (frames and state inside it). Returns the folder. */
export function writeDaemonConfig(c: DaemonConfig): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'outfit-bench-daemon-'));
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    [
      `api: { base_url: "${c.baseUrl}" }`,
      `budget: { credits_per_day: 10000000, rate_limit_per_minute: ${c.ratePerMinute ?? 60} }`,
      'timezone: Europe/Berlin',
      'displays:',
      `  - { id: hallway, name: Hallway, lat: 52.52, lon: 13.405, panel: ${c.panel ?? 'waveshare-7in5-v2'}, schedule: "${c.schedule}" }`,
      ...(c.http ? ['http: { listen: "127.0.0.1:0" }'] : []),
      'output_dir: frames',
      'state_dir: state',
      'log_level: info',
      '',
    ].join('\n'),
  );
  return { dir, file };
}

export interface RunningDaemon {
  child: ChildProcess;
  pid: number;
  /** Log lines seen, by `msg`. */
  counts: Map<string, number>;
  /** Lines at level error or fatal. */
  errors: string[];
  /** Resolves with the HTTP server's URL (when the config has http), or when the daemon says it started. */
  started: Promise<{ httpUrl: string | null }>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

export function startDaemon(configFile: string, cwd: string): RunningDaemon {
  const child = track(process.execPath, [...UNIT_NODE_FLAGS, CLI, 'run', '--config', configFile], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, OUTFIT_API_KEY: DEMO_API_KEY, ...UNIT_ENV },
  });
  if (child.pid === undefined) throw new Error('cannot start the daemon');
  const counts = new Map<string, number>();
  const errors: string[] = [];
  let httpUrl: string | null = null;
  let stderr = '';
  let buffered = '';
  let exited: number | null | undefined;
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve(code);
    }),
  );
  const started = new Promise<{ httpUrl: string | null }>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      buffered += d.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        let entry: { msg?: string; level?: string; url?: string };
        try {
          entry = JSON.parse(line) as typeof entry;
        } catch {
          continue;
        }
        const msg = entry.msg ?? '';
        counts.set(msg, (counts.get(msg) ?? 0) + 1);
        if (entry.level === 'error' || entry.level === 'fatal') errors.push(line.slice(0, 400));
        if (msg === 'HTTP frame server listening' && entry.url) httpUrl = entry.url;
        if (msg === 'daemon started') resolve({ httpUrl });
      }
    });
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    void exit.then((code) => reject(new Error(`the daemon exited (${code}) before it started: ${stderr.slice(-2000)}`)));
  });
  started.catch(() => undefined);
  return {
    child,
    pid: child.pid,
    counts,
    errors,
    started,
    async stop(graceMs = 10_000) {
      if (exited !== undefined) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exit;
      clearTimeout(timer);
      return code;
    },
  };
}
