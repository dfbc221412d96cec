import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { loadPanel } from '../../src/panels/panels.js';
import { displayRenderOptions, renderContext } from '../../src/render/display-frame.js';

const CONFIG = `api:
  base_url: simulated
budget:
  credits_per_day: 200
timezone: Europe/Berlin
locale: de
displays:
  - id: hallway
    lat: 52.52
    lon: 13.405
    panel: waveshare-4in2
  - id: kitchen
    lat: 52.52
    lon: 13.405
    panel: trmnl
    locale: fr
output_dir: frames
state_dir: state
`;

async function load(): Promise<Awaited<ReturnType<typeof loadConfig>>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'outfit-resolved-'));
  await writeFile(path.join(dir, 'config.yaml'), CONFIG);
  return loadConfig(path.join(dir, 'config.yaml'), { env: {} });
}

describe('a display resolved once, when the config is loaded', () => {
  it('has its panel profile beside its locale', async () => {
    const loaded = await load();
    expect(loaded.panels?.get('hallway')).toBe(loadPanel('waveshare-4in2'));
    expect(loaded.panels?.get('kitchen')?.id).toBe('trmnl');
    expect(loaded.locales?.get('kitchen')?.code).toBe('fr');
  });

  it('is drawn with what the loader resolved, through the one builder of render options', async () => {
    const loaded = await load();
    const kitchen = loaded.config.displays[1]!;
    const o = displayRenderOptions(kitchen, renderContext(loaded));
    expect(o.panel).toBe(loaded.panels?.get('kitchen'));
    expect(o.locale).toBe(loaded.locales?.get('kitchen'));
    expect(o).toMatchObject({ timezone: 'Europe/Berlin', displayName: 'kitchen', rotation: 0 });
  });
});
