import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, simulatedConfig, tempConfig } from '../helpers/cli.js';
import { startNodeCli, watchProcess } from '../helpers/daemon-process.js';
import { until } from '../helpers/until.js';

/**
 * `render` keeps Intl's words for the display's locale and its zone's offsets in
 * $TMPDIR/outfit-display-intl-<uid>/intl-<checksum>.json (render/intl-disk-cache.ts), so that the next `render` of
 * the same build and Node builds no Intl formatter; the frame is the same either way.
 */

const INTL_PRELOAD = path.join(ROOT, 'test/helpers/intl-count.js');

const REC = {
  outfit: 'A warm coat, a scarf and gloves over a thick sweater; boots for the wet pavements.',
  reasoning: 'Cold and damp all day.',
  weather: { temp: 3.5, feels_like: -1, temp_unit: '°C', description: 'Drizzle', rain_chance_pct: 70, wind_speed: 12.5, is_day: true },
  generated_at: '2026-11-27T07:00:00.000Z',
};

const folder = (tmp: string): string => path.join(tmp, `outfit-display-intl-${process.getuid?.() ?? 0}`);

interface CacheFile {
  stamp: string;
  words: Array<{ tag: string; times: string[]; days: string[]; decimal: string | null }>;
  zones: Array<{ zone: string; changes: unknown[] }>;
}

async function setup(): Promise<{ render: (tmp: string) => Promise<{ png: Buffer; intl: string[] }>; freshTmp: () => Promise<string> }> {
  // A German display: its dates and decimals differ from English ones.
  const { dir, file } = await tempConfig(`${simulatedConfig()}locale: de\n`);
  const input = path.join(dir, 'rec.json');
  await writeFile(input, JSON.stringify(REC));
  let n = 0;
  return {
    async render(tmp) {
      const i = n++;
      const out = path.join(dir, `out-${i}.png`);
      const log = path.join(dir, `intl-${i}.log`);
      const res = await runCli(['render', '--config', file, '--input', input, '--out', out], {
        env: { TMPDIR: tmp, NODE_OPTIONS: `--import=${pathToFileURL(INTL_PRELOAD).href}`, OUTFIT_TEST_INTL_LOG: log },
      });
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      const intl = await readFile(log, 'utf8').then((s) => s.trim().split('\n'), () => []);
      return { png: await readFile(out), intl };
    },
    freshTmp: () => mkdtemp(path.join(tmpdir(), 'outfit-intl-')),
  };
}

/** The one cache file in the folder. */
async function cacheFile(tmp: string): Promise<string> {
  const names = (await readdir(folder(tmp))).filter((f) => /^intl-[0-9a-f]{8}\.json$/.test(f));
  expect(names).toHaveLength(1);
  return path.join(folder(tmp), names[0]!);
}

