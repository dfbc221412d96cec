import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runAddonEntry } from '../../src/config/addon-entry.js';

/** The add-on's entry run in this process, for addon-entry.test.ts and addon-entry.int.test.ts. */

export const KEY = 'sk_live_addontestkey_0123456789';

export const form = {
  api_key: KEY,
  api_base_url: 'https://api.example.com/v1',
  credits_per_month: 3000,
  displays: [{ id: 'hallway', name: 'Hallway', lat: 52.52, lon: 13.405, panel: 'waveshare-7in5-v2', schedule: 'auto' }],
};

export interface Run {
  code: number;
  out: string[];
  err: string[];
  dir: string;
  file: (name: string) => string;
}

/** The entry with every path inside a temp folder (the add-on's /data and /config), and an empty environment. */
export async function entry(options: unknown, userYaml?: string, raw?: string): Promise<Run> {
  const dir = await mkdtemp(path.join(tmpdir(), 'outfit-addon-'));
  const file = (name: string): string => path.join(dir, name);
  await writeFile(file('options.json'), raw ?? JSON.stringify(options));
  if (userYaml !== undefined) await writeFile(file('outfit-display.yaml'), userYaml);
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAddonEntry(
    [
      '--options',
      file('options.json'),
      '--user-config',
      file('outfit-display.yaml'),
      '--out',
      file('config.yaml'),
      '--key-file',
      file('api-key'),
      '--output-dir',
      file('frames'),
      '--state-dir',
      file('state'),
    ],
    { out: (l) => out.push(l), err: (l) => err.push(l), env: {} },
  );
  return { code, out, err, dir, file };
}

export /** The messages of the entry's JSON lines. */
function codes(lines: string[]): string[] {
  return lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
}
