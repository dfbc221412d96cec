import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configYaml } from '../helpers/config-yaml.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { RENDER_INPUT } from '../fixtures/answers.js';

/**
 * A panel profile no code was written for: waveshare-7in5-v2's profile copied under a new id. It goes into a copy of
 * the built package (package.json, dist/, display/panels/ with the shipped profiles and the new one; node_modules
 * linked), which finds its profiles as an installed package does, from its own folder: this repository's
 * display/panels/ is left alone. With nothing but the file added, the panel renders (`render`), is driven
 * (`panel show --capture`), is simulated (`simulate --via panel`, the controller model's glass) and is in the
 * gallery, each giving what the original panel gives.
 */

const ID = 'waveshare-7in5-v2-copy';
/** A copy that names a vendor driver the UC8179 driver does not follow. */
const UNKNOWN_VENDOR = 'waveshare-7in5-v9';

let pkg: string;
let work: string;
let entry: string;
let config: string;

function pixels(file: string): { width: number; height: number; grey: number[] } {
  const png = PNG.sync.read(readFileSync(file));
  const grey: number[] = [];
  for (let i = 0; i < png.data.length; i += 4) grey.push(png.data[i]!);
  return { width: png.width, height: png.height, grey };
}

beforeAll(() => {
  // Its real path: the package finds its folder from its modules' real paths.
  pkg = realpathSync(mkdtempSync(path.join(tmpdir(), 'outfit-held-out-')));
  cpSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
  cpSync(path.join(ROOT, 'dist'), path.join(pkg, 'dist'), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(pkg, 'node_modules'));
  const panels = path.join(pkg, 'display', 'panels');
  mkdirSync(panels, { recursive: true });
  for (const f of readdirSync(path.join(ROOT, 'display', 'panels')))
    cpSync(path.join(ROOT, 'display', 'panels', f), path.join(panels, f));
  const profile = JSON.parse(readFileSync(path.join(panels, 'waveshare-7in5-v2.json'), 'utf8')) as {
    id: string;
    name: string;
  };
  writeFileSync(
    path.join(panels, `${ID}.json`),
    JSON.stringify({ ...profile, id: ID, name: `${profile.name}, a copy` }, null, 2),
  );
  const controller = (profile as unknown as { controller: Record<string, unknown> }).controller;
  writeFileSync(
    path.join(panels, `${UNKNOWN_VENDOR}.json`),
    JSON.stringify(
      { ...profile, id: UNKNOWN_VENDOR, controller: { ...controller, vendor_driver: 'epd7in5_V9' } },
      null,
      2,
    ),
  );
  entry = path.join(pkg, 'dist', 'cli.js');

  work = mkdtempSync(path.join(tmpdir(), 'outfit-held-out-work-'));
  writeFileSync(path.join(work, 'rec.json'), JSON.stringify(RENDER_INPUT));
  config = path.join(work, 'config.yaml');
  writeFileSync(
    config,
    configYaml({
      displays: [
        {
          id: 'copy',
          name: 'Hallway',
          panel: ID,
          more: ['attached:', `  capture: ${path.join(work, 'capture.jsonl')}`],
        },
        { id: 'original', name: 'Hallway', panel: 'waveshare-7in5-v2' },
      ],
      outputDir: path.join(work, 'frames'),
      stateDir: path.join(work, 'state'),
    }),
  );
});

// The package's copy holds all of dist/: not left behind in the temp folder.
afterAll(() => {
  for (const dir of [pkg, work]) rmSync(dir, { recursive: true, force: true });
});