describe('the Intl cache of `render`', () => {
  it('is written by the first render; the second reads it, builds no Intl formatter and draws the same frame', async () => {
    const { render, freshTmp } = await setup();
    const tmp = await freshTmp();
    const first = await render(tmp);
    // The positive sign that the preload counts: the first render asked Intl.
    expect(first.intl.filter((l) => l.startsWith('render DateTimeFormat')).length).toBeGreaterThan(0);
    const file = await cacheFile(tmp);
    expect((await stat(folder(tmp))).mode & 0o777).toBe(0o700);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const written = await readFile(file, 'utf8');
    const kept = JSON.parse(written) as CacheFile;
    expect(kept.stamp).toContain(process.version);
    expect(kept.words.map((w) => [w.tag, w.times.length, w.decimal])).toEqual([['de-DE', 1440, ',']]);
    expect(kept.words[0]!.times[7 * 60 + 5]).toBe('07:05');
    expect(kept.zones.map((z) => z.zone)).toEqual(['Europe/Berlin']);
    expect(kept.zones[0]!.changes.length).toBeGreaterThan(0);

    const second = await render(tmp);
    expect(second.intl).toEqual([]);
    expect(second.png).toEqual(first.png);
    // Nothing new to keep: the file is left as it was.
    expect(await readFile(file, 'utf8')).toBe(written);
  });

  it('is read back: a word changed in a file of the same stamp changes the frame; a file of another stamp is not read', async () => {
    const { render, freshTmp } = await setup();
    const tmp = await freshTmp();
    const first = await render(tmp);
    const file = await cacheFile(tmp);
    const kept = JSON.parse(await readFile(file, 'utf8')) as CacheFile;
    const planted: CacheFile = { ...kept, words: kept.words.map((w) => ({ ...w, times: w.times.map(() => '88:88'), decimal: ';' })) };
    await writeFile(file, JSON.stringify(planted));
    const misled = await render(tmp);
    expect(misled.intl).toEqual([]);
    expect(misled.png).not.toEqual(first.png);
    // Written for another Node or build: not read, and replaced by this one's.
    await writeFile(file, JSON.stringify({ ...planted, stamp: `another build\n${kept.stamp}` }));
    const again = await render(tmp);
    expect(again.png).toEqual(first.png);
    expect(again.intl.length).toBeGreaterThan(0);
    expect((JSON.parse(await readFile(file, 'utf8')) as CacheFile).words[0]!.times[0]).toBe('00:00');
  });

  it('a damaged or malformed file is drawn around and written afresh', async () => {
    const { render, freshTmp } = await setup();
    const tmp = await freshTmp();
    const first = await render(tmp);
    const file = await cacheFile(tmp);
    const whole = await readFile(file, 'utf8');
    await writeFile(file, whole.slice(0, whole.length / 2));
    expect((await render(tmp)).png).toEqual(first.png);
    expect(await readFile(file, 'utf8')).toBe(whole);
    // Whole JSON, but a day short of its times: refused as a whole.
    const kept = JSON.parse(whole) as CacheFile;
    await writeFile(file, JSON.stringify({ ...kept, words: kept.words.map((w) => ({ ...w, times: w.times.slice(1).map(() => '88:88') })) }));
    expect((await render(tmp)).png).toEqual(first.png);
    expect(await readFile(file, 'utf8')).toBe(whole);
  });

  it('never uses a folder that others can write', async () => {
    const { render, freshTmp } = await setup();
    const tmp = await freshTmp();
    await mkdir(folder(tmp));
    await chmod(folder(tmp), 0o777);
    const first = await render(tmp);
    expect(await readdir(folder(tmp))).toEqual([]);
    expect((await render(tmp)).intl.length).toBeGreaterThan(0);
    expect((await render(await freshTmp())).png).toEqual(first.png);
  });
});

describe('the Intl cache of the daemon’s render process', () => {
  /** One `run` until its first frame is out, then stopped; what its processes asked Intl for. */
  async function runOnce(file: string, dir: string, tmp: string, n: number): Promise<string[]> {
    const log = path.join(dir, `run-intl-${n}.log`);
    await rm(path.join(dir, 'frames'), { recursive: true, force: true });
    const child = startNodeCli(['run', '--config', file], {
      nodeArgs: ['--import', pathToFileURL(INTL_PRELOAD).href],
      env: { OUTFIT_TEST_INTL_LOG: log, TMPDIR: tmp },
    });
    const { output, exited } = watchProcess(child);
    try {
      await until('the daemon to start', () => output().includes('"msg":"daemon started"'), { context: output });
      await until('the first frame', () => stat(path.join(dir, 'frames/hallway.png')).then(() => true, () => false), { context: output });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
    return readFile(log, 'utf8').then((s) => s.trim().split('\n'), () => []);
  }

  it('is kept by the render process when the daemon lets it go, and the next one builds no Intl formatter', async () => {
    const { dir, file } = await tempConfig(`${simulatedConfig()}locale: de\n`);
    const tmp = await mkdtemp(path.join(tmpdir(), 'outfit-intl-run-'));
    const first = await runOnce(file, dir, tmp, 1);
    expect(first.filter((l) => l.startsWith('render-worker ')).length).toBeGreaterThan(0);
    const kept = JSON.parse(await readFile(await cacheFile(tmp), 'utf8')) as CacheFile;
    expect(kept.words.map((w) => w.tag)).toEqual(['de-DE']);
    const second = await runOnce(file, dir, tmp, 2);
    expect(second).toEqual([]);
  });
});

describe('the Intl cache of `once`', () => {
  it('is read from the daemon’s building on: the second `once` builds no Intl formatter', async () => {
    const { file } = await tempConfig(`${simulatedConfig()}locale: de\n`);
    const tmp = await mkdtemp(path.join(tmpdir(), 'outfit-intl-once-'));
    const once = async (n: number): Promise<string[]> => {
      const log = path.join(tmp, `once-${n}.log`);
      const res = await runCli(['once', '--config', file], {
        env: { TMPDIR: tmp, NODE_OPTIONS: `--import=${pathToFileURL(INTL_PRELOAD).href}`, OUTFIT_TEST_INTL_LOG: log },
      });
      expect(res.code).toBe(0);
      return readFile(log, 'utf8').then((s) => s.trim().split('\n'), () => []);
    };
    expect((await once(1)).length).toBeGreaterThan(0);
    expect(await once(2)).toEqual([]);
  });
});
