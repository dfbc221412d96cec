import { defineConfig } from 'rolldown';

/**
 * `npm run build`'s bundle: tsc's output (dist/src, dist/display) to dist/app, so that a command loads only what it
 * uses, in few files (docs/performance.md). canvas stays outside: its native addon is loaded
 * from node_modules.
 */

/**
 * Node's own modules are taken with `process.getBuiltinModule`, not `import`: an `import` of a built-in module makes
 * its whole namespace, which loads every lazy part of it (`node:fs` loads fs/promises, readline, the REPL's history
 * and the file streams; `node:util` the worker threads): 30-odd of Node's own modules that a cold `render` never
 * uses. `const { a, b: c } = process.getBuiltinModule('node:x')` takes the named parts alone. tsc writes each
 * import on its own lines, so the statements are read with a pattern; one it cannot read fails the build.
 */
const BUILTIN_IMPORT = /^import\s+(?:(\w+)|\*\s+as\s+(\w+)|\{([^}]*)\})\s+from\s+'(node:[\w/]+)';$/gm;

function builtinLookups() {
  return {
    name: 'builtin-lookups',
    transform: {
      filter: { id: /[\\/]dist[\\/](?:src|display)[\\/].*\.js$/ },
      handler(code, id) {
        const out = code.replace(BUILTIN_IMPORT, (_all, whole, namespace, named, spec) => {
          const lookup = `process.getBuiltinModule(${JSON.stringify(spec)})`;
          if (whole || namespace) return `const ${whole || namespace} = ${lookup};`;
          const parts = named
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
            .map((s) => {
              const m = /^(\w+)(?:\s+as\s+(\w+))?$/.exec(s);
              if (!m) throw new Error(`${id}: cannot read "${s}" in an import of ${spec}`);
              return m[2] ? `${m[1]}: ${m[2]}` : m[1];
            });
          return `const { ${parts.join(', ')} } = ${lookup};`;
        });
        if (/^\s*(?:import|export)\b[^;]*['"]node:/m.test(out)) throw new Error(`${id}: an import of a built-in module the build cannot read`);
        return out === code ? null : { code: out, map: null };
      },
    },
  };
}

/**
 * The chunks follow the processes. Left to itself, rolldown makes a chunk of each set of lazy imports that reach a
 * module: 40 files for a `render`, most under 1 kB, and each file costs Node a resolution, a read and a
 * compiled-code lookup. So the modules each kind of process needs are grouped, from the first group down (a module
 * goes to the first group that takes it, with its imports that no group above took):
 * - boot: what bin.js imports, before Node's compile cache is on (so: little).
 * - commands: cli.js and what it imports; every command loads it.
 * - config: what reading a config takes (check-config's imports); every command with a config loads it.
 * - frame-shared: what the daemon's main process shares with drawing (answers, zones, schemas).
 * - draw: the rest of drawing a frame (the render command's imports): `render`, `once` and the daemon's render
 *   process load it. It holds canvas, which the daemon's main process never loads. It imports `config` (the render
 *   command reads a config), so the daemon's render process loads YAML too, which it does not use: its modules took
 *   33 ms to load instead of 29 (Node 24), the price of one chunk for every process that draws.
 * Everything else (the daemon, the publishers, the drivers, the simulator) rolldown splits by the lazy imports that
 * reach it.
 */
const GROUPS = [
  ['boot', (id, s) => s.boot.has(id)],
  ['commands', (id, s) => s.commands.has(id)],
  ['config', (id, s) => s.config.has(id)],
  ['frame-shared', (id, s) => s.draw.has(id) && s.daemon.has(id)],
  ['draw', (id, s) => s.draw.has(id)],
];

/** A module and what it imports statically, and theirs: what loading it loads. */
function staticClosure(info, from) {
  const seen = new Set();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop();
    if (seen.has(id)) continue;
    const m = info(id);
    if (!m) continue;
    seen.add(id);
    stack.push(...m.importedIds);
  }
  return seen;
}

/** Each kind of process's modules, read off the module graph once it is built (the groups' tests run after). */
function processModules(sets) {
  return {
    name: 'process-modules',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      const find = (suffix) => {
        const id = ids.find((i) => i.endsWith(suffix));
        if (!id) throw new Error(`the build finds no module ${suffix}`);
        return id;
      };
      const closureOf = (suffix) => staticClosure((i) => this.getModuleInfo(i), find(suffix));
      sets.boot = closureOf('/dist/src/bin.js');
      // bin.js is the entry: its own chunk.
      sets.boot.delete(find('/dist/src/bin.js'));
      sets.commands = closureOf('/dist/src/cli.js');
      sets.config = closureOf('/dist/src/cli/check-config-command.js');
      sets.draw = closureOf('/dist/src/cli/render-command.js');
      sets.daemon = closureOf('/dist/src/cli/run-command.js');
    },
  };
}

const sets = {};

export default defineConfig({
  input: 'dist/src/bin.js',
  platform: 'node',
  external: ['canvas'],
  logLevel: 'warn',
  plugins: [builtinLookups(), processModules(sets)],
  output: {
    dir: 'dist/app',
    format: 'esm',
    minify: true,
    keepNames: true,
    charset: 'ascii',
    comments: false,
    cleanDir: true,
    codeSplitting: {
      groups: GROUPS.map(([name, test], i) => ({ name, priority: GROUPS.length - i, test: (id) => test(id, sets) })),
    },
  },
});
