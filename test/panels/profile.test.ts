import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPanel, panelFile, readPanelFile } from '../../src/panels/panels.js';

/**
 * The profile loader: strict, and each refusal an E_PANEL_PROFILE that names the file and the key, so the one who
 * writes a new profile learns what to fix from the message alone.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'outfit-panels-'));

/** waveshare-7in5-v2's profile under `id`, with `change` applied, written to a temp file: its path. */
function variant(id: string, change: (p: Record<string, unknown>) => void): string {
  const p = JSON.parse(readFileSync(panelFile('waveshare-7in5-v2'), 'utf8')) as Record<string, unknown>;
  p.id = id;
  change(p);
  const file = path.join(dir, `${id}.json`);
  writeFileSync(file, JSON.stringify(p));
  return file;
}

describe('a panel profile', () => {
  it('reads a copy of a shipped profile under a new id as that profile', () => {
    const file = variant('copy', () => {});
    expect(readPanelFile(file, 'copy')).toEqual({ ...loadPanel('waveshare-7in5-v2'), id: 'copy' });
  });

  it.each([
    ['no controller', (p: Record<string, unknown>) => delete p.controller, /controller: required/],
    [
      'an unknown family',
      (p: Record<string, unknown>) => (p.controller = { family: 'it8951', pi_header: false }),
      /controller\.family: must be one of "uc8179", "ssd168x", "acep7", "spectra6", "device-firmware"/,
    ],
    [
      'a driver family without its vendor driver',
      (p: Record<string, unknown>) => (p.controller = { family: 'uc8179', pi_header: true, board: 'waveshare-hat' }),
      /controller\.vendor_driver: required for the uc8179 family/,
    ],
    [
      'the header without a board',
      (p: Record<string, unknown>) =>
        (p.controller = { family: 'uc8179', vendor_driver: 'epd7in5_V2', pi_header: true }),
      /controller\.board: required with pi_header: true/,
    ],
    [
      'a device-firmware panel on the header',
      (p: Record<string, unknown>) => (p.controller = { family: 'device-firmware', pi_header: true, board: 'inky' }),
      /controller\.pi_header: a device-firmware panel is driven by its device/,
    ],
    [
      'an unknown key',
      (p: Record<string, unknown>) => (p.controller = { family: 'device-firmware', pi_header: false, chip: 'x' }),
      /controller\.chip: unknown key/,
    ],
    [
      'an id that is not its file name',
      (p: Record<string, unknown>) => (p.id = 'other'),
      /id: says "other", the file name says/,
    ],
  ])('refuses %s, naming the file and the key', (_what, change, message) => {
    const file = variant('bad', change);
    let err: unknown;
    try {
      readPanelFile(file, 'bad');
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'E_PANEL_PROFILE' });
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toMatch(message);
  });

  it('names the available panels for an unknown id', () => {
    expect(() => loadPanel('waveshare-9in9')).toThrow(
      expect.objectContaining({
        code: 'E_PANEL_PROFILE',
        message: expect.stringMatching(
          /unknown panel "waveshare-9in9"; available panels: .*waveshare-7in5-v2/,
        ) as unknown,
      }),
    );
  });
});
