import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, simulatedConfig, tempConfig } from '../helpers/cli.js';
import { NORMAL } from '../fixtures/samples.js';

describe('render and characters no font has', () => {
  it('logs W_GLYPH_MISSING once per code point and lists them in its JSON', async () => {
    const { dir, file } = await tempConfig(simulatedConfig());
    const input = path.join(dir, 'rec.json');
    // APL's quad signs: of no script, in no bundled or system font.
    await writeFile(input, JSON.stringify({ ...NORMAL, outfit: 'A ⌸ today, and ⌸ again tomorrow ⍁ ✅' }));
    const json = path.join(dir, 'out.json');
    const res = await runCli(['render', '--config', file, '--input', input, '--out', json]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const warned = res.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { code?: string; codePoint?: string })
      .filter((l) => l.code === 'W_GLYPH_MISSING');
    expect(warned.map((l) => l.codePoint)).toEqual(['U+2338 (⌸)', 'U+2341 (⍁)']);
    expect((JSON.parse(await readFile(json, 'utf8')) as { missing_glyphs: string[] }).missing_glyphs).toEqual([
      'U+2338 (⌸)',
      'U+2341 (⍁)',
    ]);
  });

  it('says a text in a script no font has in words, logs W_SCRIPT_NO_FONT and names the script in its JSON', async () => {
    const { dir, file } = await tempConfig(simulatedConfig());
    const input = path.join(dir, 'rec.json');
    // Devanagari: no bundled font has it, and a system font is sought for Chinese, Japanese and Korean alone.
    await writeFile(input, JSON.stringify({ ...NORMAL, outfit: 'गर्म ऊनी कोट पहनें' }));
    const json = path.join(dir, 'out.json');
    const res = await runCli(['render', '--config', file, '--input', input, '--out', json]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const warned = res.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { code?: string; script?: string })
      .filter((l) => l.code === 'W_SCRIPT_NO_FONT' || l.code === 'W_GLYPH_MISSING');
    expect(warned.map((l) => [l.code, l.script])).toEqual([['W_SCRIPT_NO_FONT', 'Devanagari']]);
    const frame = JSON.parse(await readFile(json, 'utf8')) as {
      missing_glyphs: string[];
      missing_scripts: unknown[];
      outfit: { lines: string[] };
    };
    expect(frame.missing_glyphs).toEqual([]);
    expect(frame.missing_scripts).toEqual([{ script: 'Devanagari', code: 'Deva', elements: ['outfit'] }]);
    expect(frame.outfit.lines.join(' ')).toBe('This outfit is in a script this display has no font for (Devanagari)');
  });
});
