import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, simulatedConfig, tempConfig } from '../helpers/cli.js';
import { ALERT } from '../fixtures/samples.js';

const displays = (dither: string): string =>
  [
    '  - id: hallway',
    '    name: Hallway',
    '    lat: 52.52',
    '    lon: 13.405',
    '    panel: trmnl-4grey',
    `    dither: ${dither}`,
    '    schedule: "*/30 * * * *"',
  ].join('\n');

describe('render uses the display’s dither', () => {
  it('draws with displays[].dither, as the daemon does, and says so in its JSON', async () => {
    const { dir, file } = await tempConfig(simulatedConfig({ displays: displays('ordered') }));
    const input = path.join(dir, 'rec.json');
    await writeFile(input, JSON.stringify(ALERT));
    const json = path.join(dir, 'out.json');
    const png = path.join(dir, 'out.png');
    for (const out of [json, png]) {
      const res = await runCli(['render', '--config', file, '--input', input, '--out', out]);
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
    }
    expect((JSON.parse(await readFile(json, 'utf8')) as { dither: string }).dither).toBe('ordered');
    expect((await readFile(png)).length).toBeGreaterThan(0);
  });
});
