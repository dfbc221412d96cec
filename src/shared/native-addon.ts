import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ErrorCode } from './codes.js';
import { packageRoot } from './package-root.js';

/**
 * canvas's native addon, checked before it is first loaded. Debian's own node-gyp (its npm) links an addon against
 * Debian's shared Node library, `libnode.so.N`. Loaded into any other Node (the npm registry's Node 22, say), that
 * brings a second Node runtime into the process, and the first frame dies of a segmentation fault: no error, no
 * log line. So the addon's ELF dynamic section is read (its DT_NEEDED names, nothing else) and a `libnode.so.N`
 * that the running Node is not itself built on is refused here with E_NATIVE_ADDON and the fix.
 *
 * A Node-API addon (canvas 3 is one) serves every Node version, so this libnode link is the one mismatch that
 * crashes. An addon that is not Node-API and was built for another NODE_MODULE_VERSION is refused by Node itself
 * (ERR_DLOPEN_FAILED, naming both versions), which needs no help from us.
 */

/** The Node major of each NODE_MODULE_VERSION (Node's doc/abi_version_registry.json), for the message. */
const NODE_OF_MODULES: Readonly<Record<string, string>> = {
  '83': '14',
  '88': '15',
  '93': '16',
  '102': '17',
  '108': '18',
  '111': '19',
  '115': '20',
  '120': '21',
  '127': '22',
  '131': '23',
  '137': '24',
  '141': '25',
};

const LIBNODE = /^libnode\.so\.(\d+)$/;

class NativeAddonError extends Error {
  readonly code = 'E_NATIVE_ADDON' satisfies ErrorCode;
  constructor(
    /** The addon file that would have crashed this Node. */
    readonly addon: string,
    message: string,
  ) {
    super(message);
    this.name = 'NativeAddonError';
  }
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  return buf.subarray(0, readSync(fd, buf, 0, length, position));
}

/**
 * The DT_NEEDED names of an ELF file (32 or 64 bit, either byte order), in their order; [] for a file without a
 * dynamic section; null when the file cannot be opened or is not an ELF file this can read (a Mach-O addon on
 * macOS, a truncated file). Reads the file header, the program headers, the dynamic section and one short read per
 * name: a few hundred bytes, however large the file (node itself is about 100 MB).
 */
export function readElfNeeded(file: string): string[] | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    return neededOf(fd);
  } catch {
    return null; // a read past the end of a damaged file: nothing we can say about it
  } finally {
    closeSync(fd);
  }
}

function neededOf(fd: number): string[] | null {
  const h = readAt(fd, 0, 64);
  if (h.length < 52 || h.readUInt32BE(0) !== 0x7f454c46) return null;
  const is64 = h[4] === 2;
  const le = h[5] === 1;
  if ((!is64 && h[4] !== 1) || (!le && h[5] !== 2) || (is64 && h.length < 64)) return null;
  const u16 = (b: Buffer, o: number): number => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (b: Buffer, o: number): number => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  // An address or offset: 8 bytes in ELF64 (files and addresses this reads are far below 2^53), 4 in ELF32.
  const word = (b: Buffer, o: number): number =>
    is64 ? Number(le ? b.readBigUInt64LE(o) : b.readBigUInt64BE(o)) : u32(b, o);

  const phoff = word(h, is64 ? 0x20 : 0x1c);
  const phentsize = u16(h, is64 ? 0x36 : 0x2a);
  const phnum = u16(h, is64 ? 0x38 : 0x2c);
  if (phnum === 0 || phnum === 0xffff || phentsize < (is64 ? 56 : 32)) return null;
  const ph = readAt(fd, phoff, phnum * phentsize);
  if (ph.length < phnum * phentsize) return null;

  const loads: { vaddr: number; offset: number; filesz: number }[] = [];
  let dynamic: { offset: number; filesz: number } | undefined;
  for (let i = 0; i < phnum; i++) {
    const p = i * phentsize;
    const type = u32(ph, p);
    if (type !== 1 && type !== 2) continue; // PT_LOAD, PT_DYNAMIC
    const seg = is64
      ? { offset: word(ph, p + 8), vaddr: word(ph, p + 16), filesz: word(ph, p + 32) }
      : { offset: u32(ph, p + 4), vaddr: u32(ph, p + 8), filesz: u32(ph, p + 16) };
    if (type === 1) loads.push(seg);
    else dynamic = seg;
  }
  if (dynamic === undefined) return []; // linked statically: it needs nothing

  const entsize = is64 ? 16 : 8;
  const dyn = readAt(fd, dynamic.offset, Math.min(dynamic.filesz, 4096 * entsize));
  const neededAt: number[] = [];
  let strtab: number | undefined;
  for (let o = 0; o + entsize <= dyn.length; o += entsize) {
    const tag = word(dyn, o);
    const val = word(dyn, o + entsize / 2);
    if (tag === 0) break; // DT_NULL
    if (tag === 1)
      neededAt.push(val); // DT_NEEDED: an offset into the string table
    else if (tag === 5) strtab = val; // DT_STRTAB: the string table's address
  }
  if (neededAt.length === 0) return [];
  if (strtab === undefined) return null;
  const at = strtab;
  const load = loads.find((l) => at >= l.vaddr && at < l.vaddr + l.filesz);
  if (load === undefined) return null;
  const base = at - load.vaddr + load.offset;
  return neededAt.map((off) => {
    const s = readAt(fd, base + off, 256);
    const end = s.indexOf(0);
    return s.toString('latin1', 0, end === -1 ? s.length : end);
  });
}

