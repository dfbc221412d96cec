import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI_MODULES, ROOT, runCli, simulatedConfig, tempConfig } from '../helpers/cli.js';

/**
 * Which modules a command loads, seen by the real CLI process: a module-resolution hook (registered with
 * `module.register` through NODE_OPTIONS=--import) appends every URL it resolves to a file. A one-shot command
 * that loads the simulator, the simulated service, the broker, mqtt or the HTTP server pays for it at every start.
 * Both forms of the program are checked: tsc's modules (dist/src/bin.js), by module path, and the bundle that
 * dist/cli.js runs (dist/app/, one chunk per lazily imported part), by what the loaded chunks define.
 */
const HEAVY: [string, RegExp][] = [
  ['the firmware simulator', /\/display\/firmware\//],
  ['the simulated service', /\/src\/service-sim\//],
  ['the embedded broker', /\/node_modules\/aedes\/|\/src\/mqtt\/broker\//],
  ['mqtt', /\/node_modules\/mqtt\//],
  ['the HTTP publisher', /\/src\/http\//],
  ['the MQTT publisher', /\/src\/mqtt\//],
  ['the panel publisher, drivers and bus libraries', /\/src\/epd\/(panel-publisher|real-bus|drivers\/(?!index\.js))|\/node_modules\/(spi-device|node-libgpiod)\//],
];

/** The same parts in the bundle: a definition each keeps (the bundle keeps names: --keepNames). */
const HEAVY_DEFINED: [string, RegExp][] = [
  ['the firmware simulator', /\bPanelSim=class\b|class PanelSim\b/],
  ['the simulated service', /function startServiceSim\(/],
  ['the embedded broker', /function startEmbeddedBroker\(/],
  ['mqtt', /class MqttClient\b|\bMqttClient=class\b/],
  ['the HTTP publisher', /\bHttpPublisher=class\b|class HttpPublisher\b/],
  ['the MQTT publisher', /\bMqttPublisher=class\b|class MqttPublisher\b/],
  ['the panel publisher, drivers and bus libraries', /\bPanelPublisher=class\b|class PanelPublisher\b|\bUc8179Driver=class\b|class Uc8179Driver\b/],
];

const REC = {
  outfit: 'A light jacket over a T-shirt, jeans and trainers.',
  reasoning: 'Mild and sunny.',
  weather: {
    temp: 18.5, feels_like: 17.9, temp_unit: '°C', humidity_pct: 52, wind_speed: 11, wind_speed_unit: 'km/h',
    wind_dir: 'SW', description: 'Sunny', rain_chance_pct: 5, uv_index: 5, is_day: true, alerts: [], source: 'test',
  },
  model: 'outfit-test',
  generated_at: '2026-05-02T08:00:00.000Z',
};

let dir = '';
let config = '';
let register = '';

beforeAll(async () => {
  ({ dir, file: config } = await tempConfig(simulatedConfig()));
  await writeFile(path.join(dir, 'rec.json'), JSON.stringify(REC));
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
      "import { register } from 'node:module';",
      `register(${JSON.stringify(pathToFileURL(hook).href)}, { data: { out: process.env.LOADS_FILE } });`,
    ].join('\n'),
  );
});

/** Runs the CLI (as shipped, or tsc's modules) with the hook; the URLs it loaded. */
async function loadsOf(name: string, args: string[], entry?: string): Promise<{ code: number | null; stderr: string; urls: string[] }> {
  const loads = path.join(dir, `${name}.loads`);
  await writeFile(loads, '');
  const res = await runCli(args, { env: { NODE_OPTIONS: `--import=${pathToFileURL(register).href}`, LOADS_FILE: loads }, entry });
  return { code: res.code, stderr: res.stderr, urls: (await readFile(loads, 'utf8')).split('\n').filter(Boolean) };
}

function heavyIn(urls: string[]): string[] {
  return HEAVY.filter(([, re]) => urls.some((u) => re.test(u))).map(([what]) => what);
}

/** The bundle's chunks among the URLs, and their text. */
async function chunksOf(urls: string[]): Promise<string[]> {
  const files = [...new Set(urls.filter((u) => u.startsWith(pathToFileURL(path.join(ROOT, 'dist/app')).href)))];
  return Promise.all(files.map((u) => readFile(fileURLToPath(u), 'utf8')));
}

const COMMANDS: [string, () => string[], RegExp, RegExp][] = [
  ['help', () => ['--help'], /\/src\/cli\/usage\.js$/, /outfit-display: what to wear today/],
  ['render', () => ['render', '--config', config, '--input', path.join(dir, 'rec.json'), '--out', path.join(dir, 'out.png')], /\/src\/render\/render-file\.js$/, /function renderRecommendationFile\(/],
  ['plan', () => ['plan', '--config', config], /\/src\/budget\/planner\.js$/, /function planConfig\(/],
  ['check-config', () => ['check-config', '--config', config], /\/src\/config\/load\.js$/, /function loadConfig\(/],
];

describe('each command loads only what it uses', () => {
  it.each(COMMANDS)('%s loads none of the simulator, the simulated service, the broker, mqtt or the HTTP server', async (name, args, own) => {
    const { code, stderr, urls } = await loadsOf(name, args(), CLI_MODULES);
    expect(code, stderr).toBe(0);
    // The positive sign first: the hook saw the command's own module, so an empty list is no pass.
    expect(urls.some((u) => own.test(u))).toBe(true);
    expect(heavyIn(urls)).toEqual([]);
  });

  it.each(COMMANDS)('%s, as shipped (the bundle), loads no chunk that defines them', async (name, args, _own, defined) => {
    const { code, stderr, urls } = await loadsOf(`${name}-bundle`, args());
    expect(code, stderr).toBe(0);
    const chunks = await chunksOf(urls);
    expect(chunks.some((text) => defined.test(text))).toBe(true);
    expect(HEAVY_DEFINED.filter(([, re]) => chunks.some((text) => re.test(text))).map(([what]) => what)).toEqual([]);
  });

  it('once with neither an mqtt nor an http section loads neither publisher (the simulated service it does)', async () => {
    const { code, stderr, urls } = await loadsOf('once', ['once', '--config', config], CLI_MODULES);
    expect(code, stderr).toBe(0);
    expect(urls.some((u) => /\/src\/service-sim\/server\.js$/.test(u))).toBe(true);
    const publishers = [/\/src\/mqtt\/mqtt-publisher\.js$/, /\/src\/http\/http-publisher\.js$/, /\/node_modules\/(mqtt|aedes|spi-device|node-libgpiod)\//, /\/src\/epd\/(panel-publisher|real-bus|drivers\/(?!index))/];
    expect(urls.filter((u) => publishers.some((re) => re.test(u)))).toEqual([]);
    const shipped = await chunksOf((await loadsOf('once-bundle', ['once', '--config', config])).urls);
    expect(shipped.some((text) => /function startServiceSim\(/.test(text))).toBe(true);
    const publisherDefs = HEAVY_DEFINED.filter(([what]) => /publisher|broker|^mqtt$/.test(what));
    expect(publisherDefs.filter(([, re]) => shipped.some((text) => re.test(text))).map(([what]) => what)).toEqual([]);
  });
});

/** A chunk's static imports of other chunks (`import"./x.js"`, `from"./x.js"`; not `import("./x.js")`), as file names. */
function staticChunkImports(text: string): string[] {
  return [...text.matchAll(/(?:\bimport|\bfrom)\s*[`'"]\.\/([^`'"]+)[`'"]/g)].map((m) => m[1]!);
}

/** The chunk and every chunk it loads statically, by name. */
async function staticChunkGraph(entry: string): Promise<Map<string, string>> {
  const dir = path.join(ROOT, 'dist/app');
  const seen = new Map<string, string>();
  const stack = [entry];
  while (stack.length > 0) {
    const name = stack.pop()!;
    if (seen.has(name)) continue;
    const text = await readFile(path.join(dir, name), 'utf8');
    seen.set(name, text);
    stack.push(...staticChunkImports(text));
  }
  return seen;
}

describe('the shipped bundle (.rolldown.config.js)', () => {
  it('bin.js loads none of the command line, the config or the drawing before Node\'s compile cache is on', async () => {
    const graph = await staticChunkGraph('bin.js');
    const texts = [...graph.values()];
    // The positive sign: the graph is the entry's, which turns the cache on and then imports the command line.
    expect(texts.some((t) => /function enableCompileCache\(/.test(t) && /import\([`'"]\.\/cli-[^`'"]+\.js[`'"]\)/.test(t))).toBe(true);
    for (const re of [/function main\(/, /function loadConfig\(/, /function renderRecommendationFile\(/, /from\s*[`'"]canvas[`'"]/]) {
      expect(texts.filter((t) => re.test(t)).length, String(re)).toBe(0);
    }
  });

  it('render loads the drawing, with canvas, from one chunk; check-config loads no chunk of it', async () => {
    const drawn = await loadsOf('render-draw', ['render', '--config', config, '--input', path.join(dir, 'rec.json'), '--out', path.join(dir, 'draw.png')]);
    expect(drawn.code, drawn.stderr).toBe(0);
    const render = await chunksOf(drawn.urls);
    const drawing = render.filter((t) => /function renderRecommendationFile\(/.test(t));
    expect(drawing).toHaveLength(1);
    expect(drawing[0]).toMatch(/from\s*[`'"]canvas[`'"]/);
    expect(drawing[0]).toMatch(/function layoutWide\(/);
    const check = await loadsOf('check-draw', ['check-config', '--config', config]);
    expect(check.code, check.stderr).toBe(0);
    const loaded = await chunksOf(check.urls);
    expect(loaded.some((t) => /function loadConfig\(/.test(t))).toBe(true);
    expect(loaded.filter((t) => /from\s*[`'"]canvas[`'"]|function layoutWide\(/.test(t))).toEqual([]);
  });
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
