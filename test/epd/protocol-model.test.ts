import { describe, expect, it } from 'vitest';
import { Acep7Model } from '../../display/controllers/acep7.js';
import { PanelProtocolError, type ModelOp, type ProtocolModel } from '../../display/controllers/protocol-model.js';
import { Spectra6Model } from '../../display/controllers/spectra6.js';
import { Ssd168xModel } from '../../display/controllers/ssd168x.js';
import { Uc8179Model } from '../../display/controllers/uc8179.js';
import { loadPanel } from '../../src/panels/panels.js';
import { refusal } from './refusal.js';

/*
 * The op intake every controller model shares (display/controllers/protocol-model.ts): the same stream faults get the
 * same reason from each model, whatever its chip; a run of data bytes is held to the same rules as a command.
 */

const cmd = (c: number, data = ''): ModelOp => ({ op: 'cmd', cmd: c, data });

interface Chip {
  panelId: string;
  model: () => ProtocolModel<string>;
  /** Awake after a reset (the colour controllers: and its BUSY wait). */
  awake: ModelOp[];
  /** A command that holds BUSY. */
  busying: ModelOp;
  /** The chip's deep-sleep command. */
  sleep: ModelOp;
}

const CHIPS: Chip[] = [
  {
    panelId: 'waveshare-7in5-v2',
    model: () => new Uc8179Model({ panel: loadPanel('waveshare-7in5-v2') }),
    awake: [{ op: 'reset' }],
    busying: cmd(0x04),
    sleep: cmd(0x07, 'a5'),
  },
  {
    panelId: 'waveshare-2in13',
    model: () => new Ssd168xModel({ panel: loadPanel('waveshare-2in13') }),
    awake: [{ op: 'reset' }],
    busying: cmd(0x12),
    sleep: cmd(0x10, '01'),
  },
  {
    panelId: 'waveshare-7in3-f',
    model: () => new Acep7Model({ panel: loadPanel('waveshare-7in3-f') }),
    awake: [{ op: 'reset' }, { op: 'busy' }],
    busying: cmd(0x04),
    sleep: cmd(0x07, 'a5'),
  },
  {
    panelId: 'inky-impression-7in3',
    model: () => new Spectra6Model({ panel: loadPanel('inky-impression-7in3') }),
    awake: [{ op: 'reset' }, { op: 'busy' }],
    busying: cmd(0x04),
    sleep: cmd(0x07, 'a5'),
  },
];

describe.each(CHIPS)('$panelId controller model intake', (c) => {
  it('refuses data while BUSY, and data in deep sleep, as it refuses a command there', () => {
    expect(refusal(c.model(), [...c.awake, c.busying, { op: 'data', data: '00' }])).toBe('command-while-busy');
    expect(refusal(c.model(), [...c.awake, c.busying, cmd(0x00, '00')])).toBe('command-while-busy');
    expect(refusal(c.model(), [...c.awake, c.sleep, { op: 'data', data: '00' }])).toBe('command-after-deep-sleep');
    expect(refusal(c.model(), [...c.awake, c.sleep, cmd(0x00, '00')])).toBe('command-after-deep-sleep');
  });

  it('data with no command since the reset, and an unknown command, are refused alike; the error names the chip and the op', () => {
    expect(refusal(c.model(), [...c.awake, { op: 'data', data: '00' }])).toBe('data-before-command');
    const m = c.model();
    expect(refusal(m, [...c.awake, cmd(0x99)])).toBe('unknown-command');
    expect(() => c.model().applyAll([...c.awake, cmd(0x99)])).toThrow(
      new RegExp(` model: op ${c.awake.length}: command 0x99 .*\\(unknown-command\\)$`),
    );
    expect(() => c.model().applyAll([...c.awake, cmd(0x99)])).toThrow(PanelProtocolError);
  });

  it('a reset pulse ends BUSY and deep sleep', () => {
    const m = c.model();
    m.applyAll([...c.awake, c.busying, { op: 'reset' }]);
    expect([m.busy, m.deepSleep]).toEqual([false, false]);
    m.applyAll([...c.awake, c.sleep]);
    expect(m.deepSleep).toBe(true);
    m.applyAll([{ op: 'reset' }]);
    expect(m.deepSleep).toBe(false);
  });
});
