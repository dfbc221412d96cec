import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { DisplayConfig } from '../../src/config/schema.js';
import { HttpPublisher } from '../../src/http/http-publisher.js';
import { OeplPublisher, PUSHED_FILE, OEPL_BACKOFF } from '../../src/oepl/oepl-publisher.js';
import { hexToRgb, loadPanel, type PanelProfile } from '../../src/panels/panels.js';
import { drawInProcess, type DrawFrame } from '../../src/render/display-frame.js';
import type { Frame } from '../../src/render/frame.js';
import { diagnosticsPayload } from '../../src/state/state-payload.js';
import { TagStatusBook } from '../../src/state/tag-status.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { httpRequest } from '../helpers/http-client.js';
import { until } from '../helpers/until.js';
import { testViews } from '../helpers/views.js';
import { startFakeAp } from './fake-ap.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { display } from '../fixtures/display.js';
import { rec } from '../fixtures/rec.js';
import { update } from '../fixtures/frames.js';

/**
 * OpenEPaperLink tags fed through real HTTP to a fake access point (fake-ap.ts): the JPEG each tag gets decoded by
 * jpeg-js (not our encoder's side) and quantised to the tag's palette, nearest colour, as the access point does with
 * dither=0, against the frame drawn for the tag; one push per new picture; 409 and resets retried on the clock; an
 * unknown MAC a problem on /healthz and state.json, never a crash.
 */

const TAGS = [
  { mac: '0000021EEF5A3B1C', panel: 'oepl-2in9-bwr' },
  { mac: '0000021EEF5A3B2D', panel: 'oepl-4in2-bwr' },
  { mac: '0000021EEF5A3B3E', panel: 'waveshare-7in5-b' },
  { mac: '0000021EEF5A3B4F', panel: 'inky-impression-7in3' },
] as const;

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** Share of pixels where the decoded JPEG, quantised to the palette (nearest, as drawn), equals the frame. */
function agreement(jpg: Buffer, frame: Frame, panel: PanelProfile): { width: number; height: number; share: number } {
  const got = jpeg.decode(jpg, { useTArray: true, formatAsRGBA: true });
  const want = PNG.sync.read(frame.png);
  const palette = panel.palette.map((e) => hexToRgb(e.rgb));
  let same = 0;
  const n = want.width * want.height;
  for (let i = 0; i < n && got.width === want.width && got.height === want.height; i++) {
    const [r, g, b] = [got.data[i * 4]!, got.data[i * 4 + 1]!, got.data[i * 4 + 2]!];
    let best = palette[0]!;
    let bestD = Infinity;
    for (const c of palette) {
      const d = (c[0] - r) ** 2 + (c[1] - g) ** 2 + (c[2] - b) ** 2;
      if (d < bestD) [best, bestD] = [c, d];
    }
    if (best[0] === want.data[i * 4] && best[1] === want.data[i * 4 + 1] && best[2] === want.data[i * 4 + 2]) same++;
  }
  return { width: got.width, height: got.height, share: same / n };
}

/** A JPEG's start-of-frame marker: 0xC0 is baseline. */
function sofMarker(jpg: Buffer): number | null {
  for (let i = 2; i < jpg.length - 1;) {
    if (jpg[i] !== 0xff) return null;
    const m = jpg[i + 1]!;
    if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) return m;
    i += 2 + jpg.readUInt16BE(i + 2);
  }
  return null;
}

async function setup(
  o: { clock?: FakeClock; tags?: ReadonlyArray<{ mac: string; panel: string }>; stateDir?: string } = {},
) {
  const ap = await startFakeAp();
  cleanup.push(() => ap.close());
  const d: DisplayConfig = display('hall', { panel: 'waveshare-7in5-v2' });
  const clock = o.clock ?? new FakeClock(Date.parse('2026-01-31T07:00:00.000Z'));
  const status = new TagStatusBook();
  const side = testViews({
    displays: [d],
    clock,
    nextUpdateAt: () => new Date(clock.now() + 30 * 60_000),
    tagProblem: (id) => status.get(id),
  });
  const drawn: Array<{ panel: string; frame: Frame }> = [];
  const draw: DrawFrame = async (opts, state, as) => {
    const frame = await drawInProcess(opts, state, as);
    drawn.push({ panel: as?.panel.id ?? opts.panel.id, frame });
    return frame;
  };
  const cap = capturingLogger();
  const pub = new OeplPublisher({
    accessPoint: ap.url,
    tags: (o.tags ?? TAGS).map((t) => ({ ...t, display: 'hall' })),
    render: { timezone: 'Europe/Berlin' },
    draw,
    status,
    clock,
    logger: cap.logger,
    ...(o.stateDir !== undefined && { stateDir: o.stateDir }),
  });
  await pub.start();
  cleanup.push(() => pub.stop());
  return { ap, d, clock, status, side, drawn, pub, logs: cap.text };
}

