import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { runCli, simulatedConfig, tempConfig } from '../helpers/cli.js';
import { RENDER_INPUT } from '../fixtures/answers.js';
import { ANNA, BEN, householdFile } from '../fixtures/household-samples.js';

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

  it('renders a household file, everyone on one frame; a bad one exits 1 (as a bad Recommendation does) naming the file and the path', async () => {
    const { dir, file } = await tempConfig(simulatedConfig());
    const input = path.join(dir, 'household.json');
    await writeFile(input, JSON.stringify(householdFile([ANNA, BEN])));
    const out = path.join(dir, 'h.json');
    const res = await runCli(['render', '--config', file, '--input', input, '--out', out]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const json = JSON.parse(await readFile(out, 'utf8')) as {
      people: { id: string; additions: string[]; offset_c: number; outfit: string }[];
    };
    expect(json.people.map((p) => [p.id, p.offset_c, p.additions])).toEqual([
      ['anna', -3, ['scarf', 'warm-hat']],
      ['ben', 0, []],
    ]);
    expect(json.people[1]!.outfit).toBe(BEN.recommendation.outfit);

    const bad = path.join(dir, 'bad.json');
    const broken = householdFile([ANNA, { ...BEN, recommendation: { ...BEN.recommendation, outfit: '  ' } }]);
    await writeFile(bad, JSON.stringify(broken));
    const failed = await runCli(['render', '--config', file, '--input', bad, '--out', path.join(dir, 'x.png')]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(bad);
    expect(failed.stderr).toContain('people[1].recommendation.outfit');
  });
});
