import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { runCli, simulatedConfig, tempConfig } from '../helpers/cli.js';
import { RENDER_INPUT } from '../fixtures/answers.js';

describe('render (offline, no credits)', () => {
  it('renders a saved Recommendation to PNG and BMP for the display’s panel, byte-identical on a second run', async () => {
    const { dir, file } = await tempConfig(simulatedConfig());
    const input = path.join(dir, 'rec.json');
    await writeFile(input, JSON.stringify(RENDER_INPUT));
    const out = path.join(dir, 'out.png');
    const res = await runCli(['render', '--config', file, '--input', input, '--out', out]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const png = PNG.sync.read(await readFile(out));
    expect([png.width, png.height]).toEqual([800, 480]);
    const first = await readFile(out);
    await runCli(['render', '--config', file, '--input', input, '--out', out]);
    expect((await readFile(out)).equals(first)).toBe(true);

    const bmp = path.join(dir, 'out.bmp');
    expect((await runCli(['render', '--config', file, '--input', input, '--out', bmp])).code).toBe(0);
    const b = await readFile(bmp);
    expect(b.subarray(0, 2).toString('latin1')).toBe('BM');
    expect(b.length).toBe(48_062);
  });

  it('writes what the frame shows as JSON for --out x.json: garments, texts and the sizes chosen', async () => {
    const { dir, file } = await tempConfig(simulatedConfig());
    const input = path.join(dir, 'rec.json');
    await writeFile(input, JSON.stringify(RENDER_INPUT));
    const out = path.join(dir, 'frame.json');
    const res = await runCli(['render', '--config', file, '--input', input, '--out', out]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const json = JSON.parse(await readFile(out, 'utf8')) as {
      garments: unknown;
      texts: string[];
      sizes: { outfit: { px: number; arc_minutes: number } };
      layout: string;
    };
    expect(Array.isArray(json.garments)).toBe(true);
    expect(json.layout).toBe('landscape');
    expect(json.texts.join(' ')).toContain('Take sunglasses.');
    expect(json.sizes.outfit.arc_minutes).toBeGreaterThanOrEqual(10);
  });

  it('names the field of a bad Recommendation, and exits 1; a missing --out is usage (2)', async () => {
    const { dir, file } = await tempConfig(simulatedConfig());
    const input = path.join(dir, 'rec.json');
    await writeFile(input, JSON.stringify({ ...RENDER_INPUT, outfit: '  ' }));
    const res = await runCli(['render', '--config', file, '--input', input, '--out', path.join(dir, 'x.png')]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('outfit');
    expect(res.stderr).toContain(input);
    const usage = await runCli(['render', '--config', file, '--input', input]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('render needs --out FILE');
  });
});
