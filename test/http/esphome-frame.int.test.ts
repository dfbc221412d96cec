import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpPublisher } from '../../src/http/http-publisher.js';
import { refreshRateFor } from '../../src/trmnl/refresh-rate.js';
import { encodeBmp1 } from '../../src/render/encode/bmp.js';
import { httpRequest } from '../helpers/http-client.js';
import { servePublisher } from '../helpers/serve-publisher.js';
import { parseEsphomeYaml } from '../esphome/esphome-check.js';
import {
  drawCall,
  esphomeBmpBinary,
  esphomePngBinary,
  frameBlack,
  glassBlack,
  type OnBits,
  type Platform,
} from '../esphome/esphome-decode.js';
import { display } from '../fixtures/display.js';
import { manualClock } from '../helpers/fake-clock.js';
import { update } from '../fixtures/frames.js';

/**
 * The frame each ESPHome YAML (config/esphome/) pulls, through real HTTP from the frame server, decoded by
 * ESPHome's rules (test/esphome/esphome-decode.ts) and drawn with the YAML's own draw call: black exactly where our
 * frame is black. And the wake endpoint the battery variant reads.
 */

const hallway = display('hallway', { panel: 'waveshare-7in5-v2' });
const desk = display('desk', { panel: 'waveshare-2in9' });
const kitchen = display('kitchen', { panel: 'waveshare-7in3-f' });

function yamlOf(file: string): { url: string; format: string; lambda: string; displayId: string; platform: Platform } {
  const cfg = parseEsphomeYaml(readFileSync(`config/esphome/${file}`, 'utf8'));
  const img = (cfg.online_image as Record<string, string>[])[0]!;
  const subst = cfg.substitutions as Record<string, string>;
  const disp = (cfg.display as Record<string, string>[])[0]!;
  return {
    url: img.url!,
    format: img.format!,
    lambda: disp.lambda!,
    displayId: subst.display_id!,
    platform: disp.platform as Platform,
  };
}

const differing = (a: Uint8Array, b: Uint8Array): number => a.reduce((n, v, i) => n + (v === b[i] ? 0 : 1), 0);

describe("ESPHome: the served frame by ESPHome's rules", () => {
  const started: HttpPublisher[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.stop()));
  });

  async function serve(next: Date | null = null) {
    const clock = manualClock();
    const s = await servePublisher(
      { displays: [hallway, desk, kitchen], clock, started },
      { nextUpdateAt: () => next },
    );
    await s.publish(update(hallway, 3));
    await s.publish(update(desk, 5));
    await s.publish(update(kitchen, 2));
    return s;
  }

  it.each(['waveshare-7in5-v2.yaml', 'waveshare-7in5-v2-battery.yaml', 'reterminal-e1001.yaml', 'waveshare-2in9.yaml'])(
    '%s: black on the glass exactly where the frame is black',
    async (file) => {
      const s = await serve();
      const y = yamlOf(file);
      const id = y.displayId === 'hallway' ? 'hallway' : 'desk';
      const url = y.url.replace('${outfit_url}', s.url).replace('${display_id}', id);
      const served = await httpRequest(url);
      expect(served.status).toBe(200);
      const img: OnBits = y.format === 'BMP' ? esphomeBmpBinary(served.body) : esphomePngBinary(served.body);
      const frame = frameBlack((await httpRequest(`${s.url}/displays/${id}/frame.png`)).body);
      expect([img.width, img.height]).toEqual([frame.width, frame.height]);
      const { colorOn, colorOff } = drawCall(y.lambda);
      const glass = glassBlack(img, colorOn, colorOff, y.platform);
      expect(frame.black.some((v) => v === 1) && frame.black.some((v) => v === 0)).toBe(true);
      expect(differing(glass, frame.black)).toBe(0);
      // The other call (the default on waveshare_epaper, the usual "fix" on epaper_spi) inverts every pixel.
      expect(differing(glassBlack(img, colorOff, colorOn, y.platform), frame.black)).toBe(frame.black.length);
    },
  );

  it('a 1-bit BMP whose rows are padded (296 wide) shears under ESPHome\'s BMP decoder: why the 2.9" file pulls PNG', async () => {
    const s = await serve();
    const frame = frameBlack((await httpRequest(`${s.url}/displays/desk/frame.png`)).body);
    expect(frame.width % 32).not.toBe(0);
    const bmp = encodeBmp1({ width: frame.width, height: frame.height, bits: frame.black.map((b) => (b ? 0 : 1)) });
    const glass = glassBlack(esphomeBmpBinary(bmp), 'COLOR_OFF', 'COLOR_ON', 'waveshare_epaper');
    expect(differing(glass, frame.black)).toBeGreaterThan(0);
  });

  it("sleep.txt and next.json answer X-Refresh-Rate's seconds, the next update and the frame's ETag", async () => {
    const next = new Date(Date.parse('2026-01-31T07:30:00.000Z'));
    const s = await serve(next);
    const txt = await httpRequest(`${s.url}/displays/hallway/sleep.txt`);
    const expected = refreshRateFor(next, s.clock.now(), 30);
    expect(txt.status).toBe(200);
    expect(txt.headers['content-type']).toMatch(/^text\/plain/);
    expect(Number.parseInt(txt.text(), 10)).toBe(expected);
    expect(expected).toBe(30 * 60 + 30);
    const frame = await httpRequest(`${s.url}/displays/hallway/frame.bmp`);
    expect(Number(frame.headers['x-refresh-rate'])).toBe(expected);
    const json = (await httpRequest(`${s.url}/displays/hallway/next.json`)).json<{
      sleep_s: number;
      next_update_at: string;
      etag: string;
    }>();
    expect(json).toEqual({
      sleep_s: expected,
      next_update_at: '2026-01-31T07:30:00.000Z',
      etag: (await httpRequest(`${s.url}/displays/hallway/frame.png`)).headers.etag,
    });
    s.clock.advance(29 * 60_000);
    expect((await httpRequest(`${s.url}/displays/hallway/sleep.txt`)).text().trim()).toBe('90');
  });

  it('the wake endpoint keeps the Host check and answers only for configured displays', async () => {
    const s = await serve();
    expect(
      (await httpRequest(`${s.url}/displays/hallway/sleep.txt`, { headers: { Host: 'evil.example' } })).status,
    ).toBe(421);
    expect((await httpRequest(`${s.url}/displays/nobody/sleep.txt`)).status).toBe(404);
    expect((await httpRequest(`${s.url}/displays/hallway/sleep.txt`, { method: 'POST' })).status).toBe(405);
    // No schedule known: the default X-Refresh-Rate (30 minutes), never nothing.
    expect((await httpRequest(`${s.url}/displays/hallway/sleep.txt`)).text().trim()).toBe('1800');
  });
});
