import { chmod, mkdir, mkdtemp, readdir, stat } from 'node:fs/promises';
import module from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/** Node 22.1+ has module.enableCompileCache; Node 20 has not, and the CLI runs without it. */
const hasCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const folder = (tmp: string): string => path.join(tmp, `outfit-display-compile-cache-${process.getuid?.() ?? 0}`);

describe('the compile cache of the CLI', () => {
  it(
    hasCache ? 'fills a folder of the user’s own (0700) in TMPDIR' : 'is off on this Node, and the CLI runs the same',
    async () => {
      const tmp = await mkdtemp(path.join(tmpdir(), 'outfit-cc-'));
      const res = await runCli(['--help'], { env: { TMPDIR: tmp } });
      expect(res.code).toBe(0);
      if (!hasCache) {
        expect(await readdir(tmp)).toEqual([]);
        return;
      }
      const st = await stat(folder(tmp));
      expect(st.mode & 0o777).toBe(0o700);
      expect((await readdir(folder(tmp), { recursive: true })).length).toBeGreaterThan(0);
    },
  );

  it.runIf(hasCache)(
    'never uses a folder that others can write (another user could plant compiled code there)',
    async () => {
      const tmp = await mkdtemp(path.join(tmpdir(), 'outfit-cc-'));
      await mkdir(folder(tmp));
      await chmod(folder(tmp), 0o777);
      const res = await runCli(['--help'], { env: { TMPDIR: tmp } });
      expect(res.code).toBe(0);
      expect(await readdir(folder(tmp))).toEqual([]);
    },
  );
});
