import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listPanelIds } from '../../src/panels/panels.js';
import { panelExtraFiles, panelFrames, SMALL_SIZES, smallTextFile } from './gallery-plan.js';

/**
 * The committed gallery (display/gallery/) holds what its plan lists (gallery-plan.ts) for every panel profile, and
 * nothing else: a profile added, a sample added or a file left from an old plan fails here, without drawing a frame.
 * Whether each file is what the code draws now is gallery-fresh.int.test.ts's check.
 */

const GALLERY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../display/gallery');
const RUN = 'run npm run gallery';

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(path.join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`],
  );
}

const plan = listPanelIds().map((id, index) => {
  const extra = panelExtraFiles(id);
  return { id, frames: panelFrames(id, index).map((f) => f.file), others: [...extra.stress, extra.zoom, ...extra.ink] };
});

describe('the committed gallery', () => {
  it.each(plan)(
    'has $id: its section in README.md, every frame of its plan there and linked',
    ({ id, frames, others }) => {
      const readme = readFileSync(path.join(GALLERY, 'README.md'), 'utf8');
      expect(readme, RUN).toMatch(new RegExp(`^## .+ \\(\`${id}\`, \\d+x\\d+\\)$`, 'm'));
      const missing = [...frames, ...others].filter((f) => !existsSync(path.join(GALLERY, f)));
      expect(missing, RUN).toEqual([]);
      const unlisted = [...frames, ...others].filter((f) => !readme.includes(`](${f})`));
      expect(unlisted, RUN).toEqual([]);
    },
  );

  it('holds no file its plan does not list', () => {
    const planned = new Set([
      'README.md',
      ...plan.flatMap((p) => [...p.frames, ...p.others]),
      ...SMALL_SIZES.map(smallTextFile),
    ]);
    expect(
      filesUnder(GALLERY).filter((f) => !planned.has(f)),
      RUN,
    ).toEqual([]);
  });
});