describe(`a held-out profile (${ID}), no code changed`, () => {
  it(
    'renders as the panel it copies, is driven on the header, and the simulated controller shows that frame',
    { timeout: 120_000 },
    async () => {
      const render = async (display: string): Promise<string> => {
        const out = path.join(work, `${display}.png`);
        const res = await runCli(
          ['render', '--config', config, '--display', display, '--input', path.join(work, 'rec.json'), '--out', out],
          { entry, timeoutMs: 60_000 },
        );
        expect(res.stderr).toBe('');
        expect(res.code).toBe(0);
        return out;
      };
      const copy = pixels(await render('copy'));
      const original = pixels(await render('original'));
      expect([copy.width, copy.height]).toEqual([800, 480]);
      expect(copy.grey).toEqual(original.grey);

      const info = await runCli(['panel', 'info', '--config', config, '--display', 'copy'], {
        entry,
        timeoutMs: 60_000,
      });
      expect(info.code).toBe(0);
      expect(info.stdout).toMatch(/controller: UC8179, BUSY low while busy, stream of .*epd7in5_V2\.py/);

      const shown = await runCli(
        ['panel', 'show', '--config', config, '--display', 'copy', path.join(work, 'copy.png')],
        { entry, timeoutMs: 60_000 },
      );
      expect(shown.stderr).toBe('');
      expect(shown.stdout).toBe(`${ID}: frame shown, panel asleep\n`);

      const sim = path.join(work, 'sim');
      const simulated = await runCli(
        [
          'simulate',
          '--config',
          config,
          '--display',
          'copy',
          '--via',
          'panel',
          '--wakes',
          '1',
          '--interval',
          '1',
          '--speed',
          '1000',
          '--out',
          sim,
        ],
        { entry, timeoutMs: 60_000 },
      );
      expect(simulated.code, simulated.stderr).toBe(0);
      const glass = pixels(path.join(sim, 'glass.png'));
      expect([glass.width, glass.height]).toEqual([800, 480]);
      expect(glass.grey).toEqual(copy.grey);
    },
  );

  it(
    'a copy naming a vendor driver the family does not follow is refused when driven, naming its file and the key',
    { timeout: 60_000 },
    async () => {
      const frame = path.join(work, 'frame-for-v9.png');
      const res = await runCli(
        ['render', '--config', config, '--display', 'original', '--input', path.join(work, 'rec.json'), '--out', frame],
        { entry, timeoutMs: 50_000 },
      );
      expect(res.code).toBe(0);
      const shown = await runCli(
        ['panel', 'show', '--panel', UNKNOWN_VENDOR, '--capture', path.join(work, 'v9.jsonl'), frame],
        { entry, timeoutMs: 50_000 },
      );
      expect(shown.code).toBe(1);
      expect(shown.stderr).toContain(
        `E_PANEL_BUS: ${path.join(pkg, 'display', 'panels', `${UNKNOWN_VENDOR}.json`)}: controller.vendor_driver: the UC8179 driver follows epd7in5_V2, epd7in5b_V2, not "epd7in5_V9"`,
      );
    },
  );

  it(
    'is in the gallery: in the list its script draws, and drawn there with its own section',
    { timeout: 120_000 },
    async () => {
      const gallery = path.join(work, 'gallery');
      const script = [
        `const g = await import(${JSON.stringify(path.join(pkg, 'dist', 'test', 'gallery', 'gallery.js'))});`,
        `const entries = await g.writeGallery(${JSON.stringify(gallery)}, [${JSON.stringify(ID)}]);`,
        'process.stdout.write(JSON.stringify({ panels: g.galleryPanels(), files: entries.map((e) => e.file) }));',
      ].join('\n');
      const file = path.join(work, 'gallery.mjs');
      writeFileSync(file, script);
      // The gallery's own module from the copied package, run by node as the CLI is.
      const res = await runCli([], { entry: file, cwd: pkg, timeoutMs: 110_000 });
      expect(res.code, res.stderr).toBe(0);
      const out = JSON.parse(res.stdout) as { panels: string[]; files: string[] };
      expect(out.panels).toContain(ID);
      expect(out.panels).toContain('waveshare-7in5-v2');
      expect(out.files).toContain(`${ID}-normal.png`);
      expect(readFileSync(path.join(gallery, 'README.md'), 'utf8')).toContain(`(\`${ID}\`, 800x480)`);
    },
  );
});
