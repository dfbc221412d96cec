import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { CLI } from './daemon-proc.js';
import { run } from './proc.js';

/**
 * A cold `render` as an owner runs it: `node dist/cli.js render --config F --input REC.json --out frame.png`, the
 * bundle, the config read and checked, Intl's formatters built, the frame drawn and written. The disk caches of the
 * one-shot commands (the glyph bitmaps, and Node's compile cache on Node 22 and later) are the bench's own, in a
 * temporary folder given as TMPDIR: the first run writes them, the next ones read them, as an owner's second `render`
 * does. The peak memory (VmHWM) and the CPU time are the process's own, written at its exit by a preload of a few
 * lines. The CPU time moves less than the wall time when other work shares the cores.
 */

/** The bench lines of the 7.5" panel's cold `render`: their names are their keys in test/bench/baseline.json. */
export const COLD_RENDER_LINE = 'cold `render` process (node start to PNG written)';
export const COLD_RENDER_PEAK_LINE = 'peak RSS of the cold `render` process';
export const COLD_RENDER_CPU_LINE = 'CPU time of the cold `render` process';

export interface ColdRenderOptions {
  /** A temporary folder of the bench's: configs, the answer, the frames, the caches and the preload go in it. */
  work: string;
  /** The saved answer every run draws. */
  rec: StoredRecommendation;
}

export interface ColdRenderRun {
  /** Node start to exit, ms. */
  ms: number;
  /** The process's peak RSS (VmHWM), kB. */
  peakKb: number;
  /** The process's CPU time, user and system, all its threads, ms. */
  cpuMs: number;
}

/**
 * Written at exit, from /proc/self/status and getrusage. Through a file rather than stdout: `render` may print a warning there,
 * and getrusage in the parent would carry its own peak over the fork.
 */
const PRELOAD = `'use strict';
process.on('exit', () => {
  const fs = require('node:fs');
  const m = /VmHWM:\\s+(\\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  const cpu = process.cpuUsage();
  if (m && process.env.BENCH_PEAK_FILE) {
    fs.writeFileSync(process.env.BENCH_PEAK_FILE, JSON.stringify({ peakKb: Number(m[1]), cpuMs: (cpu.user + cpu.system) / 1000 }));
  }
});
`;

export class ColdRender {
  readonly #work: string;
  readonly #input: string;
  readonly #preload: string;
  readonly #cache: string;
  readonly #peakFile: string;

  constructor(o: ColdRenderOptions) {
    this.#work = join(o.work, 'cold-render');
    this.#cache = join(this.#work, 'tmp');
    // privateCacheDir (src/shared/private-cache-dir.ts) takes only a folder of the user's own, 0700, under TMPDIR.
    mkdirSync(this.#cache, { recursive: true, mode: 0o700 });
    this.#input = join(this.#work, 'rec.json');
    writeFileSync(this.#input, JSON.stringify(o.rec));
    this.#preload = join(this.#work, 'peak-at-exit.cjs');
    writeFileSync(this.#preload, PRELOAD);
    this.#peakFile = join(this.#work, 'at-exit.json');
  }

  /** One `render` of `panelId` in a fresh process: Europe/Berlin, display "Hallway", rotation 0. */
  async run(panelId = 'waveshare-7in5-v2'): Promise<ColdRenderRun> {
    const config = join(this.#work, `${panelId}.yaml`);
    writeFileSync(
      config,
      [
        'api: { base_url: simulated }',
        'budget: { credits_per_day: 100 }',
        'timezone: Europe/Berlin',
        'displays:',
        `  - { id: hallway, name: Hallway, lat: 52.52, lon: 13.405, panel: ${panelId} }`,
        '',
      ].join('\n'),
    );
    rmSync(this.#peakFile, { force: true });
    const out = join(this.#work, `${panelId}.png`);
    const r = await run(
      process.execPath,
      ['--require', this.#preload, CLI, 'render', '--config', config, '--input', this.#input, '--out', out],
      {
        cwd: this.#work,
        env: { PATH: process.env.PATH, HOME: this.#work, TMPDIR: this.#cache, BENCH_PEAK_FILE: this.#peakFile },
      },
    );
    if (r.code !== 0)
      throw new Error(`cold render of ${panelId} failed (${r.code ?? r.signal}): ${r.stderr.slice(-1500)}`);
    const atExit = JSON.parse(readFileSync(this.#peakFile, 'utf8')) as { peakKb: number; cpuMs: number };
    return { ms: r.ms, ...atExit };
  }
}
