import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { runOeplAp, startOeplAp, type OeplUpload } from '../../display/firmware/oepl-ap.js';
import { freePort } from '../helpers/free-port.js';
import { OeplPublisher } from '../../src/oepl/oepl-publisher.js';
import { hexToRgb, loadPanel } from '../../src/panels/panels.js';
import { drawInProcess, type DrawFrame } from '../../src/render/display-frame.js';
import type { Frame } from '../../src/render/frame.js';
import { TagStatusBook } from '../../src/state/tag-status.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { testViews } from '../helpers/views.js';
import { until } from '../helpers/until.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { display } from '../fixtures/display.js';
import { rec } from '../fixtures/rec.js';
import { update } from '../fixtures/frames.js';

/**
 * The simulator's OpenEPaperLink access point (display/firmware/oepl-ap.ts) fed by the daemon's OEPL publisher over
 * real HTTP: the glass it writes is the frame drawn for the tag, in the palette's inks, pixel for pixel (≥ 99.5 %);
 * an unknown MAC is refused with 400 "mac not found". OEPL_GLASS_OUT=<file> keeps the 2.9" glass (the docs' picture).
 */

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe("the simulator's OpenEPaperLink access point", () => {
  it('shows each pushed picture on the tag’s glass as drawn, and refuses a MAC it does not know', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'oepl-ap-'));
    cleanup.push(() => rm(out, { recursive: true, force: true }));
    const tags = [
      { mac: '0000021EEF5A3B1C', panel: 'oepl-2in9-bwr' },
      { mac: '0000021EEF5A3B2D', panel: 'oepl-4in2-bwr' },
    ];
    const uploads: OeplUpload[] = [];
    // The access point knows only the first tag.
    const ap = await startOeplAp({
      tags: [{ mac: tags[0]!.mac, panel: loadPanel(tags[0]!.panel) }],
      outDir: out,
      host: '127.0.0.1',
      port: 0,
      onUpload: (u) => uploads.push(u),
    });
    cleanup.push(() => ap.close());
    const d = display('hall', { panel: 'waveshare-7in5-v2', name: 'Hallway' });
    const clock = new FakeClock(Date.parse('2026-01-31T07:00:00.000Z'));
    const status = new TagStatusBook();
    const side = testViews({ displays: [d], clock, nextUpdateAt: () => new Date(clock.now() + 3_600_000) });
    const drawn = new Map<string, Frame>();
    const draw: DrawFrame = async (o, s, as) => {
      const f = await drawInProcess(o, s, as);
      drawn.set(as!.panel.id, f);
      return f;
    };
    const pub = new OeplPublisher({
      accessPoint: ap.url,
      tags: tags.map((t) => ({ ...t, display: 'hall' })),
      render: { timezone: 'Europe/Berlin' },
      draw,
      status,
      clock,
      logger: capturingLogger().logger,
    });
    cleanup.push(() => pub.stop());
    await pub.start();
    await pub.publish(side.show(update(d, 1, { rec: rec() })));
    await pub.settled();

    expect(uploads.map((u) => [u.mac, u.outcome.kind]).sort()).toEqual([
      [tags[0]!.mac, 'shown'],
      [tags[1]!.mac, 'refused'],
    ]);
    expect(uploads.find((u) => u.mac === tags[1]!.mac)!.outcome).toEqual({
      kind: 'refused',
      status: 400,
      reason: 'mac not found',
    });
    expect(status.get('hall')).toMatchObject({ mac: tags[1]!.mac, code: 'E_OEPL_MAC_UNKNOWN' });

    const shown = uploads.find((u) => u.mac === tags[0]!.mac)!;
    expect(shown).toMatchObject({ width: 296, height: 128, ttl: '60', dither: '0' });
    const glassFile = path.join(out, `${tags[0]!.mac}.png`);
    const glass = PNG.sync.read(await readFile(glassFile));
    const want = PNG.sync.read(drawn.get('oepl-2in9-bwr')!.png);
    const panel = loadPanel('oepl-2in9-bwr');
    // The glass is in ink colours; map each drawn colour to its ink.
    const inkOf = new Map(panel.palette.map((e) => [hexToRgb(e.rgb).join(','), hexToRgb(e.ink ?? e.rgb).join(',')]));
    let same = 0;
    for (let i = 0; i < want.width * want.height; i++) {
      const w = inkOf.get([want.data[i * 4], want.data[i * 4 + 1], want.data[i * 4 + 2]].join(','));
      if (w === [glass.data[i * 4], glass.data[i * 4 + 1], glass.data[i * 4 + 2]].join(',')) same++;
    }
    expect([glass.width, glass.height]).toEqual([296, 128]);
    expect(same / (want.width * want.height)).toBeGreaterThanOrEqual(0.995);
    if (process.env.OEPL_GLASS_OUT) await copyFile(glassFile, process.env.OEPL_GLASS_OUT);
  }, 30_000);

  it("simulate --via oepl: listens where access_point says, shows the display's tags, ends after --wakes pictures", async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'oepl-sim-'));
    cleanup.push(() => rm(out, { recursive: true, force: true }));
    const port = await freePort();
    const tag = { mac: '0000021EEF5A3B1C', display: 'hall', panel: 'oepl-4in2-bwr' };
    const config = { openepaperlink: { access_point: `http://127.0.0.1:${port}`, tags: [tag] } };
    const lines: string[] = [];
    const io = {
      log: (l: string) => lines.push(l),
      error: (l: string) => lines.push(l),
      signal: new AbortController().signal,
    };
    expect(await runOeplAp(config, { display: 'kitchen' }, io, loadPanel)).toBe(2);
    const running = runOeplAp(config, { display: 'hall', out }, io, loadPanel);
    await until('the access point listening', () => lines.some((l) => l.startsWith('OpenEPaperLink access point on')));
    const d = display('hall', { panel: 'waveshare-7in5-v2' });
    const clock = new FakeClock(Date.parse('2026-01-31T07:00:00.000Z'));
    const side = testViews({ displays: [d], clock });
    const pub = new OeplPublisher({
      accessPoint: config.openepaperlink.access_point,
      tags: [tag],
      render: { timezone: 'Europe/Berlin' },
      status: new TagStatusBook(),
      clock,
      logger: capturingLogger().logger,
    });
    cleanup.push(() => pub.stop());
    await pub.publish(side.show(update(d, 1, { rec: rec() })));
    expect(await running).toBe(0);
    expect(lines.at(-1)).toMatch(/^tag 0000021EEF5A3B1C: \d+ bytes JPEG 400x300, ttl -, dither 0: shown on /);
    expect(PNG.sync.read(await readFile(path.join(out, `${tag.mac}.png`))).width).toBe(400);
  }, 30_000);
});
