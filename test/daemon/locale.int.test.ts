import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localeFor } from '../../src/i18n/locale.js';
import { renderFrame } from '../../src/render/frame.js';
import { loadPanel } from '../../src/panels/panels.js';
import { daemonTests } from './helpers.js';

const t = daemonTests({ broker: false });

describe("the daemon's frames in the config's locale", () => {
  it('draws the frame it publishes in the display’s locale', { timeout: 60_000 }, async () => {
    const rig = await t.rig({
      prepare: async (dir) => {
        const file = path.join(dir, 'config.yaml');
        await writeFile(file, `${await readFile(file, 'utf8')}locale: de\n`);
      },
    });
    await rig.daemon.runOnce('hallway');
    const update = rig.published.at(-1)!;
    const input = {
      rec: update.rec,
      displayName: 'hallway',
      timezone: 'Europe/Berlin',
      status: update.status,
      now: new Date(rig.clock.now()),
    };
    const panel = loadPanel('waveshare-4in2');
    const german = await renderFrame({ ...input, locale: localeFor('de') }, panel, { rotation: 0 });
    const english = await renderFrame(input, panel, { rotation: 0 });
    expect(update.frame.hash).toBe(german.hash);
    expect(update.frame.hash).not.toBe(english.hash);
  });
});
