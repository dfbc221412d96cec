import { describe, expect, it } from 'vitest';
import { loadZoneTable } from '../../src/daemon/zone-table-child.js';
import { Service } from '../../src/daemon/service.js';
import { loadConfig } from '../../src/config/load.js';
import { dropZoneTable, tableOffset, type ZoneTable } from '../../src/time/zone-table.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { runCli, simulatedConfig, tempConfig } from '../helpers/cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { intlOffset } from '../helpers/intl-offset.js';

const NOW = Date.UTC(2026, 10, 27, 21);
const YEAR = 365.2425 * 86_400_000;

/** A stand-in for the child: this node running `script`, which gets the zone-table command's arguments after it. */
const childWriting = (script: string): { file: string; args: string[] } => ({ file: process.execPath, args: ['-e', script] });

describe('loadZoneTable: the zone table from a child process', () => {
  it('through the real command: five years back to fifteen ahead, each change where Intl has it', async () => {
    const intl = intlOffset('America/New_York');
    const table = await loadZoneTable({ zone: 'America/New_York', now: NOW });
    expect(table.zone).toBe('America/New_York');
    expect(Math.abs(table.from - (NOW - 5 * YEAR))).toBeLessThan(1000);
    expect(Math.abs(table.to - (NOW + 15 * YEAR))).toBeLessThan(1000);
    // Twice a year, as long as the rule lasts.
    expect(table.changes.length).toBeGreaterThanOrEqual(39);
    expect(table.offset).toBe(intl(table.from));
    for (const [at, offset] of table.changes) {
      expect(intl(at)).toBe(offset);
      expect(intl(at - 1000)).not.toBe(offset);
    }
  });

  it.each<[string, string, RegExp]>([
    ['fails', 'process.stderr.write("boom"); process.exit(3)', /Command failed[\s\S]*boom/],
    ['writes no JSON', 'console.log("offsets: many")', /wrote no JSON/],
    ['writes JSON that is no table', 'console.log(JSON.stringify({ zone: process.argv[2], from: 0 }))', /wrote no table: to .*; offset .*; changes/],
    [
      'writes changes out of order',
      'const [zone, from, to] = process.argv.slice(2).map((v, i) => (i ? Number(v) : v)); console.log(JSON.stringify({ zone, from, to, offset: 0, changes: [[to - 5, 0], [from + 5, 0]] }))',
      /changes its changes must be in time order/,
    ],
    [
      "writes another zone's table",
      'const [, from, to] = process.argv.slice(2).map(Number); console.log(JSON.stringify({ zone: "Europe/Paris", from, to, offset: 0, changes: [] }))',
      /the table of Europe\/Paris over .*, not of Europe\/Berlin/,
    ],
  ])('a child that %s: refused, with why', async (_what, script, why) => {
    await expect(loadZoneTable({ zone: 'Europe/Berlin', now: NOW, command: childWriting(script) })).rejects.toThrow(why);
  });

  it('a child that never answers is killed at the time limit', async () => {
    await expect(loadZoneTable({ zone: 'Europe/Berlin', now: NOW, command: childWriting('setInterval(() => {}, 1000)'), timeoutMs: 300 })).rejects.toThrow(/Command failed/);
  });
});

describe('the zone-table command', () => {
  it('writes one line of JSON: the table', async () => {
    const r = await runCli(['zone-table', 'Asia/Kolkata', String(NOW), String(NOW + 86_400_000)]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ zone: 'Asia/Kolkata', from: NOW, to: NOW + 86_400_000, offset: 19_800_000, changes: [] });
  });

  it.each([
    [[], /takes a zone and two instants/],
    [['Europe/Berlin', '10', '5'], /takes a zone and two instants/],
    [['Europe/Berlin', 'now', '5'], /takes a zone and two instants/],
    [['Mars/Olympus', '0', '1000'], /"Mars\/Olympus" is not a time zone Intl knows/],
  ])('%j: a usage error (exit 2)', async (args, why) => {
    const r = await runCli(['zone-table', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(why);
  });
});

describe('the service', () => {
  it('uses the table it is given, asks again on a reload, and starts without one (W_ZONE_TABLE) when it cannot be made', async () => {
    const { file } = await tempConfig(simulatedConfig());
    const loaded = await loadConfig(file);
    const { logger, text } = capturingLogger();
    const asked: Array<{ zone: string; now: number }> = [];
    let fail = false;
    // A deliberately odd table (offset 0 in Berlin): only this table could make it so.
    const table = (zone: string): ZoneTable => ({ zone, from: NOW - YEAR, to: NOW + YEAR, offset: 0, changes: [] });
    const service = new Service({
      loaded,
      logger,
      clock: new FakeClock(NOW),
      env: {},
      zoneTable: (o) => {
        asked.push({ zone: o.zone, now: o.now });
        return fail ? Promise.reject(new Error('the zone-table process wrote no JSON (0 bytes)')) : Promise.resolve(table(o.zone));
      },
    });
    try {
      await service.start();
      expect(asked).toEqual([{ zone: 'Europe/Berlin', now: NOW }]);
      expect(tableOffset(NOW, 'Europe/Berlin')).toBe(0);
      fail = true;
      dropZoneTable('Europe/Berlin');
      await service.reload();
      expect(asked).toHaveLength(2);
      expect(service.daemon).not.toBeNull();
      const warned = text().split('\n').filter((l) => l.includes('"W_ZONE_TABLE"')).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(warned).toEqual([expect.objectContaining({ level: 40, zone: 'Europe/Berlin', problem: 'the zone-table process wrote no JSON (0 bytes)' })]);
      expect(tableOffset(NOW, 'Europe/Berlin')).toBeNull();
    } finally {
      await service.stop();
      dropZoneTable('Europe/Berlin');
    }
  });
});
