import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareVersions } from '../../src/trmnl/firmware-files.js';
import { FIRMWARE_RETRY_MS, FirmwareOffers, type DeviceWake } from '../../src/trmnl/firmware-offers.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { manualClock } from '../helpers/fake-clock.js';

const MAC = 'AA:BB:CC:DD:EE:01';
const OTHER = 'AA:BB:CC:DD:EE:02';

async function setup(files: Record<string, string> = { '1.7.3.bin': 'new firmware' }) {
  const root = await mkdtemp(path.join(tmpdir(), 'outfit-fw-'));
  const dir = path.join(root, 'firmware');
  await mkdir(dir);
  for (const [name, body] of Object.entries(files)) await writeFile(path.join(dir, name), body);
  const clock = manualClock();
  const cap = capturingLogger();
  const stateFile = path.join(root, 'firmware-offers.json');
  const make = () =>
    new FirmwareOffers({
      dir,
      batteryFloorPct: 50,
      allowed: [MAC.toLowerCase()],
      stateFile,
      clock,
      logger: cap.logger,
    });
  return { dir, clock, logs: cap.text, stateFile, make, offers: make() };
}

const wake = (over: Partial<DeviceWake> = {}): DeviceWake => ({
  mac: MAC,
  fwVersion: '1.6.2',
  batteryPct: 80,
  charging: false,
  ...over,
});

describe('compareVersions', () => {
  it('orders parts by their number, a longer version after its start, a suffix before its plain number', () => {
    const sorted = ['1.10.0', '1.7.3', '1.7', '1.7.10', '2.0.0', '1.7.3-rc1', '0.9', 'beta.1'].sort(compareVersions);
    expect(sorted).toEqual(['beta.1', '0.9', '1.7', '1.7.3-rc1', '1.7.3', '1.7.10', '1.10.0', '2.0.0']);
    expect(compareVersions('1.7.3', '1.7.3')).toBe(0);
  });
});

describe('FirmwareOffers.decide', () => {
  it('offers the newest well-named file to an allowed device on another version, and to no other device', async () => {
    const { offers, dir, logs } = await setup({
      '1.7.3.bin': 'a',
      '1.10.0.bin': 'b',
      '1.6.9.bin': 'c',
      'bad name!.bin': 'd',
      'notes.txt': 'e',
    });
    expect(await offers.decide(wake())).toEqual({ offer: { version: '1.10.0', path: path.join(dir, '1.10.0.bin') } });
    expect(await offers.decide(wake({ mac: OTHER }))).toEqual({
      offer: null,
      why: 'not allowed (firmware_updates is off)',
    });
    expect(logs()).toContain('W_FIRMWARE_FILE');
    expect(logs()).toContain('bad name!.bin');
  });

  it('needs charging or a charge at the floor; an unknown charge is no offer', async () => {
    const { offers } = await setup();
    expect(await offers.decide(wake({ batteryPct: 49 }))).toEqual({ offer: null, why: 'battery 49 % under 50 %' });
    expect(await offers.decide(wake({ batteryPct: null, charging: null }))).toEqual({
      offer: null,
      why: 'battery unknown',
    });
    expect((await offers.decide(wake({ batteryPct: 10, charging: true }))).offer?.version).toBe('1.7.3');
  });

  it('the same version, no file, no version header: no offer', async () => {
    const { offers } = await setup();
    expect(await offers.decide(wake({ fwVersion: '1.7.3' }))).toEqual({
      offer: null,
      why: 'already on the newest firmware',
    });
    expect(await offers.decide(wake({ fwVersion: null }))).toEqual({ offer: null, why: 'firmware version unknown' });
    const empty = await setup({});
    expect(await empty.offers.decide(wake())).toEqual({ offer: null, why: 'no firmware file' });
  });

  it('an offer seen taken is recorded as succeeded', async () => {
    const { offers, make, stateFile } = await setup();
    expect((await offers.decide(wake())).offer?.version).toBe('1.7.3');
    expect((await offers.rows())[0]).toMatchObject({ mac: MAC, version: '1.7.3', outcome: 'offered', failures: 0 });
    // A restart between the offer and the next wake: the file carries the offer.
    const after = make();
    expect((await after.decide(wake({ fwVersion: '1.7.3' }))).offer).toBeNull();
    expect(await after.rows()).toEqual([
      expect.objectContaining({ mac: MAC, version: '1.7.3', outcome: 'succeeded', failures: 0 }),
    ]);
    await after.flush();
    expect(JSON.parse(await readFile(stateFile, 'utf8'))).toMatchObject({
      version: 1,
      devices: [{ mac: MAC, version: '1.7.3', outcome: 'succeeded' }],
    });
  });

  it('a device back on its old version failed: not offered at that wake, nor until the firmware retries 24 h later', async () => {
    const { offers, clock, logs } = await setup();
    expect((await offers.decide(wake())).offer?.version).toBe('1.7.3');
    clock.advance(15 * 60_000);
    expect(await offers.decide(wake())).toEqual({ offer: null, why: 'the update to 1.7.3 failed' });
    expect(logs()).toContain('W_FIRMWARE_UPDATE_FAILED');
    clock.advance(15 * 60_000);
    expect((await offers.decide(wake())).offer).toBeNull();
    clock.advance(FIRMWARE_RETRY_MS);
    expect((await offers.decide(wake())).offer?.version).toBe('1.7.3');
    expect((await offers.rows())[0]).toMatchObject({ outcome: 'offered', failures: 1 });
    clock.advance(15 * 60_000);
    expect((await offers.decide(wake({ fwVersion: '1.7.3' }))).offer).toBeNull();
    expect((await offers.rows())[0]).toMatchObject({ outcome: 'succeeded', failures: 1 });
  });

  it('judges an offer once when a device sends two requests at once', async () => {
    const { offers, clock } = await setup();
    expect((await offers.decide(wake())).offer?.version).toBe('1.7.3');
    clock.advance(60_000);
    const both = await Promise.all([offers.decide(wake()), offers.decide(wake())]);
    expect(both.map((b) => b.offer)).toEqual([null, null]);
    expect((await offers.rows())[0]).toMatchObject({ outcome: 'failed', failures: 1 });
  });

  it('a state file that is not JSON is said and left behind', async () => {
    const { make, stateFile, logs } = await setup();
    await writeFile(stateFile, '{ not json');
    expect((await make().decide(wake())).offer?.version).toBe('1.7.3');
    expect(logs()).toContain('W_FIRMWARE_STATE');
  });
});

describe('FirmwareOffers.open', () => {
  it('opens only an offered version, with its size and SHA-256', async () => {
    const { offers } = await setup({ '1.7.3.bin': 'new firmware', '1.6.0.bin': 'an older one' });
    expect(await offers.open('1.7.3')).toBeNull();
    expect((await offers.decide(wake())).offer?.version).toBe('1.7.3');
    expect(await offers.open('1.6.0')).toBeNull();
    const f = await offers.open('1.7.3');
    expect(f).not.toBeNull();
    await f!.handle.close();
    expect(f!.size).toBe(12);
    expect(f!.sha256Hex).toBe(createHash('sha256').update('new firmware').digest('hex'));
    expect(await offers.open('../x')).toBeNull();
  });
});
