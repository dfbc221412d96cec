import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from './cli.js';
import { simHttpControl, stopChild } from './service-sim-process.js';

/**
 * The simulated service as its own process (test/helpers/service-sim-child.js over the built dist/), driven like
 * service-sim-process.ts (faults and stats over its HTTP control endpoints), plus revoke() and setCredits(), which
 * the HTTP control endpoints do not offer, over the child's stdin.
 */

export interface SimRequest {
  time: number;
  path: string;
  status: number | null;
  creditsCharged: number;
  fault?: string;
  /** The gender a paid request asked with. */
  gender?: string;
}

export interface SimStatsView {
  requests: SimRequest[];
  creditsLeft: Record<string, number>;
  revoked: string[];
  pendingFaults: Array<Record<string, unknown> & { remaining: number }>;
}

export interface ControlledSim {
  url: string;
  child: ChildProcess;
  injectFault(fault: Record<string, unknown> | Record<string, unknown>[]): Promise<void>;
  clearFaults(): Promise<void>;
  stats(): Promise<SimStatsView>;
  revoke(key: string): Promise<void>;
  setCredits(key: string, credits: number): Promise<void>;
  stop(): Promise<void>;
}

const SCRIPT = path.join(ROOT, 'test/helpers/service-sim-child.js');

export async function startControlledSim(): Promise<ControlledSim> {
  const child = spawn(process.execPath, [SCRIPT], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const replies = new Map<number, (r: { ok: boolean; error?: string }) => void>();
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      let msg: { url?: string; id?: number; ok?: boolean; error?: string };
      try {
        msg = JSON.parse(line) as typeof msg;
      } catch {
        return;
      }
      if (msg.url !== undefined) resolve(msg.url);
      else if (msg.id !== undefined) replies.get(msg.id)?.({ ok: msg.ok === true, error: msg.error });
    });
    child.once('exit', (code) =>
      reject(new Error(`the simulated service exited (${String(code)}) before it listened:\n${stderr}`)),
    );
  });
  let nextId = 1;
  const command = (cmd: Record<string, unknown>): Promise<void> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(
        () => reject(new Error(`the simulated service did not answer ${JSON.stringify(cmd.op)}`)),
        5000,
      );
      replies.set(id, (r) => {
        clearTimeout(timer);
        replies.delete(id);
        if (r.ok) resolve();
        else reject(new Error(r.error ?? 'refused'));
      });
      child.stdin.write(`${JSON.stringify({ ...cmd, id })}\n`);
    });
  const control = simHttpControl(url);
  return {
    url,
    child,
    ...control,
    stats: async () => (await control.stats()) as SimStatsView,
    revoke: (key) => command({ op: 'revoke', key }),
    setCredits: (key, credits) => command({ op: 'setCredits', key, credits }),
    stop: () => stopChild(child),
  };
}
