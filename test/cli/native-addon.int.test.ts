import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addonMismatch,
  assertCanvasFits,
  canvasAddon,
  readElfNeeded,
  type AddonCheckOptions,
} from '../../src/shared/native-addon.js';
import { ROOT, runCli } from '../helpers/cli.js';

/**
 * Real ELF files, made by gcc and ld here (not by the code under test): a stand-in for Debian's libnode.so.108 and
 * libnode.so.115, an addon linked to each as Debian's node-gyp links canvas, one linked to nothing of Node's, a
 * 32-bit one, and an executable built on libnode.so.115 as Debian's own /usr/bin/node is.
 */
let dir: string;
const made: string[] = [];
const f = (name: string): string => path.join(dir, name);

function gcc(...args: string[]): void {
  execFileSync('gcc', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** What binutils' readelf says the file needs: the reference the reader is held to. */
function readelfNeeded(file: string): string[] {
  const out = execFileSync('readelf', ['-d', '--wide', file], { encoding: 'utf8' });
  return [...out.matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g)].map((m) => m[1] ?? '');
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'outfit-native-addon-'));
  made.push(dir);
  writeFileSync(f('lib.c'), 'int fake_node_symbol(void) { return 1; }\n');
  writeFileSync(f('addon.c'), 'int addon_init(void) { return 2; }\n');
  writeFileSync(f('main.c'), 'int main(void) { return 0; }\n');
  for (const n of ['108', '115']) {
    gcc('-shared', '-fPIC', `-Wl,-soname,libnode.so.${n}`, '-o', `libnode.so.${n}`, 'lib.c');
    gcc('-shared', '-fPIC', '-o', `addon-${n}.node`, 'addon.c', '-Wl,--no-as-needed', '-L.', `-l:libnode.so.${n}`);
  }
  gcc('-shared', '-fPIC', '-o', 'plain.node', 'addon.c');
  gcc('-o', 'debian-node', 'main.c', '-Wl,--no-as-needed', '-L.', '-l:libnode.so.115');
  // 32-bit: no 32-bit C library here, so nothing of it is linked in (-nostdlib); the ELF is a real ELF32 all the same.
  gcc('-m32', '-shared', '-fPIC', '-nostdlib', '-Wl,-soname,libnode.so.108', '-o', 'libnode32.so.108', 'lib.c');
  gcc(
    '-m32',
    '-shared',
    '-fPIC',
    '-nostdlib',
    '-o',
    'addon32.node',
    'addon.c',
    '-Wl,--no-as-needed',
    '-L.',
    '-l:libnode32.so.108',
  );
  writeFileSync(f('not-elf.node'), '#!/bin/sh\necho this is not an ELF file\n');
}, 60_000);

afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function options(addon: string, over: Partial<AddonCheckOptions> = {}): AddonCheckOptions {
  return {
    addon,
    packageName: 'canvas',
    projectDir: '/srv/outfit-display',
    execPath: process.execPath,
    version: 'v22.23.3',
    modules: '127',
    arch: process.arch,
    ...over,
  };
}

describe('reading DT_NEEDED from an ELF file', () => {
  it('names what readelf names, in order, for addons, executables and libraries, 64 and 32 bit', () => {
    const files = [
      f('addon-108.node'),
      f('plain.node'),
      f('debian-node'),
      f('addon32.node'),
      process.execPath,
      '/bin/ls',
    ];
    const canvas = canvasAddon(ROOT);
    if (canvas !== null && existsSync(canvas.addon)) files.push(canvas.addon);
    for (const file of files) expect(readElfNeeded(file), file).toEqual(readelfNeeded(file));
    expect(readElfNeeded(f('addon-108.node'))).toContain('libnode.so.108');
    expect(readElfNeeded(f('addon32.node'))).toEqual(['libnode.so.108']);
  });

  it('is null for what is not an ELF file (a script, a missing file) and [] for one that needs nothing', () => {
    expect(readElfNeeded(f('not-elf.node'))).toBeNull();
    expect(readElfNeeded(f('missing.node'))).toBeNull();
    gcc('-shared', '-fPIC', '-nostdlib', '-o', 'alone.node', 'addon.c');
    expect(readElfNeeded(f('alone.node'))).toEqual([]);
  });
});

