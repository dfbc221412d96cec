import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPanel } from '../../src/panels/panels.js';
import { renderFrame, renderIndices } from '../../src/render/frame.js';
import type { FrameInput } from '../../src/render/layout/content.js';
import { httpRequest } from '../helpers/http-client.js';
import { daemonTests } from './helpers.js';

/**
 * The first start with a state folder that cannot be written (the wall said only "Waiting for the first
 * outfit"): nothing is bought until the state can be saved, so the frame names that cause, in plain words and the
 * display's language, and state.json, the status page and /healthz carry the problem.
 * The cycle's frame and the words in every language are in first-start-state.test.ts.
 */

const t = daemonTests({ broker: false });

describe('the first start while the state cannot be saved', () => {
  it('the daemon’s first frame says the state cannot be saved and where, not "Waiting for the first outfit"', async () => {
    // A real fault, whoever runs the test (root too): the ledger's temp file is a folder, so no write-ahead succeeds.
    const r = await t.rig({
      prepare: (dir) =>
        mkdir(path.join(dir, 'state', 'budget-ledger.json.tmp'), { recursive: true }).then(() => undefined),
    });
    await r.daemon.start();
    expect(await r.paidRequests()).toBe(0);
    const problem = r.daemon.governor.storeProblem;
    expect(problem?.code).toBe('E_STATE_WRITE');
    const shown = r.published.at(-1);
    expect(shown?.rec).toBeNull();

    // What the frame shows: the published frame is the one drawn with the cause, and that one says it in words.
    const cycle = r.daemon.cycles.get('hallway')!;
    const input: FrameInput = {
      rec: null,
      displayName: 'hallway',
      timezone: 'Europe/Berlin',
      status: { kind: 'ok' },
      now: new Date(r.clock.now()),
      storeProblem: problem,
    };
    const panel = loadPanel(cycle.display.panel);
    const opts = { rotation: cycle.display.rotation, dither: cycle.display.dither };
    const texts = renderIndices(input, panel, opts).report.texts.join(' ');
    expect(texts).toContain('Cannot save state');
    expect(texts).toContain(`a file or folder is in the way in ${path.join(r.dir, 'state')}`);
    expect(texts).not.toContain('Waiting for the first outfit');
    expect(texts).not.toContain('EISDIR');
    expect(shown?.frame.hash).toBe((await renderFrame(input, panel, opts)).hash);

    // And every other place an owner looks.
    const state = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<Record<string, unknown>>();
    expect(state.state_problem).toMatchObject({
      code: 'E_STATE_WRITE',
      file: path.join(r.dir, 'state', 'budget-ledger.json'),
    });
    expect(state.status).toBe('ok');
    const health = await httpRequest(`${r.http}/healthz`);
    expect(health.status).toBe(503);
    expect(health.text()).toContain('E_STATE_WRITE');
    expect((await httpRequest(`${r.http}/`)).text()).toContain('budget-ledger.json');
  });
});
