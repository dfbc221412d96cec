import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { workerNodeFlags } from '../../src/render/render-process.js';
import { ROOT } from '../helpers/cli.js';

const run = promisify(execFile);
const UNIT = path.join(ROOT, 'systemd/outfit-display.service');

describe('systemd/outfit-display.service', () => {
  it('has an exposure of at most 2.0 by systemd-analyze security --offline', async () => {
    const { stdout } = await run('systemd-analyze', ['security', '--offline=true', '--no-pager', UNIT]);
    const m = /Overall exposure level for outfit-display\.service: (\d+\.\d+)/.exec(stdout);
    expect(m, stdout).not.toBeNull();
    expect(Number(m?.[1])).toBeLessThanOrEqual(2.0);
  });

  it('passes systemd-analyze verify with no warning', async () => {
    const { stdout, stderr } = await run('systemd-analyze', ['verify', UNIT]);
    expect(stderr).toBe('');
    expect(stdout).toBe('');
  });

  it('runs Node with memory flags this Node accepts, the same ones the container’s entrypoint uses', async () => {
    const { readFile } = await import('node:fs/promises');
    const flagsOf = (text: string, re: RegExp): string[] => re.exec(text)?.[1]?.trim().split(/\s+/) ?? [];
    const unit = flagsOf(await readFile(UNIT, 'utf8'), /^ExecStart=\S+ node((?: --\S+)+) \S+cli\.js run/m);
    const container = flagsOf(
      await readFile(path.join(ROOT, 'config/container/entrypoint.sh'), 'utf8'),
      /^exec node((?: --\S+)+) "\$app\/dist\/cli\.js" run/m,
    );
    expect(unit).toContain('--max-old-space-size=96');
    expect(unit).toContain('--no-maglev');
    expect(unit).toContain('--no-opt');
    expect(container).toEqual(unit);
    // Node refuses a V8 flag it does not know at start: these start it.
    const { stdout } = await run(process.execPath, [...unit, '-e', 'process.stdout.write("started")']);
    expect(stdout).toBe('started');
    // The render process: the same heap caps, its compilers on.
    const worker = workerNodeFlags(unit);
    expect(worker).toEqual(unit.filter((f) => f !== '--no-maglev' && f !== '--no-opt'));
    const { stdout: workerStarted } = await run(process.execPath, [...worker, '-e', 'process.stdout.write("started")']);
    expect(workerStarted).toBe('started');
  });
});
