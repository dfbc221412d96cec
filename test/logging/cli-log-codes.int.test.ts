import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, startServiceSim, type RunningServiceSim } from '../../src/service-sim/server.js';
import { runCli, simulatedConfig, tempConfig } from '../helpers/cli.js';
import { codeless, logLines } from './log-lines.js';

/**
 * The built CLI's `once` through a pipe (as under systemd): JSON lines on stdout, and every warning and error among
 * them with its code: a run that meets a 503, and one whose answer is shown but cannot be saved.
 */

let sim: RunningServiceSim;
beforeAll(async () => {
  sim = await startServiceSim();
});
afterAll(async () => sim.close());

describe('the CLI logs every failure with its code', () => {
  it('once, through a pipe: JSON lines, each warn and error with err.code or a W_ code', async () => {
    const env = { OUTFIT_API_KEY: DEMO_API_KEY };
    const failing = await tempConfig(simulatedConfig({ baseUrl: sim.url }));
    sim.injectFault({ kind: 'status', status: 503, error: 'upstream model overloaded' });
    const failed = await runCli(['once', '--config', failing.file], { env });
    expect(failed.code).toBe(1);
    const unsaved = await tempConfig(simulatedConfig({ baseUrl: sim.url }));
    await mkdir(path.join(unsaved.dir, 'state', 'last', 'hallway.json'), { recursive: true });
    const shown = await runCli(['once', '--config', unsaved.file], { env });
    expect(shown.code).toBe(0);
    const lines = logLines(failed.stdout + shown.stdout);
    expect(lines.map((l) => l.err?.code)).toEqual(expect.arrayContaining(['E_SERVICE', 'E_STATE_WRITE']));
    expect(codeless(lines)).toEqual([]);
  });

  it('a wrong OUTFIT_LOG_FORMAT is a config error (exit 2) naming the variable', async () => {
    const { file } = await tempConfig(simulatedConfig());
    const res = await runCli(['once', '--config', file], { env: { OUTFIT_LOG_FORMAT: 'yaml' } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('OUTFIT_LOG_FORMAT');
    expect(res.stdout).toBe('');
  });
});
