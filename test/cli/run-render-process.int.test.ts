import { readFileSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import { UNIT_NODE_FLAGS } from '../bench/daemon-proc.js';
import { runCli, simulatedConfig, tempConfig } from '../helpers/cli.js';
import { startNodeCli, watchProcess } from '../helpers/daemon-process.js';
import { until } from '../helpers/until.js';

/**
 * `run` draws its frames in a render process (render/render-process.ts): the daemon itself never loads canvas, the
 * child gets none of its secrets, and no child outlives the daemon, stopped or killed.
 */

/** Whether a process runs: it exists and is not a zombie (an orphan's end is reaped by whoever adopted it). */
const alive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** The pids of a process's children (Linux: /proc/<pid>/task/<pid>/children). */
const childrenOf = (pid: number): number[] =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);

/** Whether canvas's native addon is mapped into a process. */
const hasCanvas = (pid: number): boolean => readFileSync(`/proc/${pid}/maps`, 'utf8').includes('canvas.node');

async function startDaemon(): Promise<{
  pid: number;
  dir: string;
  output: () => string;
  exited: Promise<number | null>;
  kill: (s: NodeJS.Signals) => void;
}> {
  const { dir, file } = await tempConfig(simulatedConfig());
  // The key where a daemon takes it from, and once more under a name nothing knows: neither reaches the child.
  // With the systemd unit's node flags, compilers off (--no-opt): the child gets them less those.
  const child = startNodeCli(['run', '--config', file], {
    nodeArgs: UNIT_NODE_FLAGS,
    env: {
      OUTFIT_API_KEY: DEMO_API_KEY,
      SOMETHING_ELSE: `x${DEMO_API_KEY}x`,
      TMPDIR: await mkdtemp(path.join(tmpdir(), 'outfit-run-tmp-')),
    },
  });
  const { output, exited } = watchProcess(child);
  return { pid: child.pid!, dir, output, exited, kill: (s) => child.kill(s) };
}

describe('run draws in a render process', () => {
  it('the daemon holds no canvas; the child that drew the frame has no secret and ends with the daemon', async () => {
    const d = await startDaemon();
    try {
      await until('the daemon to start', () => d.output().includes('"msg":"daemon started"'), { context: d.output });
      const png = PNG.sync.read(await readFile(path.join(d.dir, 'frames/hallway.png')));
      expect([png.width, png.height]).toEqual([800, 480]);
      // The child stays a little after its frame (for the round's next), long enough to look at.
      const [worker] = childrenOf(d.pid);
      expect(worker).toBeDefined();
      const cmdline = readFileSync(`/proc/${worker}/cmdline`, 'utf8').split('\0');
      expect(cmdline).toContain('render-worker');
      expect(cmdline).toContain('--max-old-space-size=96');
      expect(cmdline).not.toContain('--no-opt');
      expect(readFileSync(`/proc/${d.pid}/cmdline`, 'utf8').split('\0')).toContain('--no-opt');
      expect(hasCanvas(worker!)).toBe(true);
      expect(hasCanvas(d.pid)).toBe(false);
      const env = readFileSync(`/proc/${worker}/environ`, 'utf8');
      expect(env).toContain('TMPDIR=');
      expect(env).not.toContain(DEMO_API_KEY);
      expect(env).not.toContain('OUTFIT_API_KEY');
      d.kill('SIGTERM');
      expect(await d.exited).toBe(0);
      expect(alive(worker!)).toBe(false);
      expect(d.output()).not.toContain('"level":50');
    } finally {
      d.kill('SIGKILL');
    }
  });

  it('a daemon killed with SIGKILL leaves no render process behind', async () => {
    const d = await startDaemon();
    try {
      await until('the daemon to start', () => d.output().includes('"msg":"daemon started"'), { context: d.output });
      const [worker] = childrenOf(d.pid);
      expect(worker).toBeDefined();
      d.kill('SIGKILL');
      await d.exited;
      // Its IPC channel closed: it saves its glyphs and goes.
      await until('the orphaned render process to end', () => !alive(worker!));
    } finally {
      d.kill('SIGKILL');
    }
  });

  it('render-worker started by hand (no IPC channel) refuses with exit 2 and says who starts it', async () => {
    const res = await runCli(['render-worker']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('error: render-worker is started by the daemon (`run`) to draw its frames, not by hand\n');
    const extra = await runCli(['render-worker', '--config', 'x.yaml']);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('render-worker takes no arguments');
  });
});