export interface AddonCheckOptions {
  /** The addon file (canvas's build/Release/canvas.node). */
  addon: string;
  /** The npm package it belongs to, for the fix (`npm rebuild canvas`). */
  packageName: string;
  /** The project folder, where the fix is run. */
  projectDir: string;
  /** The running Node's executable (process.execPath): a libnode the addon needs must be this Node's own. */
  execPath: string;
  /** The running Node's version (process.version), for the message. */
  version: string;
  /** The running Node's NODE_MODULE_VERSION (process.versions.modules), for the message. */
  modules: string;
  /** The running Node's architecture (process.arch): the npm registry's node package keeps its headers per arch. */
  arch: string;
}

/** An E_NATIVE_ADDON when loading the addon would crash this Node; null when it is fine, or nothing can be said. */
export function addonMismatch(opts: AddonCheckOptions): NativeAddonError | null {
  const needed = readElfNeeded(opts.addon);
  const libnode = needed?.find((n) => LIBNODE.test(n));
  if (libnode === undefined) return null;
  // Debian's own nodejs is itself built on libnode.so.N: an addon linked to the same file shares that one copy.
  if ((readElfNeeded(opts.execPath) ?? []).includes(libnode)) return null;
  const n = LIBNODE.exec(libnode)?.[1] ?? '?';
  const builtFor =
    NODE_OF_MODULES[n] === undefined
      ? `NODE_MODULE_VERSION ${n}`
      : `Node ${NODE_OF_MODULES[n]} (NODE_MODULE_VERSION ${n})`;
  const sameAbi = n === opts.modules ? ', a separate build of the same major version' : '';
  return new NativeAddonError(
    opts.addon,
    `${opts.packageName}'s native addon ${opts.addon} was built for ${builtFor}: it links ${libnode}, the shared ` +
      `library of a system Node (Debian's nodejs, whose npm built it). This is Node ${opts.version} ` +
      `(NODE_MODULE_VERSION ${opts.modules}, ${opts.execPath}${sameAbi}), which does not use that library, and ` +
      `loading the addon would crash it. Rebuild it for this Node: ${setupAdvice(opts.projectDir)}, or in ` +
      `${opts.projectDir} \`${rebuildCommand(opts)}\` (E_NATIVE_ADDON)`,
  );
}

/** A clone has .ci/setup; an installed copy (/opt/outfit-display, from systemd/install.sh) does not. */
function setupAdvice(projectDir: string): string {
  return existsSync(path.join(projectDir, '.ci', 'setup'))
    ? `run \`bash .ci/setup\` in ${projectDir}`
    : 'run `bash .ci/setup` in the clone of outfit-display this was installed from, then install it again ' +
        '(`sudo systemd/install.sh`)';
}

/** `npm_config_nodedir=<this Node's headers> <the npm beside this Node> rebuild canvas`, as far as they are found. */
function rebuildCommand(opts: AddonCheckOptions): string {
  const headers = nodeHeadersDir(opts.execPath, opts.arch, opts.version);
  const npm = npmBeside(opts.execPath);
  return `${headers === null ? '' : `npm_config_nodedir=${headers} `}${npm ?? 'npm'} rebuild ${opts.packageName}`;
}

/**
 * Where node-gyp finds the headers of the Node at `execPath` (its `nodedir`), or null: the npm registry's node
 * package keeps them in its node-linux-<arch> package (bin/node there is the executable); a Node installed under a
 * prefix (the Node.js project's tarball, NodeSource) in <prefix>/include/node.
 */
function nodeHeadersDir(execPath: string, arch: string, version: string): string | null {
  const prefix = path.resolve(execPath, '../..');
  try {
    const pkgFile = createRequire(path.join(prefix, 'package.json')).resolve(
      `node-${process.platform}-${arch}/package.json`,
    );
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version?: unknown };
    const dir = path.dirname(pkgFile);
    if (`v${String(pkg.version)}` === version && existsSync(path.join(dir, 'include/node/common.gypi'))) return dir;
  } catch {
    // not the npm registry's node package
  }
  return existsSync(path.join(prefix, 'include/node/node_version.h')) ? prefix : null;
}

/**
 * The npm that came with the Node at `execPath`: beside it, or for the registry's node package
 * (<prefix>/lib/node_modules/node/bin/node) in <prefix>/bin, where `npm install -g npm` put the registry's npm.
 */
function npmBeside(execPath: string): string | null {
  const candidates = [path.join(path.dirname(execPath), 'npm'), path.resolve(execPath, '../../../../../bin/npm')];
  return candidates.find((f) => existsSync(f)) ?? null;
}

/** canvas's addon as this package would load it (canvas/build/Release/canvas.node), or null when not found. */
export function canvasAddon(root?: string): { addon: string; projectDir: string } | null {
  try {
    const projectDir = root ?? packageRoot();
    // Where npm puts it (found without starting Node's resolver: the check runs before every frame command), else
    // wherever Node's resolution from our package finds canvas (a hoisted install).
    const direct = path.join(projectDir, 'node_modules', 'canvas', 'build', 'Release', 'canvas.node');
    if (existsSync(direct)) return { addon: direct, projectDir };
    const main = createRequire(path.join(projectDir, 'package.json')).resolve('canvas');
    return { addon: path.join(path.dirname(main), 'build', 'Release', 'canvas.node'), projectDir };
  } catch {
    return null; // no package.json of ours, or no canvas: the check has nothing to say, and the import its own error
  }
}

/** Throws E_NATIVE_ADDON when canvas's addon would crash this Node; call it before anything imports canvas. */
export function assertCanvasFits(root?: string): void {
  const found = canvasAddon(root);
  if (found === null) return;
  const err = addonMismatch({
    ...found,
    packageName: 'canvas',
    execPath: process.execPath,
    version: process.version,
    modules: process.versions.modules,
    arch: process.arch,
  });
  if (err !== null) throw err;
}
