import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FrameJson } from '../../src/render/frame-json.js';
import { loadPanel } from '../../src/panels/panels.js';
import { renderRecommendationFile } from '../../src/cli/render-file.js';
import { decodePng } from '../render/decode.js';
import { ANNA, BEN, householdFile } from '../fixtures/household-samples.js';

/** `render --input` with a household file (render-household.ts): everyone on one frame, or a clear error by path. */

const dir = mkdtempSync(join(tmpdir(), 'render-household-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const args = { displayName: 'Hallway', timezone: 'Europe/Berlin', rotation: 0 as const };

function write(name: string, data: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data));
  return file;
}

describe('render --input with a household file', () => {
  it('draws everyone, their additions worked out from their offsets, and lists them in the JSON', async () => {
    const input = write('household.json', householdFile());
    const out = join(dir, 'h.json');
    await renderRecommendationFile({ ...args, inputPath: input, outPath: out, panel: loadPanel('waveshare-7in5-v2') });
    const j = JSON.parse(readFileSync(out, 'utf8')) as FrameJson;
    expect(j.people.map((p) => [p.id, p.name, p.offset_c, p.additions])).toEqual([
      ['anna', 'Anna', -3, ['scarf', 'warm-hat']],
      ['ben', 'Ben', 0, []],
      ['carla', 'Carla', 1, []],
      ['dani', 'Dani', -2, ['scarf', 'warm-hat']],
    ]);
    for (const p of j.people) {
      expect(Object.keys(p)).toEqual(
        expect.arrayContaining(['id', 'name', 'garments', 'pictograms', 'additions', 'offset_c', 'away', 'outfit']),
      );
      expect(p.away).toBe(false);
      expect(p.garments.length).toBeGreaterThan(0);
    }
    expect(j.texts).toEqual(expect.arrayContaining(['+ for Anna', '+ for Dani', 'Hallway']));
    const png = join(dir, 'h.png');
    await renderRecommendationFile({ ...args, inputPath: input, outPath: png, panel: loadPanel('waveshare-7in5-v2') });
    expect(decodePng(readFileSync(png)).width).toBe(800);
  });

  it('takes an offset left out as 0, and a stored fetched_at as the answer’s time', async () => {
    const { offset_c: _o, ...anna } = ANNA;
    const input = write('no-offset.json', {
      people: [{ ...anna, recommendation: { ...ANNA.recommendation, fetched_at: '2026-01-31T06:00:00.000Z' } }, BEN],
    });
    const out = join(dir, 'no-offset.json.out.json');
    await renderRecommendationFile({ ...args, inputPath: input, outPath: out, panel: loadPanel('trmnl') });
    const j = JSON.parse(readFileSync(out, 'utf8')) as FrameJson;
    expect(j.people[0]).toMatchObject({ id: 'anna', offset_c: 0, additions: [] });
  });

  it('names the file and each problem’s path in a bad household file (a failed job, as a bad Recommendation)', async () => {
    const panel = loadPanel('trmnl');
    const run = (name: string, data: unknown) =>
      renderRecommendationFile({ ...args, inputPath: write(name, data), outPath: join(dir, 'x.png'), panel });
    const badOutfit = householdFile([ANNA, { ...BEN, recommendation: { ...BEN.recommendation, outfit: 42 as never } }]);
    await expect(run('bad-outfit.json', badOutfit)).rejects.toThrow(
      /bad-outfit\.json is not a valid household file: people\[1\]\.recommendation\.outfit: /,
    );
    await expect(run('bad-id.json', { people: [{ ...ANNA, id: 'Anna R' }] })).rejects.toThrow(/people\[0\]\.id: /);
    await expect(run('bad-offset.json', { people: [{ ...ANNA, offset_c: 40 }] })).rejects.toThrow(
      /people\[0\]\.offset_c: /,
    );
    await expect(run('no-name.json', { people: [{ ...ANNA, name: undefined }] })).rejects.toThrow(
      /people\[0\]\.name: required/,
    );
    await expect(run('empty.json', { people: [] })).rejects.toThrow(/people: must name at least one person/);
    await expect(run('twice.json', { people: [ANNA, ANNA] })).rejects.toThrow(/people\[1\]\.id: "anna" is used twice/);
    // A Recommendation file stays one: its errors are as before.
    await expect(run('rec.json', { outfit: 3 })).rejects.toThrow(/rec\.json is not a valid Recommendation/);
  });
});
