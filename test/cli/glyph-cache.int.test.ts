import { chmod, mkdir, mkdtemp, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeGlyphs, encodeGlyphs } from '../../src/render/text/glyph-store.js';
import { runCli, simulatedConfig, tempConfig } from '../helpers/cli.js';

/**
 * `render` keeps the glyphs it rasterized in $TMPDIR/outfit-display-glyphs-<uid>/glyphs.bin (glyph-disk-cache.ts)
 * and reads them back in the next process of the same build and fonts; the frame is the same either way.
 */

const REC = {
  outfit: 'A warm coat, a scarf and gloves over a thick sweater; boots for the wet pavements.',
  reasoning: 'Cold and damp all day.',
  weather: { temp: 3, feels_like: -1, temp_unit: '°C', description: 'Drizzle', rain_chance_pct: 70, is_day: true },
  generated_at: '2026-11-27T07:00:00.000Z',
};

const folder = (tmp: string): string => path.join(tmp, `outfit-display-glyphs-${process.getuid?.() ?? 0}`);

/** The stamp a cache file was written for (glyph-store.ts's layout: magic, u32 length, the stamp). */
const stampOf = (file: Buffer): string => file.toString('utf8', 12, 12 + file.readUInt32LE(8));

async function setup(): Promise<{ render: (tmp: string) => Promise<Buffer>; freshTmp: () => Promise<string> }> {
  const { dir, file } = await tempConfig(simulatedConfig());
  const input = path.join(dir, 'rec.json');
  await writeFile(input, JSON.stringify(REC));
  let n = 0;
  return {
    async render(tmp) {
      const out = path.join(dir, `out-${n++}.png`);
      const res = await runCli(['render', '--config', file, '--input', input, '--out', out], { env: { TMPDIR: tmp } });
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      return readFile(out);
    },
    freshTmp: () => mkdtemp(path.join(tmpdir(), 'outfit-glyphs-')),
  };
}

describe('the glyph cache of `render`', () => {
  it('is written by the first render, in a folder of the user’s own, and gives the second the same frame', async () => {
    const { render, freshTmp } = await setup();
    const tmp = await freshTmp();
    const first = await render(tmp);
    const cache = path.join(folder(tmp), 'glyphs.bin');
    expect((await stat(folder(tmp))).mode & 0o777).toBe(0o700);
    expect((await stat(cache)).mode & 0o777).toBe(0o600);
    const written = await readFile(cache);
    const glyphs = decodeGlyphs(written, stampOf(written));
    expect(glyphs?.size).toBeGreaterThan(40);
    expect(await render(tmp)).toEqual(first);
    // Nothing new to keep: the file is left as it was.
    expect(await readFile(cache)).toEqual(written);
  });

  it('is read back: a glyph changed in a file of the same stamp changes the frame (which is why the stamp guards it)', async () => {
    const { render, freshTmp } = await setup();
    const tmp = await freshTmp();
    const first = await render(tmp);
    const cache = path.join(folder(tmp), 'glyphs.bin');
    const file = await readFile(cache);
    const stamp = stampOf(file);
    const glyphs = decodeGlyphs(file, stamp)!;
    const inked = new Map(
      [...glyphs].map(([k, bm]) => [k, { ...bm, bits: bm.bits.map(() => 1), cover: bm.cover.map(() => 255) }]),
    );
    await writeFile(cache, encodeGlyphs(stamp, inked));
    expect(await render(tmp)).not.toEqual(first);
    // Written for another build: not read, and replaced by this one's.
    await writeFile(cache, encodeGlyphs(`another build\n${stamp}`, inked));
    expect(await render(tmp)).toEqual(first);
    expect(decodeGlyphs(await readFile(cache), stamp)?.size).toBe(glyphs.size);
  });

  it('a damaged file is drawn around and written afresh', async () => {
    const { render, freshTmp } = await setup();
    const tmp = await freshTmp();
    const first = await render(tmp);
    const cache = path.join(folder(tmp), 'glyphs.bin');
    const file = await readFile(cache);
    const damaged = Buffer.from(file);
    damaged[Math.floor(file.length / 2)]! ^= 0xff;
    await writeFile(cache, damaged);
    expect(await render(tmp)).toEqual(first);
    expect(await readFile(cache)).toEqual(file);
  });

  it('never uses a folder that others can write (another user could plant glyphs there)', async () => {
    const { render, freshTmp } = await setup();
    const tmp = await freshTmp();
    await mkdir(folder(tmp));
    await chmod(folder(tmp), 0o777);
    const first = await render(tmp);
    expect(await readdir(folder(tmp))).toEqual([]);
    expect(await render(await freshTmp())).toEqual(first);
  });
});
