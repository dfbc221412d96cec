import { spawn } from 'node:child_process';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../time/clock.js';

/**
 * sd_notify for a Node process. Node has no datagram Unix sockets, so the messages go through the
 * `systemd-notify` program (the unit sets NotifyAccess=all, since the sender is a child of the daemon).
 * `--pid` names the daemon as the sender, so systemd attributes the message to the service even when the
 * short-lived child has already exited (systemd 252 falls back to the child's own credentials where it must).
 * Nothing is sent, and nothing is spawned, when NOTIFY_SOCKET is unset (not under systemd).
 *
 * One channel, in order: one systemd-notify runs at a time, and the next message's starts only once it has exited.
 * Its datagram is in the socket by then, and a Unix datagram socket keeps the order in which they were sent, so
 * systemd reads RELOADING=1 before the READY=1 that ends the reload. Children run side by side would race (the
 * later one's message can arrive first). A WATCHDOG=1 already waiting is not queued twice: one ping says as much.
 *
 * STOPPING=1 is the last message: nothing is sent after it. A READY=1 at the end of a reload that the stop overtook
 * would tell systemd the stopping service is up again; WATCHDOG=1 is pointless once the stop is under way (systemd
 * gives the stop its own timeout); STATUS= would be permitted, but nothing says anything worth it while stopping.
 */
export interface Notifier {
  ready(status?: string): void;
  reloading(): void;
  stopping(): void;
  watchdog(): void;
  status(text: string): void;
  /** Resolves once every message asked for so far has been handed to systemd-notify and it has exited (or failed). */
  drained(): Promise<void>;
}

/** Starts the program; `env` is the child's whole environment. */
export type SpawnFn = (
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
) => { on(event: 'error' | 'exit', fn: (x: unknown) => void): void; kill?(): unknown };

const defaultSpawn: SpawnFn = (cmd, args, env) => spawn(cmd, args, { stdio: 'ignore', env });

/** How long one systemd-notify may run before it is killed and the next message goes: it only sends a datagram. */
const CHILD_TIMEOUT_MS = 5_000;

export interface NotifierOptions {
  /** The daemon's environment: NOTIFY_SOCKET (unset: no notifier) and PATH are what the child gets of it. */
  env: NodeJS.ProcessEnv;
  /** Where W_SYSTEMD_NOTIFY goes (once). */
  logger: Logger;
  /** The pid named as the sender; default this process's. */
  pid?: number;
  /** Starts systemd-notify; default child_process.spawn. */
  spawn?: SpawnFn;
  /** The timer of a child that does not exit; default systemClock. */
  clock?: Clock;
  /** How long one child may run; default CHILD_TIMEOUT_MS. */
  timeoutMs?: number;
}

/**
 * The child's environment: only what systemd-notify reads (NOTIFY_SOCKET) and what finds it (PATH). The daemon's own
 * holds secrets (OUTFIT_API_KEY, CREDENTIALS_DIRECTORY, ...), which no child that does not need them may see.
 */
function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { NOTIFY_SOCKET: env.NOTIFY_SOCKET, ...(env.PATH !== undefined && { PATH: env.PATH }) };
}

export function createNotifier(opts: NotifierOptions): Notifier | null {
  if (!opts.env.NOTIFY_SOCKET) return null;
  const run = opts.spawn ?? defaultSpawn;
  const pid = opts.pid ?? process.pid;
  const clock = opts.clock ?? systemClock;
  const timeoutMs = opts.timeoutMs ?? CHILD_TIMEOUT_MS;
  const env = childEnv(opts.env);
  const queue: string[][] = [];
  let running = false;
  let closed = false;
  let warned = false;
  let waiters: Array<() => void> = [];
  const fail = (why: string): void => {
    if (warned) return;
    warned = true;
    opts.logger.warn({ code: 'W_SYSTEMD_NOTIFY', why }, 'systemd-notify failed; is the systemd package installed?');
  };
  const next = (): void => {
    if (running) return;
    const assignments = queue.shift();
    if (assignments === undefined) {
      const done = waiters;
      waiters = [];
      for (const w of done) w();
      return;
    }
    running = true;
    let finished = false;
    let timer: unknown = null;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      if (timer !== null) clock.clearTimeout(timer);
      running = false;
      next();
    };
    let child: ReturnType<SpawnFn>;
    try {
      child = run('systemd-notify', [`--pid=${pid}`, ...assignments], env);
    } catch (err) {
      fail((err as Error).message);
      finish();
      return;
    }
    timer = clock.setTimeout(() => {
      timer = null;
      fail(`no exit within ${timeoutMs} ms`);
      child.kill?.();
      finish();
    }, timeoutMs);
    child.on('error', (err) => {
      fail((err as Error).message);
      finish();
    });
    child.on('exit', (code) => {
      if (code !== 0) fail(`exit code ${String(code)}`);
      finish();
    });
  };
  const send = (...assignments: string[]): void => {
    if (closed) return;
    if (assignments[0] === 'WATCHDOG=1' && queue.some((q) => q[0] === 'WATCHDOG=1')) return;
    if (assignments[0] === 'STOPPING=1') {
      closed = true;
      // Pings still waiting say nothing once the stop is under way.
      for (let i = queue.length - 1; i >= 0; i--) if (queue[i]![0] === 'WATCHDOG=1') queue.splice(i, 1);
    }
    queue.push(assignments);
    next();
  };
  return {
    ready: (status) => send('READY=1', ...(status ? [`STATUS=${status}`] : [])),
    reloading: () => send('RELOADING=1'),
    stopping: () => send('STOPPING=1'),
    watchdog: () => send('WATCHDOG=1'),
    status: (text) => send(`STATUS=${text}`),
    drained: () =>
      running || queue.length > 0 ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve(),
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
