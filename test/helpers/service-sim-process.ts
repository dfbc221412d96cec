import type { ChildProcess } from 'node:child_process';
import { request } from 'undici';
import { startCli } from './cli.js';

/** A simulated service in another process, driven over its HTTP control endpoints (`/_sim/...`). */
export interface SimHttpControl {
  injectFault(fault: Record<string, unknown> | Record<string, unknown>[]): Promise<void>;
  clearFaults(): Promise<void>;
  /**
   * Which requests the service bills: 'success' (its default), 'every-200' or 'every-request'
   * (docs/reference/service.md).
   */
  setBilling(mode: 'success' | 'every-200' | 'every-request'): Promise<void>;
  stats(): Promise<{
    requests: { time: number; path: string; status: number | null; creditsCharged: number; fault?: string }[];
    /** Faults not yet taken by a request (a 'slow' one is taken when its request arrives). */
    pendingFaults: Array<Record<string, unknown> & { remaining: number }>;
  }>;
}

/** The control endpoints of the simulated service whose base address (ending with /v1) is `url`. */
export function simHttpControl(url: string): SimHttpControl {
  const admin = url.replace(/\/v1$/, '/_sim');
  return {
    async injectFault(fault) {
      const res = await request(`${admin}/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(fault),
      });
      const text = await res.body.text();
      if (res.statusCode >= 300) throw new Error(`fault refused: ${res.statusCode} ${text}`);
    },
    async clearFaults() {
      const res = await request(`${admin}/faults`, { method: 'DELETE' });
      await res.body.text();
    },
    async setBilling(mode) {
      const res = await request(`${admin}/billing`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ billing: mode }),
      });
      const text = await res.body.text();
      if (res.statusCode >= 300) throw new Error(`billing refused: ${res.statusCode} ${text}`);
    },
    async stats() {
      const res = await request(`${admin}/stats`);
      return (await res.body.json()) as Awaited<ReturnType<SimHttpControl['stats']>>;
    },
  };
}

/** Stops a child process: SIGTERM, then SIGKILL after 3 s. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The simulated service as its own process (`outfit-display service-sim --port 0`), with fault injection over HTTP. */
export interface SimProcess extends SimHttpControl {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `args`: more flags for the command (`--billing every-200`). */
export async function startSimProcess(args: string[] = []): Promise<SimProcess> {
  const child = startCli(['service-sim', '--port', '0', ...args]);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /simulated outfit service at (\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`service-sim exited ${String(code)}`)));
  });
  return { url, child, ...simHttpControl(url), stop: () => stopChild(child) };
}