describe('an addon built for another Node (E_NATIVE_ADDON)', () => {
  it('refuses an addon linked to libnode.so.108 in a Node that is not built on it, naming both Nodes and the fix', () => {
    const err = addonMismatch(options(f('addon-108.node')));
    expect(err?.code).toBe('E_NATIVE_ADDON');
    expect(err?.addon).toBe(f('addon-108.node'));
    expect(err?.message).toContain('Node 18 (NODE_MODULE_VERSION 108)');
    expect(err?.message).toContain('Node v22.23.3 (NODE_MODULE_VERSION 127');
    expect(err?.message).toContain('bash .ci/setup');
    expect(err?.message).toContain('rebuild canvas');
    expect(addonMismatch(options(f('addon32.node')))?.code).toBe('E_NATIVE_ADDON');
    // In a clone, the set-up to run again is the clone's own.
    expect(addonMismatch(options(f('addon-108.node'), { projectDir: ROOT }))?.message).toContain(
      `run \`bash .ci/setup\` in ${ROOT},`,
    );
  });

  it('refuses libnode.so.115 in a separate Node 20 build too (same NODE_MODULE_VERSION, another runtime)', () => {
    expect(addonMismatch(options(f('addon-115.node'), { version: 'v20.20.2', modules: '115' }))?.code).toBe(
      'E_NATIVE_ADDON',
    );
  });

  it('accepts an addon linked to the libnode its own Node is built on (Debian\u2019s nodejs running Debian\u2019s build)', () => {
    expect(readElfNeeded(f('debian-node'))).toContain('libnode.so.115');
    expect(
      addonMismatch(options(f('addon-115.node'), { execPath: f('debian-node'), version: 'v20.19.2', modules: '115' })),
    ).toBeNull();
  });

  it('accepts an addon that links nothing of Node\u2019s, a file it cannot read, and the canvas installed here', () => {
    expect(addonMismatch(options(f('plain.node')))).toBeNull();
    expect(addonMismatch(options(f('not-elf.node')))).toBeNull();
    expect(addonMismatch(options(f('missing.node')))).toBeNull();
    expect(() => assertCanvasFits(ROOT)).not.toThrow();
  });
});

describe('the CLI with an addon built for another Node', () => {
  /** A copy of the built program whose node_modules/canvas holds the 108 addon (and nothing else of canvas). */
  function brokenInstall(): string {
    const pkg = mkdtempSync(path.join(tmpdir(), 'outfit-native-addon-pkg-'));
    made.push(pkg);
    cpSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
    cpSync(path.join(ROOT, 'dist', 'cli.js'), path.join(pkg, 'dist', 'cli.js'));
    cpSync(path.join(ROOT, 'dist', 'app'), path.join(pkg, 'dist', 'app'), { recursive: true });
    symlinkSync(path.join(ROOT, 'display'), path.join(pkg, 'display'));
    const canvas = path.join(pkg, 'node_modules', 'canvas');
    mkdirSync(path.join(canvas, 'build', 'Release'), { recursive: true });
    cpSync(path.join(ROOT, 'node_modules', 'canvas', 'package.json'), path.join(canvas, 'package.json'));
    // As canvas's own index loads it (lib/bindings.js): the old code got this far and died in dlopen.
    writeFileSync(path.join(canvas, 'index.js'), "module.exports = require('./build/Release/canvas.node');\n");
    cpSync(f('addon-108.node'), path.join(canvas, 'build', 'Release', 'canvas.node'));
    writeFileSync(path.join(pkg, 'config.yaml'), readFileSync(path.join(ROOT, 'config', 'demo.yaml')));
    writeFileSync(path.join(pkg, 'rec.json'), '{}');
    return pkg;
  }

  it('render and once stop with exit 1 and one line naming E_NATIVE_ADDON, no stack; check-config still runs', async () => {
    const pkg = brokenInstall();
    const cli = path.join(pkg, 'dist', 'cli.js');
    const out = path.join(pkg, 'x.png');
    for (const args of [
      ['render', '--config', 'config.yaml', '--input', 'rec.json', '--out', out],
      ['once', '--config', 'config.yaml'],
    ]) {
      const res = await runCli(args, { entry: cli, cwd: pkg });
      expect(res.code, res.stderr).toBe(1);
      expect(res.stderr).toMatch(/^error: canvas's native addon \S+canvas\.node was built for Node 18 /);
      expect(res.stderr).toContain('(E_NATIVE_ADDON)\n');
      expect(res.stderr).not.toMatch(/\n\s+at /);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(existsSync(out)).toBe(false);
    // A command that draws nothing does not load canvas, so it is not stopped.
    const check = await runCli(['check-config', '--config', 'config.yaml'], { entry: cli, cwd: pkg });
    expect(check.code, check.stderr).toBe(0);
  });
});