describe('OpenEPaperLink publisher', () => {
  it('pushes each tag a baseline JPEG of its size that comes back to the drawn frame (≥ 99.5 %), with mac, dither=0 and ttl; once per picture', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'oepl-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const s = await setup({ stateDir: dir });
    await s.pub.publish(s.side.show(update(s.d, 1, { rec: rec() })));
    await s.pub.settled();
    expect(s.ap.uploads.map((u) => u.fields.mac).sort()).toEqual(TAGS.map((t) => t.mac).sort());
    const figures: string[] = [];
    for (const t of TAGS) {
      const up = s.ap.uploads.find((u) => u.fields.mac === t.mac)!;
      expect(up.fields).toEqual({ mac: t.mac, dither: '0', ttl: '30' });
      expect(up.contentType).toBe('image/jpeg');
      expect(sofMarker(up.file)).toBe(0xc0);
      const panel = loadPanel(t.panel);
      const frame = s.drawn.find((x) => x.panel === t.panel)!.frame;
      const a = agreement(up.file, frame, panel);
      expect([a.width, a.height]).toEqual([panel.width, panel.height]);
      expect(a.share).toBeGreaterThanOrEqual(0.995);
      figures.push(
        `${t.panel} ${a.width}x${a.height}: ${up.file.length} bytes, ${(a.share * 100).toFixed(3)} % of pixels as drawn`,
      );
    }
    console.log(`OEPL figures:\n${figures.join('\n')}`);
    // The same state again (and a new frame of the display whose picture for the tags is the same): nothing sent.
    await s.pub.publish(s.side.show(update(s.d, 1, { rec: rec() })));
    await s.pub.settled();
    expect(s.ap.uploads).toHaveLength(TAGS.length);
    // A new outfit: one more push per tag.
    await s.pub.publish(s.side.show(update(s.d, 2, { rec: rec({ outfit: 'Raincoat, boots and an umbrella.' }) })));
    await s.pub.settled();
    expect(s.ap.uploads).toHaveLength(2 * TAGS.length);
    // What was accepted survives a restart: a new publisher does not push the same pictures again.
    expect(Object.keys(JSON.parse(await readFile(path.join(dir, PUSHED_FILE), 'utf8')) as object).sort()).toEqual(
      TAGS.map((t) => t.mac).sort(),
    );
    const again = await setup({ stateDir: dir });
    await again.pub.publish(
      again.side.show(update(again.d, 2, { rec: rec({ outfit: 'Raincoat, boots and an umbrella.' }) })),
    );
    await again.pub.settled();
    expect(again.ap.uploads).toHaveLength(0);
  }, 60_000);

  it('tries again after 409 and after a reset, with backoff on the clock, and keeps going', async () => {
    const s = await setup({ tags: [TAGS[0]] });
    s.ap.script.push(409, 'reset', 409);
    await s.pub.publish(s.side.show(update(s.d, 1, { rec: rec() })));
    await s.pub.settled();
    expect(s.ap.uploads.map((u) => u.answered)).toEqual([409]);
    s.clock.advance(OEPL_BACKOFF.baseMs - 1);
    await s.pub.settled();
    expect(s.ap.uploads).toHaveLength(1);
    s.clock.advance(1);
    await until('the retry after the 409', () => s.ap.uploads.length === 2);
    await s.pub.settled();
    s.clock.advance(2 * OEPL_BACKOFF.baseMs);
    await until('the retry after the reset', () => s.ap.uploads.length === 3);
    await s.pub.settled();
    s.clock.advance(4 * OEPL_BACKOFF.baseMs);
    await until('the third retry', () => s.ap.uploads.length === 4);
    await s.pub.settled();
    expect(s.ap.uploads.map((u) => u.answered)).toEqual([409, 'reset', 409, 200]);
    expect(s.clock.pendingTimers()).toBe(0);
    expect(s.logs()).toContain('W_OEPL_RETRY');
    expect(s.status.get('hall')).toBeNull();
  });

  it('a newer frame replaces the picture waiting for a retry: only the newest is sent', async () => {
    const s = await setup({ tags: [TAGS[0]] });
    s.ap.script.push(409);
    await s.pub.publish(s.side.show(update(s.d, 1, { rec: rec() })));
    await s.pub.settled();
    await s.pub.publish(s.side.show(update(s.d, 2, { rec: rec({ outfit: 'Raincoat, boots and an umbrella.' }) })));
    s.clock.advance(OEPL_BACKOFF.baseMs);
    await until('the retry', () => s.ap.uploads.length === 2);
    await s.pub.settled();
    s.clock.advance(60 * 60_000);
    await s.pub.settled();
    expect(s.ap.uploads).toHaveLength(2);
    const newest = s.drawn.at(-1)!.frame;
    expect(agreement(s.ap.uploads[1]!.file, newest, loadPanel(TAGS[0].panel)).share).toBeGreaterThanOrEqual(0.995);
  });

  it('an unknown MAC is a problem of the display on /healthz and state.json, not a crash; the next frame clears it', async () => {
    const s = await setup({ tags: [TAGS[0], TAGS[1]] });
    const http = new HttpPublisher({
      listen: '127.0.0.1:0',
      displays: [s.d],
      views: s.side.views,
      timezone: 'Europe/Berlin',
      clock: s.clock,
      logger: capturingLogger().logger,
    });
    await http.start();
    cleanup.push(() => http.stop());
    s.ap.script.push('mac_unknown', 200);
    const view = s.side.show(update(s.d, 1, { rec: rec() }));
    await s.pub.publish(view);
    await s.pub.settled();
    expect(s.ap.uploads.map((u) => u.answered).sort()).toEqual([200, 'mac_unknown']);
    const unknownMac = s.ap.uploads.find((u) => u.answered === 'mac_unknown')!.fields.mac!;
    expect(s.status.get('hall')).toMatchObject({ mac: unknownMac, code: 'E_OEPL_MAC_UNKNOWN' });
    const health = await httpRequest(`${http.url!}/healthz`);
    expect(health.status).toBe(503);
    const h = JSON.parse(health.text()) as { displays: Array<{ tag_problem?: string; reason: string }> };
    expect(h.displays[0]!.tag_problem).toMatch(new RegExp(`^E_OEPL_MAC_UNKNOWN: tag ${unknownMac}: `));
    const state = JSON.parse((await httpRequest(`${http.url!}/displays/hall/state.json`)).text()) as {
      tag_problem: { code: string; mac: string } | null;
    };
    expect(state.tag_problem).toMatchObject({ code: 'E_OEPL_MAC_UNKNOWN', mac: unknownMac });
    expect(s.logs()).toContain('E_OEPL_MAC_UNKNOWN');
    // Home Assistant's diagnostics (MQTT) carry it too.
    const diag = JSON.parse(
      diagnosticsPayload({ kind: 'ok' }, null, 'UTC', { tagProblem: s.side.views.view('hall')!.tagProblem }),
    ) as { tag_problem: string | null };
    expect(diag.tag_problem).toMatch(new RegExp(`^E_OEPL_MAC_UNKNOWN: tag ${unknownMac}: `));
    // The owner pairs the tag: the next picture goes through and the problem is gone.
    await s.pub.publish(s.side.show(update(s.d, 2, { rec: rec({ outfit: 'Raincoat, boots and an umbrella.' }) })));
    await s.pub.settled();
    expect(s.status.get('hall')).toBeNull();
    expect((await httpRequest(`${http.url!}/healthz`)).status).toBe(200);
    // Older firmware says it with a 200: still an unknown MAC, not a picture shown.
    s.ap.script.push('mac_unknown_200', 'mac_unknown_200');
    await s.pub.publish(s.side.show(update(s.d, 3, { rec: rec({ outfit: 'A warm coat and gloves.' }) })));
    await s.pub.settled();
    expect(s.status.get('hall')).toMatchObject({ code: 'E_OEPL_MAC_UNKNOWN' });
    expect(s.status.get('hall')!.message).toContain('200 Error while saving: mac not found');
  }, 30_000);
});
