import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { CodeIn } from '../shared/codes.js';
import { packageRoot } from '../shared/package-root.js';
import type { Clock } from '../time/clock.js';
import type { DisplayRenderOptions, DrawAs, DrawFrame, FrameState } from './display-frame.js';
import type { Frame, UnshownScript } from './frame.js';

/**
 * The daemon's frames, drawn in a child process (`outfit-display render-worker`, render-worker.ts) that lives only
 * while there are frames to draw. The daemon wakes a few times a day, draws a frame or two, and idles the rest: kept
 * in the daemon, canvas, its libraries (cairo, Pango, glib) and the renderer's heap stay resident all day (about
 * 10 MB of libraries and more of heap on an idle daemon); in a child they are gone a few seconds after the last
 * frame. A crash in canvas (a native addon) ends the child, not the daemon, and a long draw on a slow Pi no longer
 * holds the daemon's event loop (its HTTP server, MQTT and watchdog go on).
 *
 * The child is started on the first frame asked for and told to go (its IPC channel closed) `idleMs` after the
 * last answer; it then saves its glyph bitmaps (glyph-disk-cache.ts), which the next child reads back. Frames are
 * drawn one at a time, in the order asked. A child that dies while frames are asked is started again once for them;
 * a child that gives no answer for `answerTimeoutMs` is killed. A child told to go that does not exit within
 * `closeWaitMs` (frozen: stopped, or stuck in a loop) is killed too, and a new child never starts beside an old one
 * on its way out: an old child left behind would keep its memory for as long as the machine runs.
 */

/** The registry's `render` set. */
export type RenderErrorCode = CodeIn<'render'>;

export class RenderError extends Error {
  constructor(
    readonly code: RenderErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RenderError';
  }
}

/** What the daemon asks of the child: a frame of a display's state (DrawFrame's arguments). */
export interface RenderRequest {
  id: number;
  options: DisplayRenderOptions;
  state: FrameState;
  as?: DrawAs;
}

/** What the child answers: the frame, or why it could not be drawn. */
export type RenderReply = { id: number; frame: Frame } | { id: number; error: { message: string } };

export interface RenderProcessOptions {
  /** The idle and answer timers. */
  clock: Clock;
  /** The child's environment: the daemon's without its secrets (config/secrets.ts, envWithoutSecrets). */
  env: NodeJS.ProcessEnv;
  /** Where a child's start and end (debug) and its deaths with frames to draw (W_RENDER_RESTART) are logged. */
  logger?: Logger;
  /** How long the child stays after its last answer, for the next frames of a round (the TRMNL images); default 15 s. */
  idleMs?: number;
  /** The longest the child may go without an answer while a frame is asked; default 60 s (a cold frame on a Pi Zero is a few seconds). */
  answerTimeoutMs?: number;
  /** How long a child told to go (idle, or on close) may take to save its glyphs and exit before it is killed; default 5 s. */
  closeWaitMs?: number;
  /** The program and its arguments; default this node, with its flags less the compilers' (workerNodeFlags), on dist/cli.js render-worker. */
  command?: { file: string; args: readonly string[] };
}

interface Pending {
  request: RenderRequest;
  resolve: (frame: Frame) => void;
  reject: (err: Error) => void;
  /** Children started for it: a second death is its answer. */
  tries: number;
}

const DEFAULT_IDLE_MS = 15_000;
const DEFAULT_ANSWER_TIMEOUT_MS = 60_000;
const DEFAULT_CLOSE_WAIT_MS = 5_000;

/**
 * The flags that turn V8's compilers off, which the daemon runs with to idle small (systemd/outfit-display.service):
 * its work is light, but drawing is all the render process does, and without TurboFan a warm frame takes about ten
 * times as long.
 */
const COMPILERS_OFF = new Set(['--no-opt', '--no-sparkplug', '--no-maglev']);

/**
 * The render process's node flags: the daemon's (its heap caps, a preload), less those that turn compilers off, and
 * less the inspector's: a daemon being debugged holds the inspector's port, and `--inspect-brk` would stop every
 * child at its first line until E_RENDER_TIMEOUT.
 */
export function workerNodeFlags(execArgv: readonly string[]): string[] {
  return execArgv.filter((f) => !COMPILERS_OFF.has(f) && !/^--(inspect|debug)(-brk|-port|-wait)?(=|$)/.test(f));
}

const asBuffer = (v: Uint8Array): Buffer =>
  Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** The frame of an answer, its buffers as Buffers (a Uint8Array may arrive as one); null when it is not a frame. */
