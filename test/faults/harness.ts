import { configYaml, HOUSEHOLD_PEOPLE_YAML } from '../helpers/config-yaml.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { execFile, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, watch } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import mqtt, { type MqttClient } from 'mqtt';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, expect, it, type RunnerTask } from 'vitest';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import { startNodeCli } from '../helpers/daemon-process.js';
import { httpRequest, type RawResponse } from '../helpers/http-client.js';
import { startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';
import { startControlledSim, type ControlledSim, type SimStatsView } from '../helpers/sim-control.js';
import { until } from '../helpers/until.js';

/**
 * The fault matrix's harness: for each scenario a real Mosquitto, the simulated service as its own process (with
 * fault injection, key revocation and credits), and the real daemon (`node dist/cli.js run`) with mqtt, http, a
 * display on a 2-second schedule; helpers to wait for log lines (pino JSON on stdout), retained MQTT topics and HTTP
 * answers, and to read the files the daemon writes. Every process is killed when the test file ends.
 */

export const DISPLAY = 'hallway';
/** A household scenario's second display (`household: true`): it dresses Cleo, whose request is Anna's. */
export const KITCHEN = 'kitchen';
export const BASE = 'outfit-display';
export const KEY = DEMO_API_KEY;
export const TOPIC = {
  status: `${BASE}/status`,
  state: `${BASE}/${DISPLAY}/state`,
  image: `${BASE}/${DISPLAY}/image`,
  diagnostics: `${BASE}/${DISPLAY}/diagnostics`,
  discovery: `homeassistant/device/${BASE}_${DISPLAY}/config`,
} as const;

const execFileP = promisify(execFile);

// ---------------------------------------------------------------- waiting

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}

/** Decodes a PNG with pngjs (not our encoder); throws when it is not a whole PNG. */
export function decodePng(b: Buffer): { width: number; height: number } {
  const png = PNG.sync.read(b);
  return { width: png.width, height: png.height };
}

/**
 * An Etc/GMT zone in which it is now between 12:00 and 13:00, so that a clock stepped a few hours either way stays
 * on the same local day and a step of a day lands on the next one, whatever time the tests run.
 */
export function noonZone(now = Date.now()): string {
  const x = 12 - new Date(now).getUTCHours();
  return x === 0 ? 'Etc/GMT' : x > 0 ? `Etc/GMT-${x}` : `Etc/GMT+${-x}`;
}

/** The local date (YYYY-MM-DD) of an instant in an Etc/GMT zone made by noonZone(). */
export function localDay(t: number, zone: string): string {
  const m = /^Etc\/GMT(?:([+-])(\d+))?$/.exec(zone);
  const hours = m?.[1] === undefined ? 0 : (m[1] === '-' ? 1 : -1) * Number(m[2]);
  return new Date(t + hours * 3_600_000).toISOString().slice(0, 10);
}

// ---------------------------------------------------------------- concurrency

