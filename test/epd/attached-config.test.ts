import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../../src/config/load.js';
import { tempConfig } from '../helpers/cli.js';

/** `displays[].attached`: checked with the rest of the config, every problem named by its key path. */

const base = (displays: unknown[]) => ({
  api: { base_url: 'simulated' },
  budget: { credits_per_day: 10 },
  timezone: 'Europe/Berlin',
  displays,
});
const display = (id: string, panel: string, attached: unknown) => ({ id, lat: 52.5, lon: 13.4, panel, attached });

function problems(raw: unknown): string[] {
  const r = parseConfig(raw);
  return r.ok ? [] : r.problems;
}

describe('displays[].attached', () => {
  it('takes the board defaults: /dev/spidev0.0, 180 s apart, a full refresh daily', () => {
    const r = parseConfig(base([display('a', 'waveshare-2in9', {})]));
    expect(r.ok && r.config.displays[0]!.attached).toEqual({
      pins: {},
      spi_device: '/dev/spidev0.0',
      min_interval_s: 180,
      full_refresh_hours: 24,
    });
  });

  it('refuses a panel with no driver, a pin out of range, an unknown key, a daily refresh over 24 h', () => {
    const p = problems(
      base([
        display('a', 'trmnl', {}),
        display('b', 'waveshare-2in9', { pins: { busy: 99 }, capture: 'x.jsonl' }),
        display('c', 'waveshare-4in2', { capture: 'y.jsonl', wiring: 1, full_refresh_hours: 48 }),
      ]),
    );
    expect(p.some((m) => m.startsWith('displays[0].attached') && m.includes('no driver for the trmnl panel'))).toBe(
      true,
    );
    expect(p.some((m) => m.startsWith('displays[1].attached.pins.busy'))).toBe(true);
    expect(p.some((m) => m.startsWith('displays[2].attached') && m.includes('wiring'))).toBe(true);
    expect(p.some((m) => m.startsWith('displays[2].attached.full_refresh_hours'))).toBe(true);
  });

  it('one attached panel per SPI device (capture files aside)', () => {
    const p = problems(
      base([
        display('a', 'waveshare-2in9', {}),
        display('b', 'waveshare-4in2', { capture: 'b.jsonl' }),
        display('c', 'waveshare-4in2', {}),
      ]),
    );
    expect(p).toEqual([
      expect.stringMatching(/^displays\[2\]\.attached.*\/dev\/spidev0\.0 is already the panel of displays\[0\]/),
    ]);
  });

  it('a relative capture file is beside the config file', async () => {
    const { dir, file } = await tempConfig(
      [
        'api:',
        '  base_url: simulated',
        'budget:',
        '  credits_per_day: 10',
        'displays:',
        '  - id: a',
        '    lat: 1',
        '    lon: 1',
        '    panel: waveshare-2in9',
        '    attached:',
        '      capture: panel/a.jsonl',
        '',
      ].join('\n'),
    );
    const loaded = await loadConfig(file);
    expect(loaded.config.displays[0]!.attached?.capture).toBe(path.join(dir, 'panel', 'a.jsonl'));
  });
});

describe('displays[].attached.buttons', () => {
  const people = [
    { id: 'anna', name: 'Anna', gender: 'female' },
    { id: 'ben', name: 'Ben', gender: 'male' },
  ];
  const household = (displays: unknown[]) => ({ ...base(displays), people });
  const inky = (buttons: unknown, more: Record<string, unknown> = {}) => ({
    ...display('hall', 'inky-impression-7in3', { capture: 'x.jsonl', buttons, ...more }),
    people: ['anna'],
  });

  it('takes a refresh and a vote for one of the display people, each on the board pin or its own', () => {
    const r = parseConfig(
      household([
        inky({
          a: { action: 'refresh' },
          b: { action: 'vote', person: 'anna', vote: 'too_cold' },
          d: { action: 'vote', person: 'anna', vote: 'too_warm', pin: 23 },
        }),
      ]),
    );
    expect(r.ok ? [] : r.problems).toEqual([]);
    expect(r.ok && r.config.displays[0]!.attached?.buttons).toEqual({
      a: { action: 'refresh' },
      b: { action: 'vote', person: 'anna', vote: 'too_cold' },
      d: { action: 'vote', person: 'anna', vote: 'too_warm', pin: 23 },
    });
  });

  it("refuses a vote for someone not among the display's people, and any vote without a household", () => {
    const p = problems(household([inky({ c: { action: 'vote', person: 'ben', vote: 'too_cold' } })]));
    expect(p).toEqual([
      expect.stringMatching(
        /^displays\[0\]\.attached\.buttons\.c\.person.*"ben" is not one of display "hall"'s people/,
      ),
    ]);
    const alone = problems(
      base([
        display('hall', 'inky-impression-7in3', {
          capture: 'x.jsonl',
          buttons: { a: { action: 'vote', person: 'anna', vote: 'too_warm' } },
        }),
      ]),
    );
    expect(alone).toEqual([
      expect.stringMatching(/^displays\[0\]\.attached\.buttons\.a\.person.*display "hall" has no `people`/),
    ]);
  });

  it('a board without button pins wants each button to name its pin', () => {
    const p = problems(
      base([display('hall', 'waveshare-7in5-v2', { capture: 'x.jsonl', buttons: { b: { action: 'refresh' } } })]),
    );
    expect(p).toEqual([
      expect.stringMatching(/^displays\[0\]\.attached\.buttons\.b\.pin.*waveshare-hat board has no button b/),
    ]);
    const named = parseConfig(
      base([display('hall', 'waveshare-7in5-v2', { buttons: { b: { action: 'refresh', pin: 5 } } })]),
    );
    expect(named.ok).toBe(true);
  });

  it("refuses a button on one of the panel's pins (after overrides) or on another button's, naming both", () => {
    const p = problems(
      household([
        inky(
          {
            a: { action: 'refresh', pin: 17 },
            b: { action: 'refresh', pin: 4 },
            c: { action: 'refresh', pin: 17 },
            d: { action: 'refresh' },
          },
          { pins: { busy: 4 } },
        ),
      ]),
    );
    expect(p).toEqual([
      expect.stringMatching(
        /^displays\[0\]\.attached\.buttons\.b\.pin.*GPIO 4 is given for both the panel's busy and button b/,
      ),
      expect.stringMatching(
        /^displays\[0\]\.attached\.buttons\.c\.pin.*GPIO 17 is given for both button a and button c/,
      ),
    ]);
  });

  it('refuses an unknown button, action or key', () => {
    const p = problems(
      household([inky({ e: { action: 'refresh' }, a: { action: 'reboot' }, b: { action: 'refresh', hold: true } })]),
    );
    expect(p).toEqual([
      expect.stringMatching(/^displays\[0\]\.attached\.buttons\.a\.action: .*'refresh' \| 'vote'/),
      'displays[0].attached.buttons.b.hold: unknown key',
      'displays[0].attached.buttons.e: unknown key',
    ]);
  });
});
