import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, simulatedConfig, tempConfig } from '../helpers/cli.js';
import { NORMAL } from '../fixtures/samples.js';

describe('render and characters no bundled font has', () => {
  it('logs W_GLYPH_MISSING once per code point and lists them in its JSON', async () => {
    const { dir, file } = await tempConfig(simulatedConfig());
    const input = path.join(dir, 'rec.json');
    await writeFile(input, JSON.stringify({ ...NORMAL, outfit: 'A 雨衣 today, and 雨 again tomorrow ✅' }));
    const json = path.join(dir, 'out.json');
    const res = await runCli(['render', '--config', file, '--input', input, '--out', json]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const warned = res.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { code?: string; codePoint?: string })
      .filter((l) => l.code === 'W_GLYPH_MISSING');
    expect(warned.map((l) => l.codePoint)).toEqual(['U+96E8 (雨)', 'U+8863 (衣)']);
    expect((JSON.parse(await readFile(json, 'utf8')) as { missing_glyphs: string[] }).missing_glyphs).toEqual([
      'U+96E8 (雨)',
      'U+8863 (衣)',
    ]);
  });
});
