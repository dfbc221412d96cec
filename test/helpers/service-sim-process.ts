import type { ChildProcess } from 'node:child_process';
import { request } from 'undici';
import { startCli } from './cli.js';

/** The simulated service as its own process (`outfit-display service-sim --port 0`), with fault injection over HTTP. */
export interface SimProcess {
  url: string;
  child: ChildProcess;
  injectFault(fault: Record<string, unknown>): Promise<void>;
  clearFaults(): Promise<void>;
  stats(): Promise<{ requests: { path: string; status: number | null; creditsCharged: number }[] }>;
  stop(): Promise<void>;
}

export async function startSimProcess(): Promise<SimProcess> {
  const child = startCli(['service-sim', '--port', '0']);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /simulated outfit service at (\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`service-sim exited ${String(code)}`)));
  });
  const admin = url.replace(/\/v1$/, '/_sim');
  return {
    url,
    child,
    async injectFault(fault) {
      const res = await request(`${admin}/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(fault),
      });
      await res.body.text();
      if (res.statusCode >= 300) throw new Error(`fault refused: ${res.statusCode}`);
    },
    async clearFaults() {
      const res = await request(`${admin}/faults`, { method: 'DELETE' });
      await res.body.text();
    },
    async stats() {
      const res = await request(`${admin}/stats`);
      return (await res.body.json()) as Awaited<ReturnType<SimProcess['stats']>>;
    },
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}
