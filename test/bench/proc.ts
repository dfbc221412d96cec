import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * What the benches read from /proc (Linux only): a process's RSS and CPU time, and the peak memory of a whole
 * process tree (chromium is a dozen processes). Every process the benches start goes through `track`, so that
 * `killAll` (on exit, Ctrl-C or a failure) leaves nothing running.
 */

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The p-th percentile (0..100), nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `p`, or a rejection naming `what` after `ms`; the timer is cleared either way. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function readOr(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** A field of /proc/<pid>/status in kB (VmRSS, VmHWM); null when the process is gone. */
export function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  const text = readOr(`/proc/${pid}/status`);
  const m = text === null ? null : new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return m ? Number(m[1]) : null;
}

/** Proportional set size in kB: shared pages split between the processes that map them. */
function pssKb(pid: number): number | null {
  const text = readOr(`/proc/${pid}/smaps_rollup`);
  const m = text === null ? null : /^Pss:\s+(\d+) kB/m.exec(text);
  return m ? Number(m[1]) : null;
}

/** Fields of /proc/<pid>/stat after the command name (field 3 on); null when the process is gone. */
function statFields(pid: number): string[] | null {
  const text = readOr(`/proc/${pid}/stat`);
  if (text === null) return null;
  return text
    .slice(text.lastIndexOf(')') + 2)
    .trim()
    .split(' ');
}

/** Clock ticks a second for /proc/<pid>/stat's times (USER_HZ: 100 on every Linux we run on). */
export const CLK_TCK = 100;

/** utime + stime of a process, in seconds; null when it is gone. */
export function cpuSeconds(pid: number): number | null {
  const f = statFields(pid);
  // After "pid (comm) ", field 3 is state: utime and stime are fields 14 and 15, so indices 11 and 12 here.
  return f ? (Number(f[11]) + Number(f[12])) / CLK_TCK : null;
}

function pids(): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
}

export interface TreePeak {
  /** Peak of the sum of VmRSS over the tree (shared pages counted in every process that maps them). */
  rssKb: number;
  /** Peak of the sum of PSS over the tree (shared pages split): what the tree costs the machine. */
  pssKb: number;
  /** How many processes the tree had at most at once, and in all. */
  maxProcesses: number;
  processes: number;
}

/**
 * Samples a process tree every `intervalMs` until stop(): membership is decided when a process is first seen
 * (its parent is the root or a member), so a child reparented to init when its parent exits is still counted.
 * Processes that existed before the sampler started can never be members, and are not read again.
 */
export function sampleTree(rootPid: number, intervalMs = 10): { stop(): TreePeak } {
  const outside = new Set(pids().filter((p) => p !== rootPid));
  const members = new Set<number>([rootPid]);
  const peak: TreePeak = { rssKb: 0, pssKb: 0, maxProcesses: 0, processes: 1 };
  const sample = (): void => {
    const fresh = pids().filter((p) => !outside.has(p) && !members.has(p));
    // Parents come before their children in pid order (short of a pid wrap-around).
    for (const p of fresh.sort((a, b) => a - b)) {
      const f = statFields(p);
      if (f && members.has(Number(f[1]))) {
        members.add(p);
        peak.processes++;
      } else if (f) outside.add(p);
    }
    let rss = 0;
    let pss = 0;
    let alive = 0;
    for (const p of members) {
      const r = statusKb(p, 'VmRSS');
      if (r === null) continue;
      alive++;
      rss += r;
      pss += pssKb(p) ?? r;
    }
    peak.rssKb = Math.max(peak.rssKb, rss);
    peak.pssKb = Math.max(peak.pssKb, pss);
    peak.maxProcesses = Math.max(peak.maxProcesses, alive);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return { ...peak };
    },
  };
}

/** A process and all its descendants as they are now (by parent pid), e.g. a browser that was started earlier. */
export function descendants(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const p of pids()) {
    const f = statFields(p);
    if (!f) continue;
    const parent = Number(f[1]);
    children.set(parent, [...(children.get(parent) ?? []), p]);
  }
  const out: number[] = [];
  for (let todo = [rootPid]; todo.length > 0;) {
    const p = todo.pop()!;
    out.push(p);
    todo.push(...(children.get(p) ?? []));
  }
  return out;
}

/** The memory of some processes now (a tree from `descendants`): VmRSS and PSS summed over those alive. */
export function memoryOf(processIds: number[]): { rssKb: number; pssKb: number; processes: number } {
  let rssKb = 0;
  let pss = 0;
  let processes = 0;
  for (const p of processIds) {
    const r = statusKb(p, 'VmRSS');
    if (r === null) continue;
    processes++;
    rssKb += r;
    pss += pssKb(p) ?? r;
  }
  return { rssKb, pssKb: pss, processes };
}

const tracked = new Set<ChildProcess>();

/** Kills a process we started and its process group (it was spawned detached, so it leads one). */
export function killTree(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is gone already
  }
  try {
    child.kill(signal);
  } catch {
    // gone already
  }
}

/** Spawns a process in its own process group and remembers it until it exits. */
export function track(command: string, args: string[], opts: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts, detached: true });
  tracked.add(child);
  child.once('exit', () => {
    // Descendants that outlive their leader (a chromium helper) go with the group.
    killTree(child);
    tracked.delete(child);
  });
  return child;
}

export function killAll(): void {
  for (const child of tracked) killTree(child);
  tracked.clear();
}

let hooked = false;
/** Kill whatever is still running when this process exits, is interrupted or fails. */
export function killAllOnExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAll);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      killAll();
      process.exit(130);
    });
  }
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a tracked process to its end (asynchronously: a service in this process keeps answering meanwhile). */
export function run(
  command: string,
  args: string[],
  opts: SpawnOptions & { timeoutMs?: number } = {},
): Promise<Finished> {
  const t0 = performance.now();
  const child = track(command, args, opts);
  return finish(child, t0, opts.timeoutMs ?? 60_000, `${command} ${args.join(' ')}`);
}

export function finish(child: ChildProcess, t0: number, timeoutMs: number, what: string): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killTree(child);
      reject(new Error(`${what} did not finish in ${timeoutMs} ms\n${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - t0 });
    });
  });
}