/** At most `n` of the wrapped calls run at once. */
function limiter(n: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: Array<() => void> = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((r) => queue.push(r));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

/** Starting processes is what loads the two cores most: only a few scenarios start at the same time. */
const startSlot = limiter(4);

/**
 * Runs every registered scenario at once (they spend most of their time waiting for the daemon's backoff and
 * schedule), each reported by its own `it`: the test awaits the scenario's promise, started in beforeAll.
 */
export class Matrix {
  readonly #fns = new Map<string, () => Promise<void>>();
  readonly #running = new Map<string, Promise<void>>();

  constructor() {
    beforeAll(({}, file) => {
      // Only the scenarios whose test runs (a -t filter or .only skips the others).
      const selected = new Set<string>();
      const walk = (tasks: readonly RunnerTask[]): void => {
        for (const t of tasks) {
          if (t.type === 'suite') walk(t.tasks);
          else if (t.mode === 'run') selected.add(t.name);
        }
      };
      walk(file.tasks);
      for (const [name, fn] of this.#fns) {
        if (!selected.has(name)) continue;
        const mine = new Set<Scenario>();
        const p = scenarios.run(mine, fn).catch((err: unknown) => {
          // The daemon's last words go with the failure.
          const tails = [...mine].map((x) => x.tail(60)).join('\n');
          if (err instanceof Error) err.message = `${err.message}\n${tails}`;
          throw err;
        });
        p.catch(() => undefined);
        this.#running.set(name, p);
      }
    });
    afterAll(async () => {
      // Every test has awaited (or given up on) its scenario: whatever still runs is stopped now.
      await disposeAll();
      await Promise.race([Promise.allSettled(this.#running.values()), sleep(10_000)]);
    }, 60_000);
  }

  it(name: string, fn: () => Promise<void>, timeoutMs = 180_000): void {
    if (this.#fns.has(name)) throw new Error(`duplicate scenario "${name}"`);
    this.#fns.set(name, fn);
    // The scenario asserts as it runs (all of them at once, started in beforeAll); the test waits for it to end
    // without a failure, and that wait is its own assertion (the setup file wants one in every test).
    it(
      name,
      async () => {
        await expect(this.#running.get(name) ?? Promise.reject(new Error('not started'))).resolves.toBeUndefined();
      },
      timeoutMs,
    );
  }
}

// ---------------------------------------------------------------- the scenario

export interface LogLine {
  /** Index over the scenario's whole life (every daemon run). */
  i: number;
  run: number;
  level?: string;
  msg?: string;
  time?: string;
  err?: { code?: string; message?: string; name?: string };
  [key: string]: unknown;
}

export interface MqttMessage {
  topic: string;
  payload: Buffer;
  retain: boolean;
  at: number;
}

export interface StateJson {
  fetched_at?: string;
  outfit?: string;
  status: string;
  status_detail: string | null;
  last_success_at: string | null;
  last_error: { code: string; message: string; at: string } | null;
  frame: { hash: string } | null;
  [key: string]: unknown;
}

export interface Health {
  ok: boolean;
  reason: string;
  displays: Array<{ id: string; ok: boolean; reason: string; status: string }>;
}

export interface Diagnostics {
  status: string;
  status_detail: string | null;
  status_until: string | null;
  credits_spent_today: number | null;
  budget_blocked_until: string | null;
  budget_warnings: string[];
}

export interface LedgerFile {
  version: number;
  day: string;
  day_spent: number;
  month: string;
  month_spent: number;
  untrusted_carry: number;
  day_charged: number;
  day_unknown: number;
  day_refused: number;
  credits_out: { since: number; last_refusal_at: number } | null;
  rate_blocked_until: number | null;
  backoff?: { failures: number; until: number };
  in_flight?: number[];
}

export interface ScenarioOptions {
  /** For the temp folder's name. */
  name: string;
  /** Default every 2 s. */
  schedule?: string;
  timeoutS?: number;
  /** api.response_timeout_s: how long a paid request waits for its answer. */
  responseTimeoutS?: number;
  /** How the simulated service bills; default every-200 (every success body it produced, even a broken one). */
  billing?: 'success' | 'every-200' | 'every-request';
  creditsPerDay?: number;
  /** budget.pace_over_budget (default: the config's default, true). */
  paceOverBudget?: boolean;
  timezone?: string;
  /** Preload clock-offset.js: setClockOffset() then steps the daemon's clock. */
  clock?: boolean;
  /** `tmpfs`: the daemon runs in a private mount namespace (unshare -m) with a tmpfs of `tmpfsSize` on output_dir. */
  outputFs?: 'disk' | 'tmpfs';
  tmpfsSize?: string;
  panel?: string;
  /**
   * A household: the hallway dresses Anna (female) and Ben (male), the kitchen Cleo (female), at one place: two
   * distinct requests a slot, Anna's and Cleo's one shared purchase.
   */
  household?: boolean;
}

const all = new Set<Scenario>();
/** The scenarios each registered test created, to print their output when it fails. */
const scenarios = new AsyncLocalStorage<Set<Scenario>>();
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

export async function disposeAll(): Promise<void> {
  await Promise.allSettled([...all].map((s) => s.dispose()));
}

export class Scenario {
  readonly opts: ScenarioOptions;
  readonly dir: string;
  readonly configFile: string;
  readonly keyFile: string;
  readonly outputDir: string;
  readonly stateDir: string;
  readonly clockFile: string;
  readonly timezone: string;
  readonly sim: ControlledSim;
  readonly broker: Mosquitto;
  readonly logs: LogLine[] = [];
  readonly messages: MqttMessage[] = [];
  child: ChildProcess | null = null;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | null = null;
  httpUrl: string | null = null;
  run = 0;
  #raw = '';
  #recorder: MqttClient | null = null;
  #disposed = false;

  private constructor(opts: ScenarioOptions, dir: string, sim: ControlledSim, broker: Mosquitto) {
    this.opts = opts;
    this.dir = dir;
    this.configFile = path.join(dir, 'config.yaml');
    this.keyFile = path.join(dir, 'api-key');
    this.outputDir = path.join(dir, 'frames');
    this.stateDir = path.join(dir, 'state');
    this.clockFile = path.join(dir, 'clock-offset');
    this.timezone = opts.timezone ?? noonZone();
    this.sim = sim;
    this.broker = broker;
  }

  static async create(opts: ScenarioOptions): Promise<Scenario> {
    if (opts.outputFs === 'tmpfs' && process.getuid?.() !== 0) {
      throw new Error(
        `scenario "${opts.name}" needs root: it mounts a tmpfs on output_dir in a private mount namespace (unshare -m) ` +
          'to make a real full or read-only disk; CI runs as root. Run it as root (or in a container).',
      );
    }
    const dir = await mkdtemp(path.join(tmpdir(), `outfit-fault-${opts.name}-`));
    const started = await Promise.allSettled([startControlledSim(), startMosquitto()]);
    const [simR, brokerR] = started;
    if (simR.status === 'rejected' || brokerR.status === 'rejected') {
      if (simR.status === 'fulfilled') await simR.value.stop();
      if (brokerR.status === 'fulfilled') await brokerR.value.dispose();
      await rm(dir, { recursive: true, force: true });
      throw simR.status === 'rejected' ? simR.reason : (brokerR as PromiseRejectedResult).reason;
    }
    const sim = simR.value;
    const broker = brokerR.value;
    children.add(sim.child);
    const s = new Scenario(opts, dir, sim, broker);
    all.add(s);
    scenarios.getStore()?.add(s);
    await mkdir(s.outputDir, { recursive: true });
    await mkdir(s.stateDir, { recursive: true });
    await writeFile(s.keyFile, `${KEY}\n`, { mode: 0o600 });
    await writeFile(s.clockFile, '0\n');
    await writeFile(s.configFile, s.config());
    await s.setBilling(opts.billing ?? 'every-200');
    await s.#startRecorder();
    return s;
  }

  config(): string {
    const o = this.opts;
    const panel = o.panel ?? 'waveshare-4in2';
    const schedule = o.schedule ?? '*/2 * * * * *';
    return configYaml({
      baseUrl: this.sim.url,
      api: [
        `key_file: ${this.keyFile}`,
        `timeout_s: ${o.timeoutS ?? 10}`,
        `response_timeout_s: ${o.responseTimeoutS ?? 10}`,
        'connect_timeout_s: 5',
      ],
      creditsPerDay: o.creditsPerDay ?? 200_000,
      ...(o.paceOverBudget === undefined ? {} : { budget: [`pace_over_budget: ${o.paceOverBudget}`] }),
      timezone: this.timezone,
      displays: [
        {
          id: DISPLAY,
          name: 'Hallway',
          panel,
          schedule,
          ...(o.household === true && { more: ['people: [anna, ben]'] }),
        },
        ...(o.household === true ? [{ id: KITCHEN, name: 'Kitchen', panel, schedule, more: ['people: [cleo]'] }] : []),
      ],
      sections: [
        ...(o.household === true
          ? [...HOUSEHOLD_PEOPLE_YAML, '  - id: cleo', '    name: Cleo', '    gender: female']
          : []),
        'mqtt:',
        `  url: ${this.broker.url}`,
        `  base_topic: ${BASE}`,
        'http:',
        '  listen: 127.0.0.1:0',
      ],
      outputDir: this.outputDir,
      stateDir: this.stateDir,
      logLevel: 'debug',
    });
  }

  // ---------------------------------------------------------------- the daemon

  /** Starts `run` and (unless `wait: false`) waits until its HTTP server listens (before its first cycle). */
  async start(opts: { wait?: boolean } = {}): Promise<void> {
    if (this.child !== null && this.child.exitCode === null && this.child.signalCode === null)
      throw new Error('already running');
    this.run++;
    const run = this.run;
    this.httpUrl = null;
    const wrap =
      this.opts.outputFs === 'tmpfs'
        ? [
            'unshare',
            '-m',
            '--propagation',
            'private',
            'sh',
            '-c',
            'mount -t tmpfs -o size="$1",mode=0755 tmpfs "$2" || exit 97; shift 2; exec "$@"',
            'sh',
            this.opts.tmpfsSize ?? '2m',
            this.outputDir,
          ]
        : undefined;
    const child = startNodeCli(['run', '--config', this.configFile], {
      cwd: this.dir,
      ...(wrap && { wrap }),
      ...(this.opts.clock && { clockOffsetFile: this.clockFile }),
    });
    children.add(child);
    this.child = child;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        children.delete(child);
        resolve({ code, signal });
      }),
    );
    createInterface({ input: child.stdout! }).on('line', (line) => this.#onLine(line, run));
    child.stderr?.on('data', (d: Buffer) => (this.#raw += `[stderr ${run}] ${d.toString()}`));
    if (opts.wait === false) return;
    await this.waitLog((l) => l.msg === 'HTTP frame server listening', {
      run,
      timeoutMs: 30_000,
      what: 'the HTTP server',
    });
  }

  /** Starts the daemon (few at a time) and waits for its first good recommendation. */
  async startAndWaitGood(): Promise<LogLine> {
    return startSlot(async () => {
      await this.start();
      const good = await this.waitLog((l) => l.msg === 'new recommendation', { run: this.run, timeoutMs: 40_000 });
      // Published too: the files and the HTTP server hold it.
      await this.until('the first good frame on the files and HTTP', async () => {
        const [files, st] = await Promise.all([this.frameFiles(), this.stateJson()]);
        return files.json !== null && st.status === 'ok' && st.frame !== null && files.pngHash === st.frame.hash;
      });
      return good;
    });
  }

  #onLine(line: string, run: number): void {
    this.#raw += `${line}\n`;
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(line) as Record<string, unknown>;
    } catch {
      parsed = { msg: line, level: 'raw' };
    }
    this.logs.push({ ...parsed, i: this.logs.length, run });
    // A reload (SIGHUP) starts the HTTP server anew, on a new port when the config says port 0.
    if (parsed.msg === 'HTTP frame server listening' && typeof parsed.url === 'string') this.httpUrl = parsed.url;
  }

  /** SIGTERM; resolves with the exit code (throws after 10 s). */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 10_000): Promise<number | null> {
    const child = this.child;
    if (child === null || this.exited === null) return null;
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill(signal);
    const timer = sleep(timeoutMs).then(() => 'timeout' as const);
    const r = await Promise.race([this.exited, timer]);
    if (r === 'timeout') {
      child.kill('SIGKILL');
      throw new Error(`the daemon did not exit within ${timeoutMs} ms of ${signal}\n${this.tail()}`);
    }
    return r.code;
  }

  async kill9(): Promise<void> {
    const child = this.child;
    if (child === null || this.exited === null || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await this.exited;
  }

  /**
   * SIGKILL the moment inotify (through fs.watch) reports a temp file appearing or being renamed away in one of
   * `dirs`: a kill in the middle of a write or within moments of one, not wherever a random delay falls. The event
   * arrives after the fact, so on a busy machine the file is often already renamed; the kill still lands between
   * two writes of one cycle (frame, last good, ledger), which is what the checks after it are about. Resolves with
   * the file's name and whether it still existed when the kill was sent, or null when no write came within
   * `timeoutMs` (then it kills all the same).
   */
  async killAtNextWrite(
    dirs: readonly string[],
    opts: { skip?: number; timeoutMs?: number } = {},
  ): Promise<{ name: string; midWrite: boolean } | null> {
    const child = this.child;
    if (child === null || this.exited === null) throw new Error('the daemon is not running');
    let hit: { name: string; midWrite: boolean } | null = null;
    let skip = opts.skip ?? 0;
    const timeoutMs = opts.timeoutMs ?? 30_000;
    const watchers = dirs.map((d) =>
      watch(d, (event, name) => {
        if (hit !== null || event !== 'rename' || typeof name !== 'string' || !name.endsWith('.tmp')) return;
        if (skip-- > 0) return;
        child.kill('SIGKILL');
        hit = { name, midWrite: existsSync(path.join(d, name)) };
      }),
    );
    try {
      await Promise.race([this.exited, sleep(timeoutMs)]);
      if (hit === null) child.kill('SIGKILL');
      await this.exited;
      return hit;
    } finally {
      for (const w of watchers) w.close();
    }
  }

  get pid(): number {
    const pid = this.child?.pid;
    if (pid === undefined) throw new Error('the daemon is not running');
    return pid;
  }

  // ---------------------------------------------------------------- logs

  /** The last lines of the daemon's output, for failure messages. */
  tail(n = 40): string {
    return `--- ${this.opts.name}: last output ---\n${this.#raw.split('\n').slice(-n).join('\n')}`;
  }

  /** The current end of the log: pass as `after` to wait for a line that comes later. */
  mark(): number {
    return this.logs.length;
  }

  findLog(pred: (l: LogLine) => boolean, opts: { after?: number; run?: number } = {}): LogLine | undefined {
    return this.logs.find((l) => l.i >= (opts.after ?? 0) && (opts.run === undefined || l.run === opts.run) && pred(l));
  }

  countLogs(pred: (l: LogLine) => boolean, opts: { after?: number } = {}): number {
    return this.logs.filter((l) => l.i >= (opts.after ?? 0) && pred(l)).length;
  }

  waitLog(
    pred: (l: LogLine) => boolean,
    opts: { after?: number; run?: number; timeoutMs?: number; what?: string } = {},
  ): Promise<LogLine> {
    return until(opts.what ?? `a log line matching ${pred.toString()}`, () => this.findLog(pred, opts), {
      timeoutMs: opts.timeoutMs ?? 20_000,
      everyMs: 50,
      context: () => this.tail(),
    });
  }

  /** Waits for `until` with this scenario's output in the failure message. */
  until<T>(
    what: string,
    fn: () => T | undefined | null | false | Promise<T | undefined | null | false>,
    timeoutMs = 20_000,
  ): Promise<T> {
    return until(what, fn, { timeoutMs, context: () => this.tail() });
  }

  // ---------------------------------------------------------------- MQTT

  async #startRecorder(): Promise<void> {
    const client = mqtt.connect(this.broker.url, { reconnectPeriod: 250, connectTimeout: 5000 });
    this.#recorder = client;
    client.on('message', (topic, payload, packet) =>
      this.messages.push({ topic, payload, retain: packet.retain, at: Date.now() }),
    );
    client.on('error', () => undefined);
    await new Promise<void>((resolve) =>
      client.once('connect', () => client.subscribe('#', { qos: 1 }, () => resolve())),
    );
  }

  /** Publishes on the scenario's broker, as an owner's client would (not retained). */
  async publish(topic: string, payload: string): Promise<void> {
    const client = this.#recorder;
    if (client === null) throw new Error('no MQTT connection');
    await client.publishAsync(topic, payload, { qos: 1 });
  }

  /** The newest message the recorder saw on `topic` (after message index `after`). */
  latest(topic: string, after = 0): MqttMessage | undefined {
    for (let i = this.messages.length - 1; i >= after; i--) {
      const m = this.messages[i];
      if (m?.topic === topic) return m;
    }
    return undefined;
  }

  /** What a client that connects now is given as retained, for each of `topics` (waits until all have come). */
  async retained(topics: readonly string[], timeoutMs = 15_000): Promise<Map<string, Buffer>> {
    const client = mqtt.connect(this.broker.url, { reconnectPeriod: 0, connectTimeout: 5000 });
    const got = new Map<string, Buffer>();
    client.on('message', (topic, payload, packet) => {
      if (packet.retain && !got.has(topic)) got.set(topic, payload);
    });
    client.on('error', () => undefined);
    try {
      await this.until('an MQTT connection', () => client.connected, timeoutMs);
      await new Promise<void>((resolve) => client.subscribe([...topics], { qos: 1 }, () => resolve()));
      await this.until(
        `retained ${topics.filter((t) => !got.has(t)).join(', ')}`,
        () => topics.every((t) => got.has(t)),
        timeoutMs,
      );
      return got;
    } finally {
      client.end(true);
    }
  }

  // ---------------------------------------------------------------- HTTP

  async get(p: string): Promise<RawResponse> {
    if (this.httpUrl === null) throw new Error('the daemon has no HTTP server yet');
    return httpRequest(`${this.httpUrl}${p}`, { timeoutMs: 10_000 });
  }

  async stateJson(): Promise<StateJson> {
    return (await this.get(`/displays/${DISPLAY}/state.json`)).json<StateJson>();
  }

  async healthz(): Promise<{ status: number; body: Health }> {
    const r = await this.get('/healthz');
    return { status: r.status, body: r.json<Health>() };
  }

  // ---------------------------------------------------------------- files

  /** Where output_dir's files are seen from here: through /proc/<pid>/root when they live in the daemon's tmpfs. */
  outRoot(): string {
    return this.opts.outputFs === 'tmpfs' ? path.join(`/proc/${this.pid}/root`, this.outputDir) : this.outputDir;
  }

  /** The frame files of `display` as they are now; null for a file that does not exist. Throws on a torn file. */
  async frameFiles(display = DISPLAY): Promise<{
    png: Buffer | null;
    pngHash: string | null;
    json: Record<string, unknown> | null;
    jsonText: string | null;
  }> {
    const root = this.outRoot();
    const png = await readFile(path.join(root, `${display}.png`)).catch(nullIfMissing);
    const jsonText = await readFile(path.join(root, `${display}.json`), 'utf8').catch(nullIfMissing);
    if (png !== null) decodePng(png);
    return {
      png,
      pngHash: png === null ? null : sha256(png),
      jsonText,
      json: jsonText === null ? null : (JSON.parse(jsonText) as Record<string, unknown>),
    };
  }

  async ledger(): Promise<LedgerFile> {
    return JSON.parse(await readFile(path.join(this.stateDir, 'budget-ledger.json'), 'utf8')) as LedgerFile;
  }

  /**
   * Follows the ledger file (every 50 ms) and keeps, for each day it named, the most it said was spent that day:
   * what the daemon recorded for a day is still known after the ledger has moved on to the next.
   */
  trackLedger(): { days: Map<string, number>; stop: () => Promise<Map<string, number>> } {
    const days = new Map<string, number>();
    let running = true;
    const loop = (async () => {
      while (running) {
        const l = await this.ledger().catch(() => null);
        if (l !== null) days.set(l.day, Math.max(days.get(l.day) ?? 0, l.day_spent));
        await sleep(50);
      }
    })();
    return {
      days,
      stop: async () => {
        running = false;
        await loop;
        return days;
      },
    };
  }

  /**
   * Temp files of the atomic writer left in a folder (a `.<name>.<hex>.tmp` or a `<name>.tmp`); with `newerThan`,
   * only those last written after that instant (ms).
   */
  async tempFiles(dir: string, opts: { newerThan?: number } = {}): Promise<string[]> {
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.tmp'));
    if (opts.newerThan === undefined) return names;
    const newer: string[] = [];
    for (const n of names) {
      const mtime = await stat(path.join(dir, n)).then(
        (st) => st.mtimeMs,
        () => Infinity,
      );
      if (mtime > opts.newerThan) newer.push(n);
    }
    return newer;
  }

  async setClockOffset(ms: number): Promise<void> {
    await writeFile(`${this.clockFile}.new`, `${Math.round(ms)}\n`);
    await rename(`${this.clockFile}.new`, this.clockFile);
  }

  /** Fills the daemon's output tmpfs to the last byte (through its mount namespace). */
  async fillOutputDisk(): Promise<string> {
    const file = path.join(this.outRoot(), 'filler');
    const fh = await open(file, 'w');
    const chunk = Buffer.alloc(16 * 1024, 0x5a);
    try {
      for (;;) {
        try {
          await fh.write(chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw err;
        }
      }
      // The last blocks, byte by byte chunks: nothing may be left for a frame.
      for (const size of [4096, 512, 1]) {
        for (;;) {
          try {
            await fh.write(Buffer.alloc(size, 0x5a));
          } catch {
            break;
          }
        }
      }
    } finally {
      await fh.close().catch(() => undefined);
    }
    return file;
  }

  /** Remounts the daemon's output tmpfs read-only or read-write, inside its mount namespace. */
  async remountOutput(mode: 'ro' | 'rw'): Promise<void> {
    // Remounting read-only fails (EBUSY) while a file is open for writing: try again after the write.
    for (let attempt = 1; ; attempt++) {
      try {
        await execFileP('nsenter', ['-t', String(this.pid), '-m', 'mount', '-o', `remount,${mode}`, this.outputDir]);
        return;
      } catch (err) {
        if (attempt >= 20) throw err;
        await sleep(50);
      }
    }
  }

  // ---------------------------------------------------------------- the service

  async simStats(): Promise<SimStatsView> {
    return this.sim.stats();
  }

  /** How the simulated service bills (its control endpoint `/_sim/billing`). */
  async setBilling(billing: NonNullable<ScenarioOptions['billing']>): Promise<void> {
    const res = await httpRequest(this.sim.url.replace(/\/v1$/, '/_sim/billing'), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ billing }),
    });
    if (res.status !== 200)
      throw new Error(`the simulated service refused billing ${billing}: ${res.status} ${res.text()}`);
  }

  /** Credits the service actually charged, in all. */
  async charged(): Promise<number> {
    return (await this.sim.stats()).requests.reduce((n, r) => n + r.creditsCharged, 0);
  }

  /** Requests to the service's paid endpoint, in order. */
  async calls(): Promise<SimStatsView['requests']> {
    return (await this.sim.stats()).requests.filter((r) => r.path.endsWith('/recweather'));
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    all.delete(this);
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
    this.#recorder?.end(true);
    await Promise.allSettled([this.sim.stop(), this.broker.dispose()]);
    children.delete(this.sim.child);
    await rm(this.dir, { recursive: true, force: true });
  }
}

function nullIfMissing(err: unknown): null {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
  throw err;
}

/** A fresh API key the simulated service does not know yet (setCredits makes it valid). */
export function newKey(): string {
  return `sk_live_fault_${randomBytes(12).toString('hex')}`;
}

/** Instant of an ISO timestamp (with any offset), for comparing the daemon's times. */
export function instant(iso: unknown): number {
  if (typeof iso !== 'string') throw new Error(`not a timestamp: ${String(iso)}`);
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) throw new Error(`not a timestamp: ${iso}`);
  return t;
}
