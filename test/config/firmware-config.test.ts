import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';

const base = {
  api: { base_url: 'https://outfit.example/v1' },
  budget: { credits_per_day: 200 },
  timezone: 'Europe/Berlin',
  displays: [{ id: 'hallway', lat: 52.52, lon: 13.405 }],
};
const device = { mac: 'AA:BB:CC:DD:EE:FF', display: 'hallway', token: 'abcdefgh' };

function problems(raw: unknown): string[] {
  const r = parseConfig(raw);
  if (r.ok) throw new Error('expected problems');
  return r.problems;
}

describe('trmnl.firmware and firmware_updates', () => {
  it('are off by default; the floor defaults to 50 %', () => {
    const off = parseConfig({ ...base, trmnl: { devices: [device] } });
    expect(off.ok && off.config.trmnl).toEqual({ devices: [expect.objectContaining({ firmware_updates: false })] });
    const on = parseConfig({
      ...base,
      trmnl: { devices: [{ ...device, firmware_updates: true }], firmware: { dir: '/srv/trmnl-firmware' } },
    });
    expect(on.ok && on.config.trmnl?.firmware).toEqual({ dir: '/srv/trmnl-firmware', battery_floor_pct: 50 });
    expect(on.ok && on.config.trmnl?.devices[0]?.firmware_updates).toBe(true);
  });

  it('name their key path when wrong', () => {
    const p = problems({
      ...base,
      trmnl: {
        devices: [{ ...device, firmware_updates: 'yes' }],
        firmware: { dir: '', battery_floor_pct: 120, checksum: true },
      },
    });
    expect(p).toHaveLength(4);
    expect(p).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^trmnl\.devices\[0\]\.firmware_updates: /),
        expect.stringMatching(/^trmnl\.firmware\.dir: /),
        expect.stringMatching(/^trmnl\.firmware\.battery_floor_pct: .*100/),
        expect.stringMatching(/^trmnl\.firmware.*checksum/),
      ]),
    );
    expect(problems({ ...base, trmnl: { devices: [], firmware: {} } })).toEqual([
      expect.stringMatching(/^trmnl\.firmware\.dir: /),
    ]);
    expect(problems({ ...base, trmnl: { devices: [], firmware: { dir: '/x', battery_floor_pct: -1 } } })).toEqual([
      expect.stringMatching(/^trmnl\.firmware\.battery_floor_pct: /),
    ]);
  });
});
