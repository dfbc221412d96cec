import { describe, expect, it } from 'vitest';
import { renderFrame } from '../../src/render/frame.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import { decodePng, offPalette, pngHeader, readBmp1 } from './decode.js';
import { sampleInput } from '../fixtures/samples.js';

const IDS = [
  'waveshare-7in5-v2',
  'waveshare-7in5-b',
  'waveshare-4in2',
  'waveshare-2in9',
  'waveshare-2in13',
  'waveshare-7in3-f',
  'inky-impression-7in3',
  'inkplate-10',
  'trmnl',
  'trmnl-4grey',
  'kindle-paperwhite',
];

describe('panel profiles', () => {
  it('has every contract id, each valid', () => {
    expect(listPanelIds()).toEqual(expect.arrayContaining(IDS));
    for (const id of IDS) expect(loadPanel(id).id).toBe(id);
  });

  it('names the id and the available ids for an unknown panel', () => {
    expect(() => loadPanel('waveshare-9in9')).toThrow(/waveshare-9in9.*available panels: .*waveshare-7in5-v2/);
  });
});

describe('renderFrame on waveshare-7in5-v2', () => {
  const panel = loadPanel('waveshare-7in5-v2');

  it('gives an 800x480 1-bit PNG, a 48,062-byte BMP and a 48,000-byte raw framebuffer', async () => {
    const frame = await renderFrame(sampleInput('normal'), panel, { rotation: 0 });
    expect([frame.width, frame.height]).toEqual([800, 480]);
    expect(pngHeader(frame.png)).toEqual({ width: 800, height: 480, bitDepth: 1, colourType: 0 });
    const png = decodePng(frame.png);
    expect(offPalette(png, panel)).toEqual([]);
    expect(frame.bmp?.length).toBe(48_062);
    const bmp = readBmp1(frame.bmp!);
    expect([bmp.width, bmp.height, bmp.bitsPerPixel, bmp.offset]).toEqual([800, 480, 1, 62]);
    expect(frame.raw.length).toBe(48_000);
    expect(frame.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is 480x800 when turned by 90 degrees', async () => {
    const frame = await renderFrame(sampleInput('normal'), panel, { rotation: 90 });
    expect([frame.width, frame.height]).toEqual([480, 800]);
    expect(pngHeader(frame.png)).toMatchObject({ width: 480, height: 800 });
    expect(frame.raw.length).toBe(48_000);
  });

  it('is byte-identical for the same input', async () => {
    const a = await renderFrame(sampleInput('alert'), panel, { rotation: 0 });
    const b = await renderFrame(sampleInput('alert'), panel, { rotation: 0 });
    expect(a.hash).toBe(b.hash);
    expect(a.raw.equals(b.raw)).toBe(true);
  });
});
