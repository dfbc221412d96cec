import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { NORMAL } from '../fixtures/samples.js';

const CONFIG = `api:
  base_url: simulated
budget:
  credits_per_day: 200
timezone: Europe/Berlin
locale: de
displays:
  - id: hallway
    lat: 52.52
    lon: 13.405
  - id: kitchen
    lat: 52.52
    lon: 13.405
    locale: pt
output_dir: frames
state_dir: state
`;

describe('render and check-config with a locale', () => {
  it(
    "renders in the display's locale, a user's own one included, and warns of its missing labels",
    { timeout: 60_000 },
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'outfit-cli-locale-'));
      await writeFile(path.join(dir, 'config.yaml'), CONFIG);
      await mkdir(path.join(dir, 'locales'));
      await writeFile(path.join(dir, 'locales', 'pt.yaml'), 'tag: pt-PT\nlabels:\n  updated: "Atualizado {time}"\n');
      await writeFile(
        path.join(dir, 'rec.json'),
        JSON.stringify({ ...NORMAL, weather: { ...NORMAL.weather, uv_index: 0.4 } }),
      );
      const render = async (display: string): Promise<string[]> => {
        const out = path.join(dir, `${display}.json`);
        const r = await runCli([
          'render',
          '--config',
          path.join(dir, 'config.yaml'),
          '--input',
          path.join(dir, 'rec.json'),
          '--display',
          display,
          '--out',
          out,
        ]);
        expect(r.code, r.stderr).toBe(0);
        return (JSON.parse(await readFile(out, 'utf8')) as { texts: string[] }).texts;
      };
      const hallway = await render('hallway');
      expect(hallway).toEqual(expect.arrayContaining(['Stand 07:30', 'UV 0,4', '71 %']));
      const kitchen = await render('kitchen');
      expect(kitchen).toEqual(expect.arrayContaining(['Atualizado 07:30', 'UV 0,4']));
      const check = await runCli(['check-config', '--config', path.join(dir, 'config.yaml')]);
      expect(check.code).toBe(0);
      expect(check.stderr).toMatch(/W_LOCALE_LABELS_MISSING: .*pt\.yaml: no label for feels_like/);
      await writeFile(path.join(dir, 'config.yaml'), CONFIG.replace('locale: de', 'locale: xx'));
      const bad = await runCli(['check-config', '--config', path.join(dir, 'config.yaml')]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('locale: unknown locale "xx" (known: en, en-US, de, fr, es, it, nl, pl, sv, pt)');
    },
  );
});
