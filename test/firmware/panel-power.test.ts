import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { GHOST_MAX, GHOST_PER_PARTIAL, PanelSim } from '../../display/firmware/panel-sim.js';
import { PowerModel, TRMNL_POWER } from '../../display/firmware/power.js';
import { SimOutput } from '../../display/firmware/sim-output.js';
import type { WakeRecord } from '../../display/firmware/device.js';
import { loadPanel } from '../../src/panels/panels.js';

function frame(w: number, h: number, black: (x: number, y: number) => boolean, blackIdx = 0, whiteIdx = 1): Uint8Array {
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[y * w + x] = black(x, y) ? blackIdx : whiteIdx;
  return out;
}

describe('the panel model: refresh rules and ghosting', () => {
  it('TRMNL 1-bit: first full, then partials, a full every 8th; nothing when nothing changed', () => {
    const p = new PanelSim(loadPanel('trmnl'), 40, 20);
    const kinds: string[] = [];
    kinds.push(p.show(frame(40, 20, (x) => x < 5)).kind);
    kinds.push(p.show(frame(40, 20, (x) => x < 5)).kind);
    for (let i = 1; i <= 9; i++) kinds.push(p.show(frame(40, 20, (x) => x === i)).kind);
    expect(kinds).toEqual([
      'full',
      'none',
      'partial',
      'partial',
      'partial',
      'partial',
      'partial',
      'partial',
      'partial',
      'full',
      'partial',
    ]);
  });

  it('times come from the profile; grey and colour panels always refresh fully', () => {
    const bw = new PanelSim(loadPanel('waveshare-7in5-v2'), 10, 10);
    expect(bw.show(frame(10, 10, () => false)).ms).toBe(4000);
    expect(bw.show(frame(10, 10, (x) => x === 1))).toMatchObject({ kind: 'partial', ms: 500, changedPixels: 10 });
    const grey = new PanelSim(loadPanel('trmnl-4grey'), 10, 10);
    const colour = new PanelSim(loadPanel('waveshare-7in3-f'), 10, 10);
    for (let i = 0; i < 4; i++) {
      expect(grey.show(frame(10, 10, (x) => x === i, 0, 3)).kind).toBe('full');
      expect(colour.show(frame(10, 10, (x) => x === i, 4, 1)).kind).toBe('full');
    }
    expect(colour.show(frame(10, 10, (x) => x === 0, 4, 1)).kind).toBe('full');
    expect(colour.show(frame(10, 10, (x) => x === 0, 4, 1))).toMatchObject({ kind: 'none', ms: 0 });
  });

  it('partials leave a residue of the old colour on changed pixels; it adds up, is capped, and a full refresh clears it', () => {
    const p = new PanelSim(loadPanel('trmnl'), 4, 1);
    p.show(Uint8Array.from([0, 1, 1, 1]));
    const r1 = p.show(Uint8Array.from([1, 1, 1, 1])); // pixel 0 black → white
    expect(r1.kind).toBe('partial');
    expect(r1.ghostMax).toBeCloseTo(GHOST_PER_PARTIAL);
    const glass = p.glassRgb();
    expect(glass[0]).toBe(Math.round(255 * (1 - GHOST_PER_PARTIAL))); // a faint grey where the black was
    expect(glass[3]).toBe(255);
    for (let i = 0; i < 10; i++)
      p.show(Uint8Array.from(i % 2 ? [1, 1, 1, 1] : [0, 1, 1, 1]).map((v, k) => (k === 3 ? i % 2 : v)));
    expect(p.ghostMax()).toBeLessThanOrEqual(GHOST_MAX);
    // the 8th update since the last full one was full: the residue is gone
    const fresh = new PanelSim(loadPanel('trmnl'), 2, 1);
    fresh.show(Uint8Array.from([0, 0]));
    for (let i = 0; i < 6; i++) fresh.show(Uint8Array.from([i % 2, 1 - (i % 2)]));
    expect(fresh.ghostMax()).toBeGreaterThan(0);
    expect(fresh.show(Uint8Array.from([1, 1])).kind).toBe('partial');
    expect(fresh.show(Uint8Array.from([0, 1])).kind).toBe('full');
    expect(fresh.ghostMax()).toBe(0);
  });

  it('the glass PNG shows the framebuffer exactly when there is no residue', () => {
    const p = new PanelSim(loadPanel('trmnl-4grey'), 3, 1);
    p.show(Uint8Array.from([0, 1, 3]));
    const png = PNG.sync.read(p.glassPng());
    expect([png.data[0], png.data[4], png.data[8]]).toEqual([0, 0x55, 255]);
  });

  it('shows the glass in the measured inks too, where the profile has them, and writes it as glass-ink.png', async () => {
    const panel = loadPanel('waveshare-7in3-f');
    const p = new PanelSim(panel, panel.palette.length, 1);
    p.show(Uint8Array.from(panel.palette.map((_, i) => i)));
    const hex = (d: Buffer, i: number): string =>
      `#${[0, 1, 2].map((k) => d[i * 4 + k]!.toString(16).padStart(2, '0')).join('')}`;
    const ink = PNG.sync.read(p.inkPng()).data;
    const glass = PNG.sync.read(p.glassPng()).data;
    panel.palette.forEach((e, i) => {
      expect(hex(ink, i), e.name).toBe(e.ink ?? e.rgb);
      expect(hex(glass, i), e.name).toBe(e.rgb);
    });
    // The blue the palette calls #0000ff is on the glass a blue-black, close to the panel's black.
    expect(panel.palette.find((e) => e.name === 'blue')!.ink).toBe('#3d3b5e');
    expect(p.hasMeasuredInks).toBe(true);
    expect(new PanelSim(loadPanel('waveshare-7in5-v2'), 1, 1).hasMeasuredInks).toBe(false);
    const dir = await mkdtemp(path.join(tmpdir(), 'outfit-ink-'));
    try {
      const out = new SimOutput(dir);
      const record = { n: 1 } as WakeRecord;
      await out.write(record, p.glassPng(), p.inkPng());
      expect((await readdir(dir)).sort()).toEqual(['glass-ink.png', 'glass.png', 'timeline.jsonl', 'wake-0001.png']);
      expect((await readFile(path.join(dir, 'glass-ink.png'))).equals(p.inkPng())).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the power model', () => {
  it('uses TRMNL’s figures: 32.8 mA for 24 s a refreshing wake, 0.1 mA asleep, 1800 mAh', () => {
    const m = new PowerModel();
    const awake = m.awakeMs(true, loadPanel('trmnl').refresh.full_ms);
    expect(awake).toBe(24_000);
    expect(m.wake(awake)).toBeCloseTo((32.8 * 24) / 3600, 6);
    expect(m.awakeMs(false, 0)).toBe(TRMNL_POWER.checkWakeMs);
    m.sleep(30 * 60_000);
    // one refreshing wake every 30 minutes: about 0.53 mA on average, about 141 days
    const days = m.estimateDays()!;
    expect(days).toBeCloseTo(PowerModel.daysFor(TRMNL_POWER, 24_000, 1800 + 24), 0);
    expect(days).toBeGreaterThan(135);
    expect(days).toBeLessThan(147);
    expect(m.batteryVolts).toBeLessThanOrEqual(4.2);
    expect(m.batteryVolts).toBeGreaterThan(4.19);
  });
});
