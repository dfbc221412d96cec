import { describe, expect, it } from 'vitest';
import { dayReport } from '../../display/firmware/day-report.js';
import { TRMNL_POWER } from '../../display/firmware/power.js';
import { loadPanel } from '../../src/panels/panels.js';
import { display, patternFrame } from '../http/fixtures.js';

/**
 * The note's figures (docs/guides/esphome.md): a day of the battery ESPHome YAML on "*\/30 6-22 * * *", sleeping the
 * served seconds (sleep.txt, the same arithmetic as X-Refresh-Rate: day-report.ts's refresh_rate policy) against a
 * fixed 15-minute deep sleep. After deep sleep no ETag is left, so every wake downloads the whole frame.bmp;
 * sleep.txt's body is a few digits and a newline. HTTP headers (a few hundred bytes a request) come on top of these
 * bodies.
 */

const SCHEDULE = '*/30 6-22 * * *';

describe('a day of the battery ESPHome variant', () => {
  it('wakes and bytes: served seconds against a fixed 15 minutes', () => {
    const panel = loadPanel('waveshare-7in5-v2');
    const bmp = patternFrame(display('hallway', { panel: panel.id }), 1).bmp!;
    expect(bmp.length).toBe(48_062);
    const r = dayReport({
      schedule: SCHEDULE,
      timezone: 'Europe/Berlin',
      panel,
      power: TRMNL_POWER,
      from: Date.parse('2026-03-10T12:00:00Z'),
    });
    const [served, fixed] = r.rows;
    const sleepTxt = 5; // "1830\n" at most 6 ("27030\n"); counted as 5 a wake
    const servedBytes = served.wakes * (bmp.length + sleepTxt);
    const fixedBytes = fixed.wakes * bmp.length;
    expect(served.new_frames).toBe(34);
    expect(served.wakes).toBeLessThanOrEqual(36);
    expect(fixed.wakes).toBeGreaterThanOrEqual(95);
    expect(servedBytes * 2.5).toBeLessThan(fixedBytes);
    console.log(
      JSON.stringify({
        served: { wakes: served.wakes, new_frames: served.new_frames, bytes: servedBytes, mah: served.mah_per_day },
        fixed15: { wakes: fixed.wakes, new_frames: fixed.new_frames, bytes: fixedBytes, mah: fixed.mah_per_day },
      }),
    );
  });
});
