import { execFile } from 'node:child_process';
import { readdir, readFile, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startServiceSim, type RunningServiceSim } from '../helpers/service-sim.js';
import { runCli } from '../helpers/cli.js';
import { expectNoSecret, KEY_A, KEY_B, problemsOf, secretConfigs } from './secret-configs.js';

/**
 * The secret checks that need a process (secrets.test.ts has the rest): a FIFO made by mkfifo, the peak memory of
 * `check-config` given a 200 MB key file, and the shipped CLI refusing a bad key before any request.
 */

const setup = secretConfigs();

describe('secret files are checked at load, by a process', () => {
  it('a FIFO is refused (E_SECRET_NOT_A_FILE) without blocking on it', async () => {
    const c = await setup(['  key_file: key']);
    await promisify(execFile)('mkfifo', [c.at('key')]);
    // A FIFO with no writer would block a plain open: this resolves at once.
    const p = await problemsOf(loadConfig(c.file, { env: {} }));
    expect(p).toEqual([expect.stringMatching(/^api\.key_file: .*\(E_SECRET_NOT_A_FILE\)$/)]);
    expect(p[0]).toContain(c.at('key'));
  });

  it('a 200 MB key file is refused by `check-config` as shipped, never read: the process stays small', async () => {
    const c = await setup(['  key_file: key']);
    // Sparse: 200 MB of size, no disk.
    await writeFile(c.at('key'), '');
    await truncate(c.at('key'), 200 * 1024 * 1024);
    // Its peak memory, written at exit by a preload: a file read whole would take about 900 MB.
    const preload = path.join(path.dirname(c.file), 'max-rss.mjs');
    await writeFile(
      preload,
      "process.on('exit', () => process.stdout.write(`maxRssKb ${process.resourceUsage().maxRSS}\\n`));\n",
    );
    const res = await runCli(['check-config', '--config', c.file], {
      env: { NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` },
      timeoutMs: 30_000,
    });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain(`api.key_file: ${c.at('key')} has ${200 * 1024 * 1024} bytes`);
    expect(res.stderr).toContain('(E_SECRET_TOO_LARGE)');
    const maxRssKb = Number(/^maxRssKb (\d+)$/m.exec(res.stdout)?.[1]);
    expect(maxRssKb / 1024).toBeGreaterThan(0);
    expect(maxRssKb / 1024).toBeLessThan(150);
  }, 40_000);
});

describe('the real process with a bad key', () => {
  let sim: RunningServiceSim;
  beforeAll(async () => {
    sim = await startServiceSim({ keys: { [KEY_A]: { credits: 100 } } });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('check-config and once exit 2 on a key with a line break inside: no request, no ledger, no key in the output', async () => {
    const c = await setup(['  key_file: key']);
    await writeFile(c.file, (await readFile(c.file, 'utf8')).replace('https://outfit.example/v1', sim.url));
    await writeFile(c.at('key'), `${KEY_A}\n${KEY_B}\n`, { mode: 0o600 });
    for (const command of ['check-config', 'once']) {
      const r = await runCli([command, '--config', c.file], { timeoutMs: 30_000 });
      expect(r.code, `${command}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain('E_SECRET_CHARACTERS');
      expect(r.stderr).toContain(c.at('key'));
      expectNoSecret(`${r.stdout}${r.stderr}`, KEY_A, KEY_B);
    }
    expect(sim.stats().requests).toEqual([]);
    await expect(readdir(c.at('state'))).rejects.toThrow();
  }, 60_000);
});
