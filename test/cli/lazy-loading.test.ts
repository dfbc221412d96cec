import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, simulatedConfig, tempConfig } from '../helpers/cli.js';

/**
 * Which modules a command loads, seen by the real CLI process: a module-resolution hook (registered with
 * `module.register` through NODE_OPTIONS=--import) appends every URL it resolves to a file. A one-shot command
 * that loads the simulator, the simulated service, the broker, mqtt or the HTTP server pays for it at every start.
 */
const HEAVY: [string, RegExp][] = [
  ['the firmware simulator', /\/display\/firmware\//],
  ['the simulated service', /\/src\/service-sim\//],
  ['the embedded broker', /\/node_modules\/aedes\//],
  ['mqtt', /\/node_modules\/mqtt\//],
  ['the HTTP publisher', /\/src\/publish\/http-/],
  ['the MQTT publisher', /\/src\/publish\/mqtt-/],
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

/** Runs the CLI with the hook; the URLs it loaded. */
async function loadsOf(name: string, args: string[]): Promise<{ code: number | null; stderr: string; urls: string[] }> {
  const loads = path.join(dir, `${name}.loads`);
  await writeFile(loads, '');
  const res = await runCli(args, { env: { NODE_OPTIONS: `--import=${pathToFileURL(register).href}`, LOADS_FILE: loads } });
  return { code: res.code, stderr: res.stderr, urls: (await readFile(loads, 'utf8')).split('\n').filter(Boolean) };
}

function heavyIn(urls: string[]): string[] {
  return HEAVY.filter(([, re]) => urls.some((u) => re.test(u))).map(([what]) => what);
}

describe('each command loads only what it uses', () => {
  it.each([
    ['help', () => ['--help'], /\/src\/cli\/usage\.js$/],
    ['render', () => ['render', '--config', config, '--input', path.join(dir, 'rec.json'), '--out', path.join(dir, 'out.png')], /\/src\/render\/render-file\.js$/],
    ['plan', () => ['plan', '--config', config], /\/src\/budget\/planner\.js$/],
    ['check-config', () => ['check-config', '--config', config], /\/src\/config\/load\.js$/],
  ])('%s loads none of the simulator, the simulated service, the broker, mqtt or the HTTP server', async (name, args, own) => {
    const { code, stderr, urls } = await loadsOf(name, args());
    expect(code, stderr).toBe(0);
    // The positive sign first: the hook saw the command's own module, so an empty list is no pass.
    expect(urls.some((u) => own.test(u))).toBe(true);
    expect(heavyIn(urls)).toEqual([]);
  });

  it('once with neither an mqtt nor an http section loads neither publisher (the simulated service it does)', async () => {
    const { code, stderr, urls } = await loadsOf('once', ['once', '--config', config]);
    expect(code, stderr).toBe(0);
    expect(urls.some((u) => /\/src\/service-sim\/server\.js$/.test(u))).toBe(true);
    const publishers = [/\/src\/publish\/mqtt-publisher\.js$/, /\/src\/publish\/http-publisher\.js$/, /\/node_modules\/(mqtt|aedes)\//];
    expect(urls.filter((u) => publishers.some((re) => re.test(u)))).toEqual([]);
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
