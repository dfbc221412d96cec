import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, simulatedConfig, tempConfig } from '../helpers/cli.js';
import { NORMAL } from '../fixtures/samples.js';

/** `render --out x.json` of the normal answer with `outfit`: its exit code, stderr, log lines and frame JSON. */
async function renderOutfit(outfit: string) {
  const { dir, file } = await tempConfig(simulatedConfig());
  const input = path.join(dir, 'rec.json');
  await writeFile(input, JSON.stringify({ ...NORMAL, outfit }));
  const json = path.join(dir, 'out.json');
  const res = await runCli(['render', '--config', file, '--input', input, '--out', json]);
  const logs = res.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { code?: string; codePoint?: string; script?: string });
  return { res, logs, frame: async () => JSON.parse(await readFile(json, 'utf8')) as Record<string, unknown> };
}

describe('render and characters no font has', () => {
  it('logs W_GLYPH_MISSING once per code point and lists them in its JSON', async () => {
    // APL's quad signs: of no script, in no bundled or system font.
    const { res, logs, frame } = await renderOutfit('A ⌸ today, and ⌸ again tomorrow ⍁ ✅');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const warned = logs.filter((l) => l.code === 'W_GLYPH_MISSING');
    expect(warned.map((l) => l.codePoint)).toEqual(['U+2338 (⌸)', 'U+2341 (⍁)']);
    expect((await frame()).missing_glyphs).toEqual(['U+2338 (⌸)', 'U+2341 (⍁)']);
  });

  it('says a text in a script no font has in words, logs W_SCRIPT_NO_FONT and names the script in its JSON', async () => {
    // Devanagari: no bundled font has it, and a system font is sought for Chinese, Japanese and Korean alone.
    const { res, logs, frame } = await renderOutfit('गर्म ऊनी कोट पहनें');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const warned = logs.filter((l) => l.code === 'W_SCRIPT_NO_FONT' || l.code === 'W_GLYPH_MISSING');
    expect(warned.map((l) => [l.code, l.script])).toEqual([['W_SCRIPT_NO_FONT', 'Devanagari']]);
    const f = (await frame()) as { missing_glyphs: string[]; missing_scripts: unknown[]; outfit: { lines: string[] } };
    expect(f.missing_glyphs).toEqual([]);
    expect(f.missing_scripts).toEqual([{ script: 'Devanagari', code: 'Deva', elements: ['outfit'] }]);
    expect(f.outfit.lines.join(' ')).toBe('This outfit is in a script this display has no font for (Devanagari)');
  });
});
