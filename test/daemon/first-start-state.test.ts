import { displayRenderOptions } from '../../src/render/display-frame.js';
import { describe, expect, it } from 'vitest';
import { DisplayCycle } from '../../src/daemon/cycle.js';
import { BUILT_IN_LOCALES, localeFor } from '../../src/i18n/locale.js';
import { keeper, testViews } from '../helpers/views.js';
import { frameContent, type FrameInput } from '../../src/render/layout/content.js';
import { renderFrame, renderIndices } from '../../src/render/frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { LastGoodStore } from '../../src/store/last-good.js';
import { storeWriteError, type StoreProblem } from '../../src/store/store-error.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { display } from '../fixtures/display.js';
import { manualClock } from '../helpers/fake-clock.js';

/**
 * A state folder that cannot be written, at the first start: nothing is bought until the state can be saved, so the
 * frame names that cause, in plain words and the display's language (the daemon with its HTTP pages:
 * first-start-state.int.test.ts).
 */

function problemOf(file: string, os: string): StoreProblem {
  const err = storeWriteError(file, Object.assign(new Error(os), { code: os }));
  return { code: err.code, file: err.file, message: err.message, since: '2026-01-31T07:00:00.000Z' };
}

describe('the first start while the state cannot be saved', () => {
  it('a read-only state folder (EROFS, injected) is said as such on the first frame; once saved, the outfit replaces it', async () => {
    const hallway = display('hallway', { panel: 'waveshare-4in2' });
    const clock = manualClock();
    const { logger } = capturingLogger();
    const out = keeper();
    let problem: StoreProblem | null = problemOf('/var/lib/outfit-display/budget-ledger.json', 'EROFS');
    // The ledger's problem is the budget's: the views show it for every display, as the daemon's do.
    const side = testViews({ displays: [hallway], clock, budget: () => ({ storeProblem: problem }) });
    const cycle = new DisplayCycle({
      display: hallway,
      render: displayRenderOptions(hallway, { timezone: 'UTC' }),
      store: new LastGoodStore('/nonexistent-outfit-state'),
      // The governor's answer while the ledger cannot be written: nothing is bought.
      fetch: () =>
        Promise.resolve({
          kind: 'deferred',
          until: new Date(clock.now() + 60_000),
          reason: 'the credit ledger cannot be written',
        }),
      publishers: [out],
      displayBook: side.displayBook,
      views: side.views,
      clock,
      nextUpdateAt: () => null,
      logger,
      purchaseIntervalMs: 60_000,
      sharedStoreProblem: () => problem,
    });
    await cycle.run('schedule');
    expect(out.updates).toHaveLength(1);
    const input: FrameInput = {
      rec: null,
      displayName: 'Hallway',
      timezone: 'UTC',
      status: { kind: 'ok' },
      now: new Date(clock.now()),
      storeProblem: problem,
    };
    const texts = renderIndices(input, loadPanel('waveshare-4in2'), { rotation: 0 }).report.texts.join(' ');
    expect(texts).toContain('Cannot save state');
    expect(texts).toContain('/var/lib/outfit-display is read-only');
    expect(texts).not.toContain('EROFS');
    expect(out.updates[0]!.frame.hash).toBe(
      (await renderFrame(input, loadPanel('waveshare-4in2'), { rotation: 0 })).hash,
    );

    // The state can be saved again: the waiting screen is back until the next purchase (no cause left to name).
    problem = null;
    await cycle.run('schedule');
    expect(out.updates).toHaveLength(2);
    expect(out.updates[1]!.frame.hash).toBe(
      (await renderFrame({ ...input, storeProblem: null }, loadPanel('waveshare-4in2'), { rotation: 0 })).hash,
    );
  });

  it.each(BUILT_IN_LOCALES)('%s: the cause is in the display’s language, for each kind of OS reason', (code) => {
    const locale = localeFor(code);
    const l = locale.labels;
    const words = (os: string) =>
      frameContent({
        rec: null,
        displayName: 'x',
        timezone: 'UTC',
        status: { kind: 'ok' },
        now: new Date(0),
        locale,
        storeProblem: problemOf('/srv/state/last/x.json', os),
      }).status;
    const cases: [string, string][] = [
      ['EROFS', l.state_read_only],
      ['ENOSPC', l.state_full],
      ['EACCES', l.state_denied],
      ['ENOTDIR', l.state_not_folder],
      ['EISDIR', l.state_in_the_way],
      ['EIO', l.state_unwritable],
    ];
    for (const [os, label] of cases) {
      const s = words(os);
      expect(s, os).toMatchObject({ kind: 'state_problem', error: true, title: l.state_problem_title });
      expect(s?.detail, os).toBe(`${label.replace('{dir}', '/srv/state/last')} · ${l.state_no_purchase}`);
      expect(s?.detail, os).not.toContain(os);
    }
    // A frame with an outfit, or with a status of its own, is not changed by it.
    expect(
      frameContent({
        rec: null,
        displayName: 'x',
        timezone: 'UTC',
        status: { kind: 'key_rejected', message: 'bad key' },
        now: new Date(0),
        locale,
        storeProblem: problemOf('/s/l.json', 'EROFS'),
      }).status?.kind,
    ).toBe('key_rejected');
  });
});
