import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import module from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, simulatedConfig, tempConfig } from '../helpers/cli.js';
import { RENDER_INPUT } from '../fixtures/answers.js';

/**
 * Which modules and native addons a command loads, seen by the real CLI process as shipped (dist/cli.js): a
 * module-resolution hook (registered with `module.register` through NODE_OPTIONS=--import) appends every URL that
 * the process resolves to a file as an ES module, and at exit the files it loaded with `require` (the bundle's
 * CommonJS chunks and what they require: `require.cache`) and the native addons mapped into the process
 * (/proc/self/maps). A file of
 * the bundle (dist/app/) stands for the modules it holds, named by its source map: so the test reads what the
 * process loaded, whatever way the build cuts the program into files. A one-shot command that loads the simulator,
 * the simulated service, the broker, mqtt, the HTTP server or the service client's undici pays for it at every start.
 */
const HEAVY: [string, RegExp][] = [
  ['the firmware simulator', /\/display\/firmware\//],
  ['the simulated service', /\/src\/service-sim\//],
  ['the embedded broker', /\/node_modules\/aedes\/|\/src\/mqtt\/broker\//],
  ['mqtt', /\/node_modules\/mqtt\//],
  ['the HTTP publisher', /\/src\/http\//],
  ['the MQTT publisher', /\/src\/mqtt\//],
  [
    'the panel publisher, drivers and bus libraries',
    /\/src\/epd\/(panel-publisher|real-bus|drivers\/(?!index\.js))|\/node_modules\/(spi-device|node-libgpiod)\//,
  ],
  // The client takes undici's index (its public door), which brings fetch, WebSocket, the caches and the mocks along:
  // only the commands that talk to the service may pay for it.
  ['undici', /\/node_modules\/undici\//],
];

/** Drawing a frame: canvas (its JavaScript and its native addon) and our layout, drawing and text modules. */
const DRAWING = /\/node_modules\/canvas\/|\/canvas\.node$|\/src\/render\/(layout|draw|text)\//;

let dir = '';
let config = '';
let register = '';

beforeAll(async () => {
  ({ dir, file: config } = await tempConfig(simulatedConfig()));
  await writeFile(path.join(dir, 'rec.json'), JSON.stringify(RENDER_INPUT));
  const hook = path.join(dir, 'record-hook.mjs');
  await writeFile(
    hook,
    [
      "import { appendFileSync } from 'node:fs';",
      'let out;',
      'export function initialize(data) { out = data.out; }',
      'export async function resolve(specifier, context, next) {',
      '  const r = await next(specifier, context);',
      "  appendFileSync(out, r.url + '\\n');",
      '  return r;',
      '}',
    ].join('\n'),
  );
  register = path.join(dir, 'register.mjs');
  await writeFile(
    register,
    [
      "import { appendFileSync, readFileSync } from 'node:fs';",
      "import { createRequire, register } from 'node:module';",
      "import { pathToFileURL } from 'node:url';",
      `register(${JSON.stringify(pathToFileURL(hook).href)}, { data: { out: process.env.LOADS_FILE } });`,
      'const required = createRequire(import.meta.url).cache;',
      "// At its end, the files the process loaded with require, as URLs like the hook's, and the native addons in it,",
      '// as files (canvas.node is loaded with require, not resolved by the hook).',
      "process.on('exit', () => {",
      "  const files = Object.keys(required).filter((f) => !f.endsWith('.node')).map((f) => pathToFileURL(f).href);",
      "  const addons = readFileSync('/proc/self/maps', 'utf8').split('\\n').map((l) => l.split(/\\s+/)[5] ?? '').filter((f) => f.endsWith('.node'));",
      "  appendFileSync(process.env.LOADS_FILE, [...files, ...new Set(addons)].map((f) => f + '\\n').join(''));",
      '});',
    ].join('\n'),
  );
});

/** The source files a file of the bundle holds (its source map's `sources`); the file itself when it has no map. */
function sourcesOf(file: string): string[] {
  const map = `${file}.map`;
  if (!existsSync(map)) return [file];
  const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
  return sources.map((s) => path.resolve(path.dirname(file), s));
}

/**
 * Runs the CLI as shipped with the hook: the modules it loaded (source files, node_modules files, Node's own
 * `node:` modules) and the native addons mapped into it, as paths; and the bundle's files it loaded, as URLs.
 */
async function loadsOf(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stderr: string; loaded: string[]; files: string[] }> {
  const loads = path.join(dir, `${name}.loads`);
  await writeFile(loads, '');
  const res = await runCli(args, {
    env: { NODE_OPTIONS: `--import=${pathToFileURL(register).href}`, LOADS_FILE: loads, ...env },
  });
  const lines = [...new Set((await readFile(loads, 'utf8')).split('\n').filter(Boolean))];
  const files = lines.filter((l) => l.startsWith('file:'));
  const loaded = lines.flatMap((l) => (l.startsWith('file:') ? sourcesOf(fileURLToPath(l)) : [l]));
  return { code: res.code, stderr: res.stderr, loaded, files };
}

function heavyIn(loaded: string[]): string[] {
  return HEAVY.filter(([, re]) => loaded.some((u) => re.test(u))).map(([what]) => what);
}

const COMMANDS: [string, () => string[], RegExp][] = [
  ['help', () => ['--help'], /\/src\/cli\/usage\.js$/],
  [
    'render',
    () => ['render', '--config', config, '--input', path.join(dir, 'rec.json'), '--out', path.join(dir, 'out.png')],
    /\/src\/cli\/render-file\.js$/,
  ],
  ['plan', () => ['plan', '--config', config], /\/src\/budget\/planner\.js$/],
  ['check-config', () => ['check-config', '--config', config], /\/src\/config\/load\.js$/],
];

describe('each command loads only what it uses', () => {
  it.each(COMMANDS)(
    '%s loads none of the simulator, the simulated service, the broker, mqtt, the HTTP server or undici',
    async (name, args, own) => {
      const { code, stderr, loaded } = await loadsOf(name, args());
      expect(code, stderr).toBe(0);
      // The positive sign first: the hook saw the command's own module, so an empty list is no pass.
      expect(loaded.some((u) => own.test(u))).toBe(true);
      expect(heavyIn(loaded)).toEqual([]);
    },
  );

  it('render loads canvas with its native addon and the layout; check-config, plan and --help load nothing of drawing', async () => {
    const drawn = await loadsOf('render-draw', [
      'render',
      '--config',
      config,
      '--input',
      path.join(dir, 'rec.json'),
      '--out',
      path.join(dir, 'draw.png'),
    ]);
    expect(drawn.code, drawn.stderr).toBe(0);
    expect(drawn.loaded.some((f) => /\/canvas\.node$/.test(f))).toBe(true);
    expect(drawn.loaded.some((f) => /\/src\/render\/layout\/layout-wide\.js$/.test(f))).toBe(true);
    for (const [name, args] of [
      ['check-draw', ['check-config', '--config', config]],
      ['plan-draw', ['plan', '--config', config]],
      ['help-draw', ['--help']],
    ] as const) {
      const res = await loadsOf(name, [...args]);
      expect(res.code, res.stderr).toBe(0);
      expect(
        res.loaded.filter((f) => DRAWING.test(f)),
        name,
      ).toEqual([]);
    }
  });

  it('a plain render of a display with an "auto" schedule loads no planner; one with --status does', async () => {
    const auto = await tempConfig(
      simulatedConfig({
        displays: ['  - id: hallway', '    lat: 52.52', '    lon: 13.405', '    panel: waveshare-7in5-v2'].join('\n'),
      }),
    );
    const planner = (loaded: string[]) => loaded.filter((f) => /\/src\/budget\/planner\.js$/.test(f));
    const args = [
      'render',
      '--config',
      auto.file,
      '--input',
      path.join(dir, 'rec.json'),
      '--out',
      path.join(dir, 'auto.png'),
    ];
    const withStatus = await loadsOf('render-status', [...args, '--status', 'service_error']);
    expect(withStatus.code, withStatus.stderr).toBe(0);
    expect(planner(withStatus.loaded)).toHaveLength(1);
    const plain = await loadsOf('render-plain', args);
    expect(plain.code, plain.stderr).toBe(0);
    expect(planner(plain.loaded)).toEqual([]);
  });

  it('--help reads no config (neither YAML nor the schemas)', async () => {
    const { code, loaded } = await loadsOf('help-config', ['--help']);
    expect(code).toBe(0);
    expect(loaded.filter((f) => /\/node_modules\/(yaml|zod)\/|\/src\/config\//.test(f))).toEqual([]);
  });

  it('once with neither an mqtt nor an http section loads neither publisher (the simulated service it does, and undici through its index)', async () => {
    const { code, stderr, loaded } = await loadsOf('once', ['once', '--config', config]);
    expect(code, stderr).toBe(0);
    expect(loaded.some((u) => /\/src\/service-sim\/server\.js$/.test(u))).toBe(true);
    // The client through undici's index, not through files inside it.
    expect(loaded.some((u) => /\/node_modules\/undici\/index\.js$/.test(u))).toBe(true);
    const publishers = [
      /\/src\/mqtt\/mqtt-publisher\.js$/,
      /\/src\/http\/http-publisher\.js$/,
      /\/node_modules\/(mqtt|aedes|spi-device|node-libgpiod)\//,
      /\/src\/epd\/(panel-publisher|real-bus|drivers\/(?!index))/,
    ];
    expect(loaded.filter((u) => publishers.some((re) => re.test(u)))).toEqual([]);
  });
});

/** Node 22.1+ has module.enableCompileCache; Node 20 has not (compile-cache.test.ts). */
const hasCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

describe('the compile cache', () => {
  it.runIf(hasCache)(
    'a second render compiles the command line and the drawing from the cache (it is on before they load)',
    async () => {
      const tmp = await mkdtemp(path.join(tmpdir(), 'outfit-lazy-cc-'));
      const args = [
        'render',
        '--config',
        config,
        '--input',
        path.join(dir, 'rec.json'),
        '--out',
        path.join(dir, 'cc.png'),
      ];
      expect((await runCli(args, { env: { TMPDIR: tmp } })).code).toBe(0);
      // Node says which files it read from the cache (NODE_DEBUG_NATIVE=COMPILE_CACHE, on stderr).
      const second = await loadsOf('render-cc', args, { TMPDIR: tmp, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' });
      expect(second.code, second.stderr).toBe(0);
      const cached = (source: RegExp): boolean => {
        const file = second.files.find((u) => sourcesOf(fileURLToPath(u)).some((s) => source.test(s)));
        expect(file, String(source)).toBeDefined();
        // Node names a CommonJS file (the bundle's chunks) by its path: "cache for <path> was accepted".
        return second.stderr.split('\n').some((l) => l.includes(`${fileURLToPath(file!)} was accepted`));
      };
      expect(cached(/\/src\/cli\.js$/)).toBe(true);
      expect(cached(/\/src\/render\/layout\/layout-wide\.js$/)).toBe(true);
    },
  );
});

describe('flags are checked per command', () => {
  it.each([
    ['once', '--web'],
    ['render', '--port', '8080'],
    ['check-config', '--display', 'hallway'],
    ['plan', '--bogus'],
  ])('%s %s is a usage error (exit 2) naming the flag and the command', async (command, flag, ...rest) => {
    const res = await runCli([command, '--config', config, flag, ...rest]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${command} does not take ${flag}`);
    expect(res.stdout).toBe('');
  });

  it('service-sim takes no --config: refused before any server starts', async () => {
    const res = await runCli(['service-sim', '--port', '0', '--config', config]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('service-sim does not take --config');
    expect(res.stdout).toBe('');
  });

  it('a flag the command takes still works, and --help after a command prints the usage with exit 0', async () => {
    expect((await runCli(['check-config', '-c', config])).code).toBe(0);
    const help = await runCli(['render', '--help']);
    expect(help.code).toBe(0);
    expect(help.stderr).toContain('Usage:');
  });
});
