import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { loadPanel } from '../../src/panels/panels.js';
import { workerNodeFlags } from '../../src/render/render-process.js';
import { UNIT_NODE_FLAGS } from '../bench/daemon-proc.js';
import { CLI } from '../helpers/cli.js';
import { runs, timeout } from './arbitraries.js';
import { hostileWordArb, outfitEndingIn } from './hostile-words.js';
import { NORMAL } from '../fixtures/samples.js';

/**
 * An answer whose outfit ends in a word of 1,000 to 20,000 characters without a space is drawn,
 * by the real program in a process of its own with the heap the service's render process gets: the node flags of
 * systemd/outfit-display.service's ExecStart less the compilers' (workerNodeFlags, as render-process.ts starts it).
 * Such a word ran that process out of heap, twice, and every redraw of the answer kept failed again.
 */

const run = promisify(execFile);
const FLAGS = workerNodeFlags(UNIT_NODE_FLAGS);
/** A wall panel, the largest, a hand-held one and an upright one. */
const PANELS = ['waveshare-7in5-v2', 'inkplate-10', 'waveshare-2in13', 'kindle-paperwhite'];

describe('an outfit ending in a word thousands of characters long', () => {
  it('runs with the heap cap of the service', () => {
    expect(FLAGS.some((f) => /^--max-old-space-size=\d+$/.test(f))).toBe(true);
  });

  it("is drawn in a frame under the service render process's heap cap", { timeout: timeout(180_000) }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'outfit-long-word-'));
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        hostileWordArb,
        fc.integer({ min: 1_000, max: 20_000 }),
        fc.constantFrom(...PANELS),
        async (w, length, panelId) => {
          const k = n++;
          const config = path.join(dir, `config-${k}.yaml`);
          const input = path.join(dir, `rec-${k}.json`);
          const out = path.join(dir, `frame-${k}.png`);
          await writeFile(
            config,
            [
              'api: { base_url: simulated }',
              'budget: { credits_per_day: 100 }',
              'timezone: Europe/Berlin',
              'displays:',
              `  - { id: hall, name: Hall, lat: 52.5, lon: 13.4, panel: ${panelId} }`,
              '',
            ].join('\n'),
          );
          await writeFile(input, JSON.stringify({ ...NORMAL, outfit: outfitEndingIn(w, length) }));
          const res = await run(
            process.execPath,
            [...FLAGS, CLI, 'render', '--config', config, '--input', input, '--out', out],
            {
              env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: dir },
              timeout: 60_000,
            },
          ).then(
            () => ({ code: 0 as number | string | undefined, stderr: '' }),
            (err: { code?: number | string; signal?: string; stderr?: string }) => ({
              code: err.code ?? err.signal,
              stderr: err.stderr ?? '',
            }),
          );
          expect(res.code, res.stderr.slice(-2_000)).toBe(0);
          const png = PNG.sync.read(await readFile(out));
          const panel = loadPanel(panelId);
          expect([png.width, png.height].sort()).toEqual([panel.width, panel.height].sort());
        },
      ),
      { numRuns: runs(6), endOnFailure: true },
    );
  });
});