function frameOf(f: unknown): Frame | null {
  if (typeof f !== 'object' || f === null) return null;
  const o = f as Record<string, unknown>;
  if (typeof o.width !== 'number' || typeof o.height !== 'number' || typeof o.hash !== 'string') return null;
  if (
    !(o.png instanceof Uint8Array) ||
    !(o.raw instanceof Uint8Array) ||
    !(o.bmp === null || o.bmp instanceof Uint8Array)
  )
    return null;
  const missing = Array.isArray(o.missingGlyphs)
    ? (o.missingGlyphs as unknown[]).filter((c): c is number => typeof c === 'number')
    : undefined;
  const scripts = Array.isArray(o.missingScripts) ? (o.missingScripts as unknown[]).filter(isUnshownScript) : undefined;
  return {
    width: o.width,
    height: o.height,
    png: asBuffer(o.png),
    bmp: o.bmp === null ? null : asBuffer(o.bmp),
    raw: asBuffer(o.raw),
    hash: o.hash,
    ...(missing !== undefined && { missingGlyphs: missing }),
    ...(scripts !== undefined && { missingScripts: scripts }),
  };
}

/** A script the child's frame could not show (frame.ts `missingScripts`), as it arrives. */
function isUnshownScript(s: unknown): s is UnshownScript {
  if (typeof s !== 'object' || s === null) return false;
  const o = s as Record<string, unknown>;
  return typeof o.code === 'string' && typeof o.name === 'string' && Array.isArray(o.elements);
}

export class RenderProcess {
  readonly #o: RenderProcessOptions;
  readonly #pending = new Map<number, Pending>();
  #child: ChildProcess | null = null;
  #nextId = 1;
  #idleTimer: unknown = null;
  #answerTimer: unknown = null;
  #closed = false;
  /** Old children on their way out (told to go, or killed): the next child starts once they are gone. */
  readonly #leaving = new Set<Promise<void>>();
  /** Frames are waiting for #leaving to end. */
  #waitingForLeaving = false;
  /** Children started, for tests and the log. */
  #starts = 0;

  constructor(opts: RenderProcessOptions) {
    this.#o = opts;
  }

  /** DrawFrame, in the child. */
  readonly draw: DrawFrame = (options, state, as) =>
    new Promise<Frame>((resolve, reject) => {
      if (this.#closed) {
        reject(new RenderError('E_RENDER_PROCESS', 'the render process is closed (the daemon is stopping)'));
        return;
      }
      const request: RenderRequest = { id: this.#nextId++, options, state, ...(as !== undefined && { as }) };
      const p: Pending = { request, resolve, reject, tries: 0 };
      this.#pending.set(request.id, p);
      this.#send(p);
    });

  /** The child's pid while one runs. */
  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  /** How many children were started. */
  get starts(): number {
    return this.#starts;
  }

  /**
   * Ends the child (after it saved its glyphs, closeWaitMs at most), and any old one still on its way out; frames
   * still asked fail with E_RENDER_PROCESS.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#clearTimers();
    for (const p of this.#pending.values())
      p.reject(new RenderError('E_RENDER_PROCESS', 'the render process was closed before the frame was drawn'));
    this.#pending.clear();
    const child = this.#child;
    this.#child = null;
    if (child !== null) void this.#end(child, 'ask');
    await Promise.all([...this.#leaving]);
  }

  /**
   * Ends a child and keeps it in #leaving until it is gone: `ask` closes its channel (it saves its glyphs and exits)
   * and kills it if it is still there after closeWaitMs; `kill` kills it at once. The wait after the kill is bounded
   * as well, so that a child the kernel cannot end at once never stops the frames for good.
   */
  #end(child: ChildProcess, how: 'ask' | 'kill'): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    const ms = this.#o.closeWaitMs ?? DEFAULT_CLOSE_WAIT_MS;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const gone = async (): Promise<boolean> => {
      let timer: unknown = null;
      const done = await Promise.race([
        exited.then(() => true),
        new Promise<boolean>((resolve) => (timer = this.#o.clock.setTimeout(() => resolve(false), ms))),
      ]);
      this.#o.clock.clearTimeout(timer);
      return done;
    };
    const run = async (): Promise<void> => {
      if (how === 'kill') child.kill('SIGKILL');
      else if (child.connected) child.disconnect();
      if (await gone()) return;
      if (how === 'ask') {
        this.#o.logger?.warn(
          { code: 'W_RENDER_KILLED', pid: child.pid, waitedMs: ms },
          'the render process did not exit when told to go (frozen): killed',
        );
        child.kill('SIGKILL');
        if (await gone()) return;
      }
      this.#o.logger?.error(
        {
          err: new RenderError(
            'E_RENDER_PROCESS',
            `the render process (pid ${child.pid}) is still there after SIGKILL`,
          ),
        },
        'render process not ended',
      );
    };
    const leaving: Promise<void> = run().finally(() => this.#leaving.delete(leaving));
    this.#leaving.add(leaving);
    return leaving;
  }

