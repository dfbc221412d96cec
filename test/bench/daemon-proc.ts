import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../src/shared/package-root.js';
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

/**
 * The node flags and environment of systemd/outfit-display.service, read from the unit itself so that the benches
 * measure what the service runs: the flags between `node` and dist/cli.js on ExecStart, and every Environment=
 * that holds no systemd specifier (XDG_CACHE_HOME=%C/... is about the unit's folders, not memory).
 */
function unitSettings(): { flags: string[]; env: Record<string, string> } {
  const unit = readFileSync(join(packageRoot(), 'systemd/outfit-display.service'), 'utf8');
  const exec = /^ExecStart=.*?\bnode((?: --\S+)*) \S*cli\.js /m.exec(unit);
  if (!exec) throw new Error('systemd/outfit-display.service: no ExecStart=... node [flags] .../cli.js');
  const env: Record<string, string> = {};
  for (const m of unit.matchAll(/^Environment=([A-Z_]+)=(\S+)$/gm)) if (!m[2]!.includes('%')) env[m[1]!] = m[2]!;
  return { flags: exec[1]!.trim().split(/\s+/).filter(Boolean), env };
}
const unit = unitSettings();
export const UNIT_NODE_FLAGS = unit.flags;
export const UNIT_ENV = unit.env;

export interface DaemonConfig {
  baseUrl: string;
  schedule: string;
  /** budget.rate_limit_per_minute; default 60 (the service's published limit). */
  ratePerMinute?: number;
  http?: boolean;
  panel?: string;
  /** How many displays, alike but for their id, name and place; default 1 (id hallway). */
  displays?: number;
  /** `mqtt.url: embedded`, the broker on a free loopback port. */
  embeddedBroker?: boolean;
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
      ...Array.from({ length: c.displays ?? 1 }, (_, i) => {
        // Each at its own place, so that no call can stand in for another's.
        const [id, name] = i === 0 ? ['hallway', 'Hallway'] : [`hallway-${i + 1}`, `Hallway ${i + 1}`];
        return `  - { id: ${id}, name: ${name}, lat: ${(52.52 + i / 100).toFixed(2)}, lon: 13.405, panel: ${c.panel ?? 'waveshare-7in5-v2'}, schedule: "${c.schedule}" }`;
      }),
      ...(c.http ? ['http: { listen: "127.0.0.1:0" }'] : []),
      ...(c.embeddedBroker ? ['mqtt: { url: embedded, embedded: { listen: "127.0.0.1:0" } }'] : []),
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
  /** Resolves when the daemon says it started, with the HTTP server's and the embedded broker's URLs (when configured). */
  started: Promise<{ httpUrl: string | null; brokerUrl: string | null }>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

/** `node`: the binary to run it on (another Node major's, node-majors.ts); default this process's. */
export function startDaemon(configFile: string, cwd: string, node = process.execPath): RunningDaemon {
  const child = track(node, [...UNIT_NODE_FLAGS, CLI, 'run', '--config', configFile], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, OUTFIT_API_KEY: DEMO_API_KEY, ...UNIT_ENV },
  });
  if (child.pid === undefined) throw new Error('cannot start the daemon');
  const counts = new Map<string, number>();
  const errors: string[] = [];
  let httpUrl: string | null = null;
  let brokerUrl: string | null = null;
  let stderr = '';
  let buffered = '';
  let exited: number | null | undefined;
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve(code);
    }),
  );
  const started = new Promise<{ httpUrl: string | null; brokerUrl: string | null }>((resolve, reject) => {
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
        if (msg === 'embedded MQTT broker started' && entry.url) brokerUrl = entry.url;
        if (msg === 'daemon started') resolve({ httpUrl, brokerUrl });
      }
    });
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    void exit.then((code) =>
      reject(new Error(`the daemon exited (${code}) before it started: ${stderr.slice(-2000)}`)),
    );
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
