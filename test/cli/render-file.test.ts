import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FrameJson } from '../../src/render/frame-json.js';
import { loadPanel } from '../../src/panels/panels.js';
import { renderRecommendationFile } from '../../src/cli/render-file.js';
import { decodePng, pngHeader, readBmp1 } from '../render/decode.js';
import { NORMAL } from '../fixtures/samples.js';

const dir = mkdtempSync(join(tmpdir(), 'render-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const { fetched_at: _fetched, ...serviceResponse } = NORMAL;
const input = join(dir, 'rec.json');
writeFileSync(input, JSON.stringify(serviceResponse));
const args = { inputPath: input, displayName: 'Hallway', timezone: 'Europe/Berlin', rotation: 0 as const };

describe('renderRecommendationFile', () => {
  it('writes PNG, BMP and raw frames by extension, repeatably', async () => {
    const panel = loadPanel('trmnl');
    await renderRecommendationFile({ ...args, panel, outPath: join(dir, 'a.png') });
    await renderRecommendationFile({ ...args, panel, outPath: join(dir, 'b.png') });
    const a = readFileSync(join(dir, 'a.png'));
    expect(a.equals(readFileSync(join(dir, 'b.png')))).toBe(true);
    expect(pngHeader(a)).toEqual({ width: 800, height: 480, bitDepth: 1, colourType: 0 });
    expect(decodePng(a).width).toBe(800);
    await renderRecommendationFile({ ...args, panel, outPath: join(dir, 'f.bmp') });
    expect(readBmp1(readFileSync(join(dir, 'f.bmp'))).width).toBe(800);
    expect(readFileSync(join(dir, 'f.bmp')).length).toBe(48_062);
    await renderRecommendationFile({ ...args, panel, outPath: join(dir, 'f.bin') });
    expect(readFileSync(join(dir, 'f.bin')).length).toBe(48_000);
    await renderRecommendationFile({
      ...args,
      panel: loadPanel('kindle-paperwhite'),
      rotation: 90,
      outPath: join(dir, 'k.raw'),
    });
    expect(readFileSync(join(dir, 'k.raw')).length).toBe(1072 * 1448);
  });

  it('writes what the frame shows as JSON: garments, texts as drawn, sizes with their arc, the PNG it stands for', async () => {
    const panel = loadPanel('waveshare-7in5-v2');
    await renderRecommendationFile({ ...args, panel, outPath: join(dir, 'f.json') });
    await renderRecommendationFile({ ...args, panel, outPath: join(dir, 'f.png') });
    const json = JSON.parse(readFileSync(join(dir, 'f.json'), 'utf8')) as FrameJson;
    expect(json).toMatchObject({
      panel: 'waveshare-7in5-v2',
      width: 800,
      height: 480,
      rotation: 0,
      layout: 'landscape',
    });
    expect(json.viewing).toEqual({ kind: 'wall', distance_mm: 2000, ppi: 124.4 });
    expect(Array.isArray(json.garments)).toBe(true);
    expect(json.texts).toContain('Hallway');
    expect(json.texts.join(' ')).toContain('71%');
    expect(json.outfit!.lines.join(' ')).toBe(NORMAL.outfit);
    expect(json.sizes.outfit!.px).toBe(json.outfit!.size);
    expect(json.sizes.outfit!.arc_minutes).toBeGreaterThanOrEqual(10);
    expect(json.sizes.reading!.px).toBeGreaterThanOrEqual(30);
    expect(json.png_sha256).toBe(
      createHash('sha256')
        .update(readFileSync(join(dir, 'f.png')))
        .digest('hex'),
    );
  });

  it('names the file on bad JSON', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"outfit": ');
    await expect(
      renderRecommendationFile({ ...args, inputPath: bad, panel: loadPanel('trmnl'), outPath: join(dir, 'x.png') }),
    ).rejects.toThrow(new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON`));
  });

  it('names the file and each field path of an invalid Recommendation', async () => {
    const bad = join(dir, 'invalid.json');
    // A reading of the wrong type is read as missing (the frame shows "—"); a weather that is no object is not.
    writeFileSync(bad, JSON.stringify({ ...serviceResponse, weather: 'sunny', outfit: undefined }));
    const err = renderRecommendationFile({
      ...args,
      inputPath: bad,
      panel: loadPanel('trmnl'),
      outPath: join(dir, 'x.png'),
    });
    await expect(err).rejects.toThrow(/invalid\.json is not a valid Recommendation: .*outfit: .*weather: /);
  });

  it('refuses a BMP for a colour panel and an unknown extension', async () => {
    await expect(
      renderRecommendationFile({ ...args, panel: loadPanel('waveshare-7in3-f'), outPath: join(dir, 'c.bmp') }),
    ).rejects.toThrow(/c\.bmp.*1-bit/);
    await expect(
      renderRecommendationFile({ ...args, panel: loadPanel('trmnl'), outPath: join(dir, 'c.jpg') }),
    ).rejects.toThrow(/c\.jpg.*\.png, \.bmp, \.bin, \.raw or \.json/);
    await expect(
      renderRecommendationFile({
        ...args,
        inputPath: join(dir, 'missing.json'),
        panel: loadPanel('trmnl'),
        outPath: join(dir, 'm.png'),
      }),
    ).rejects.toThrow(/missing\.json/);
  });
});
