import { spawn } from 'node:child_process';
import type { Logger } from 'pino';

/**
 * sd_notify for a Node process. Node has no datagram Unix sockets, so the messages go through the
 * `systemd-notify` program (the unit sets NotifyAccess=all, since the sender is a child of the daemon).
 * `--pid` names the daemon as the sender, so systemd attributes the message to the service even when the
 * short-lived child has already exited (systemd 252 falls back to the child's own credentials where it must).
 * Nothing is sent, and nothing is spawned, when NOTIFY_SOCKET is unset (not under systemd).
 */
export interface Notifier {
  ready(status?: string): void;
  reloading(): void;
  stopping(): void;
  watchdog(): void;
  status(text: string): void;
}

export type SpawnFn = (cmd: string, args: string[]) => { on(event: 'error' | 'exit', fn: (x: unknown) => void): void };

const defaultSpawn: SpawnFn = (cmd, args) => spawn(cmd, args, { stdio: 'ignore', env: process.env });

export function createNotifier(opts: {
  env: NodeJS.ProcessEnv;
  logger: Logger;
  pid?: number;
  spawn?: SpawnFn;
}): Notifier | null {
  if (!opts.env.NOTIFY_SOCKET) return null;
  const run = opts.spawn ?? defaultSpawn;
  const pid = opts.pid ?? process.pid;
  let warned = false;
  const send = (...assignments: string[]): void => {
    const child = run('systemd-notify', [`--pid=${pid}`, ...assignments]);
    const fail = (why: string): void => {
      if (warned) return;
      warned = true;
      opts.logger.warn({ code: 'W_SYSTEMD_NOTIFY', why }, 'systemd-notify failed; is the systemd package installed?');
    };
    child.on('error', (err) => fail((err as Error).message));
    child.on('exit', (code) => {
      if (code !== 0) fail(`exit code ${String(code)}`);
    });
  };
  return {
    ready: (status) => send('READY=1', ...(status ? [`STATUS=${status}`] : [])),
    reloading: () => send('RELOADING=1'),
    stopping: () => send('STOPPING=1'),
    watchdog: () => send('WATCHDOG=1'),
    status: (text) => send(`STATUS=${text}`),
  };
}

/**
 * The watchdog interval from the environment systemd sets: half of WATCHDOG_USEC, in ms; null when the
 * watchdog is off or meant for another process (WATCHDOG_PID).
 */
export function watchdogIntervalMs(env: NodeJS.ProcessEnv, pid: number = process.pid): number | null {
  const usec = Number(env.WATCHDOG_USEC);
  if (!Number.isFinite(usec) || usec <= 0) return null;
  if (env.WATCHDOG_PID && Number(env.WATCHDOG_PID) !== pid) return null;
  return Math.max(1, Math.floor(usec / 2000));
}
