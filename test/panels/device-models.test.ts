import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { simModel, simModelNames } from '../../display/firmware/sim-models.js';
import { deviceModel, deviceModels, deviceModelsFile, readDeviceModels } from '../../src/panels/device-models.js';
import { listPanelIds } from '../../src/panels/panels.js';
import { chooseScreen } from '../../src/trmnl/models.js';

/**
 * The device model table is data both sides read (display/panels/device-models.yaml): the daemon answers a `Model`
 * header from it and the simulator plays a model from it. Strict, each refusal an E_PANEL_PROFILE naming the key.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'outfit-models-'));

/** The shipped table with `change` applied, written to a temp file: its path. */
function variant(name: string, change: (t: { models: Record<string, unknown>[] }) => void): string {
  const t = parse(readFileSync(deviceModelsFile(), 'utf8')) as { models: Record<string, unknown>[] };
  change(t);
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, stringify(t));
  return file;
}

describe('the device model table', () => {
  it('names only shipped panel profiles, and each Model header once', () => {
    const panels = listPanelIds();
    for (const m of deviceModels()) expect(panels).toContain(m.panel);
    const names = deviceModels().flatMap((m) => [m.name, ...m.headers]);
    expect(new Set(names).size).toBe(names.length);
    expect(deviceModel(' X ')).toMatchObject({ name: 'v2', panel: 'trmnl-x', maxBytes: 750_000 });
    expect(deviceModel('no-such-board')).toBeNull();
  });

  it('the daemon and the simulator read a model the same: the panel the daemon draws is the glass the simulator shows', () => {
    for (const n of simModelNames()) {
      const m = simModel(n)!;
      const header = m.header ?? 'kindle';
      const choice = chooseScreen({ model: header });
      expect(choice.kind === 'exact' ? choice.panel.id : null, n).toBe(m.model.panel);
    }
  });

  it.each([
    [
      'an unknown panel',
      (t: { models: Record<string, unknown>[] }) => (t.models[0]!.panel = 'trmnl-9'),
      /models\[0\]\.panel: no panel profile "trmnl-9"/,
    ],
    [
      'a header that names two models',
      (t: { models: Record<string, unknown>[] }) => (t.models[1]!.headers = ['og']),
      /models\[1\]: "og" also names models\[0\]/,
    ],
    [
      'a limit that is not a whole number',
      (t: { models: Record<string, unknown>[] }) => (t.models[2]!.max_bytes = 1.5),
      /models\[2\]\.max_bytes/,
    ],
    ['an unknown key', (t: { models: Record<string, unknown>[] }) => (t.models[0]!.colour = 'red'), /colour/],
  ])('refuses %s with E_PANEL_PROFILE', (_what, change, message) => {
    const file = variant(String(_what).replaceAll(' ', '-'), change);
    let err: unknown;
    try {
      readDeviceModels(file);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'E_PANEL_PROFILE' });
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toMatch(message);
  });
});
