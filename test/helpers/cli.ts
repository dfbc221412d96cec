import { configYaml } from './config-yaml.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The program as shipped (`npm run build`): the one form of it that tests run as a process. */
export const CLI = path.join(ROOT, 'dist/cli.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" (npm test does) before these tests`);
}

/** Runs the real CLI as a process (the built dist/cli.js), the way a user or systemd does. */
export function runCli(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number; entry?: string } = {},
): Promise<CliResult> {
  assertBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [opts.entry ?? CLI, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`outfit-display ${args.join(' ')} did not finish in ${opts.timeoutMs ?? 15_000} ms\n${stderr}`));
    }, opts.timeoutMs ?? 15_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts the CLI as a long-running process; the caller stops it. */
export function startCli(args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): ChildProcess {
  assertBuilt();
  return spawn(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A temp folder with a config.yaml; `extra` is appended YAML. Returns the folder and the config's path. */
export async function tempConfig(yaml: string): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'outfit-cli-'));
  const file = path.join(dir, 'config.yaml');
  await writeFile(file, yaml);
  return { dir, file };
}

/**
 * A daily schedule (Europe/Berlin) whose slot is 12 hours from now. A first start buys at once whatever the time of
 * day, and no slot comes during a test. A half-hourly schedule made the tests that wait for the start's purchase depend on the
 * clock: within 2 minutes of :00 or :30 a start leaves the purchase to the coming slot (Scheduler, START_SLACK_MS).
 */
export function awaySchedule(now = new Date()): string {
  const at = new Date(now.getTime() + 12 * 3_600_000);
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Berlin',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  return `${part('minute')} ${part('hour')} * * *`;
}

/** A config for the simulated service in the daemon's process: one display (hallway) whose slot is 12 hours away. */
export function simulatedConfig(opts: { baseUrl?: string; keyFile?: string; displays?: string } = {}): string {
  return configYaml({
    ...(opts.baseUrl !== undefined && { baseUrl: opts.baseUrl }),
    ...(opts.keyFile ? { api: [`key_file: ${opts.keyFile}`] } : {}),
    displays: opts.displays ?? [
      { id: 'hallway', name: 'Hallway', panel: 'waveshare-7in5-v2', schedule: awaySchedule() },
    ],
    logLevel: 'debug',
  });
}