  /** The frames asked wait until the old children are gone, then go to a new one. */
  #startAfterLeaving(): void {
    if (this.#waitingForLeaving) return;
    this.#waitingForLeaving = true;
    void Promise.all([...this.#leaving]).then(() => {
      this.#waitingForLeaving = false;
      if (this.#closed) return;
      for (const p of [...this.#pending.values()]) this.#send(p);
    });
  }

  #send(p: Pending): void {
    this.#o.clock.clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    if (this.#child === null && this.#leaving.size > 0) {
      this.#startAfterLeaving();
      return;
    }
    const child = this.#child ?? this.#start();
    if (child === null) return;
    p.tries++;
    try {
      child.send(p.request, (err) => {
        // The channel closed under it: the child's exit (#lost) answers for it.
        if (err) this.#o.logger?.debug({ err }, 'render process: a frame could not be sent');
      });
    } catch (err) {
      // A state that cannot be copied to another process (a bug): this frame fails, the child stays.
      this.#pending.delete(p.request.id);
      p.reject(
        new RenderError(
          'E_RENDER_FAILED',
          `the frame could not be drawn: its state cannot be sent (${(err as Error).message})`,
        ),
      );
      if (this.#pending.size === 0)
        this.#idleTimer = this.#o.clock.setTimeout(() => this.#retire(), this.#o.idleMs ?? DEFAULT_IDLE_MS);
      return;
    }
    this.#armAnswerTimer();
  }

  #start(): ChildProcess | null {
    const cmd = this.#o.command ?? {
      file: process.execPath,
      args: [...workerNodeFlags(process.execArgv), join(packageRoot(), 'dist/cli.js'), 'render-worker'],
    };
    let child: ChildProcess;
    try {
      // stdout ignored: the daemon's stdout is its JSON log. stderr is the daemon's (a crash's last words reach the journal).
      child = spawn(cmd.file, cmd.args, {
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        serialization: 'advanced',
        env: this.#o.env,
      });
    } catch (err) {
      this.#failAll(
        new RenderError('E_RENDER_PROCESS', `the render process could not be started: ${(err as Error).message}`),
      );
      return null;
    }
    this.#child = child;
    this.#starts++;
    child.on('message', (m: unknown) => this.#answer(child, m));
    child.once('error', (err) => this.#lost(child, `could not be started or reached: ${err.message}`));
    child.once('exit', (code, signal) =>
      this.#lost(child, signal !== null ? `was ended by ${signal}` : `exited with code ${code}`),
    );
    this.#o.logger?.debug({ pid: child.pid }, 'render process started');
    return child;
  }

  #answer(child: ChildProcess, m: unknown): void {
    if (child !== this.#child || typeof m !== 'object' || m === null) return;
    const reply = m as Partial<Record<string, unknown>>;
    const p = typeof reply.id === 'number' ? this.#pending.get(reply.id) : undefined;
    if (p === undefined) return;
    this.#pending.delete(p.request.id);
    const frame = 'frame' in reply ? frameOf(reply.frame) : null;
    if (frame !== null) p.resolve(frame);
    else {
      const why =
        typeof (reply.error as { message?: unknown } | undefined)?.message === 'string'
          ? (reply.error as { message: string }).message
          : 'an answer that is not a frame';
      p.reject(new RenderError('E_RENDER_FAILED', `the frame could not be drawn: ${why}`));
    }
    this.#o.clock.clearTimeout(this.#answerTimer);
    this.#answerTimer = null;
    if (this.#pending.size > 0) this.#armAnswerTimer();
    else this.#idleTimer = this.#o.clock.setTimeout(() => this.#retire(), this.#o.idleMs ?? DEFAULT_IDLE_MS);
  }

  /** Idle: the child is told to go (it saves its glyphs and exits); the next frame starts another. */
  #retire(): void {
    this.#idleTimer = null;
    const child = this.#child;
    if (child === null || this.#pending.size > 0) return;
    this.#child = null;
    void this.#end(child, 'ask');
    this.#o.logger?.debug({ pid: child.pid }, 'render process idle: told to go');
  }

  /** The child is gone (or never came): its frames go to a new one once, then fail. */
  #lost(child: ChildProcess, why: string): void {
    if (child !== this.#child) return;
    this.#child = null;
    this.#clearTimers();
    if (this.#pending.size === 0) return;
    this.#o.logger?.warn(
      { code: 'W_RENDER_RESTART', pid: child.pid, why, frames: this.#pending.size },
      `the render process ${why}`,
    );
    for (const p of [...this.#pending.values()]) {
      if (p.tries >= 2 || this.#closed) {
        this.#pending.delete(p.request.id);
        p.reject(new RenderError('E_RENDER_PROCESS', `the render process ${why} while drawing a frame (twice)`));
      }
    }
    for (const p of this.#pending.values()) this.#send(p);
  }

  #armAnswerTimer(): void {
    if (this.#answerTimer !== null) return;
    const ms = this.#o.answerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS;
    this.#answerTimer = this.#o.clock.setTimeout(() => {
      this.#answerTimer = null;
      const child = this.#child;
      this.#child = null;
      if (child !== null) void this.#end(child, 'kill');
      this.#failAll(new RenderError('E_RENDER_TIMEOUT', `the render process gave no answer in ${ms / 1000} s: killed`));
    }, ms);
  }

  #failAll(err: RenderError): void {
    this.#clearTimers();
    for (const p of this.#pending.values()) p.reject(err);
    this.#pending.clear();
  }

  #clearTimers(): void {
    this.#o.clock.clearTimeout(this.#idleTimer);
    this.#o.clock.clearTimeout(this.#answerTimer);
    this.#idleTimer = null;
    this.#answerTimer = null;
  }
}
