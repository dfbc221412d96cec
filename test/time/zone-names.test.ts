import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostZoneName, isTimeZone } from '../../src/time/zone-names.js';

/** What Intl itself takes for this process's zone: the answer wherever ours cannot be sure. */
const intlHostZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

describe('isTimeZone', () => {
  it.each(['Europe/Berlin', 'UTC', 'Etc/UTC', 'Asia/Kolkata', 'Asia/Calcutta', 'Europe/Kyiv', 'US/Eastern', 'Etc/GMT+5', 'europe/berlin'])(
    '%s: a zone (Intl takes it)',
    (name) => {
      expect(isTimeZone(name)).toBe(true);
      expect(() => new Intl.DateTimeFormat('en', { timeZone: name })).not.toThrow();
    },
  );

  it.each(['Mars/Olympus', 'Europe/Berlin ', '', 'CET-1CEST', 'Berlin'])('%j: not a zone', (name) => {
    expect(isTimeZone(name)).toBe(false);
  });
});

describe('hostZoneName', () => {
  /** A folder with a link like /etc/localtime, to `target`. */
  async function localtimeTo(target: string): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'outfit-localtime-'));
    const link = path.join(dir, 'localtime');
    await symlink(target, link);
    return link;
  }

  it('takes TZ when it names a zone, with or without the C library\'s leading colon', () => {
    expect(hostZoneName({ env: { TZ: 'America/New_York' }, localtime: '/nonexistent' })).toBe('America/New_York');
    expect(hostZoneName({ env: { TZ: ':Asia/Tokyo' }, localtime: '/nonexistent' })).toBe('Asia/Tokyo');
  });

  it('else the zone /etc/localtime links to; a UTC alias is UTC', async () => {
    expect(hostZoneName({ env: {}, localtime: await localtimeTo('/usr/share/zoneinfo/Europe/Lisbon') })).toBe('Europe/Lisbon');
    expect(hostZoneName({ env: { TZ: '' }, localtime: await localtimeTo('../usr/share/zoneinfo/Etc/UTC') })).toBe('UTC');
  });

  it("else Intl's own answer: a POSIX rule in TZ, a copied /etc/localtime, a link outside zoneinfo", async () => {
    const copied = path.join(await mkdtemp(path.join(tmpdir(), 'outfit-localtime-')), 'localtime');
    await writeFile(copied, 'TZif');
    expect(hostZoneName({ env: { TZ: 'CET-1CEST,M3.5.0,M10.5.0/3' }, localtime: '/nonexistent' })).toBe(intlHostZone);
    expect(hostZoneName({ env: {}, localtime: copied })).toBe(intlHostZone);
    expect(hostZoneName({ env: {}, localtime: await localtimeTo('/somewhere/else') })).toBe(intlHostZone);
    expect(hostZoneName({ env: {}, localtime: '/nonexistent' })).toBe(intlHostZone);
  });
});
