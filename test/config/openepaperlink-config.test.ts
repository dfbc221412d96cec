import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';

/** The openepaperlink section (../shared/DESIGN.md): problems named by their key paths, beside the others. */

const base = {
  api: { base_url: 'https://outfit.example/v1' },
  budget: { credits_per_day: 200 },
  timezone: 'Europe/Berlin',
  displays: [{ id: 'hallway', lat: 52.52, lon: 13.405, schedule: '*/30 6-22 * * *' }],
};

describe('openepaperlink config', () => {
  it('takes an access point and tags with their display and panel', () => {
    const r = parseConfig({
      ...base,
      openepaperlink: {
        access_point: 'http://192.168.1.60',
        tags: [{ mac: '0000021EEF5A3B1C', display: 'hallway', panel: 'oepl-2in9-bwr' }],
      },
    });
    expect(r.ok && r.config.openepaperlink).toEqual({
      access_point: 'http://192.168.1.60',
      tags: [{ mac: '0000021EEF5A3B1C', display: 'hallway', panel: 'oepl-2in9-bwr' }],
    });
  });

  it('names each bad key: the URL, a MAC that is not 16 hex digits, a duplicate MAC, an unknown display and panel', () => {
    const r = parseConfig({
      ...base,
      openepaperlink: {
        access_point: 'ftp://ap',
        tags: [
          { mac: 'AA:BB:CC:DD:EE:FF', display: 'hallway', panel: 'oepl-4in2-bwr' },
          { mac: '0000021eef5a3b1c', display: 'kitchen', panel: 'oepl-9in9' },
          { mac: '0000021EEF5A3B1C', display: 'hallway', panel: 'waveshare-7in5-b' },
        ],
      },
    });
    expect(r.ok).toBe(false);
    const p = r.ok ? [] : r.problems;
    expect(p).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^openepaperlink\.access_point: must be an absolute http\(s\) base URL/),
        expect.stringMatching(/^openepaperlink\.tags\[0\]\.mac: must be a tag MAC of 16 hex digits/),
        'openepaperlink.tags[1].display: no display with id "kitchen"',
        'openepaperlink.tags[2].mac: duplicate tag MAC (also openepaperlink.tags[1].mac)',
        expect.stringMatching(/^openepaperlink\.tags\[1\]\.panel: unknown panel "oepl-9in9" \(known: .*oepl-2in9-bwr/),
      ]),
    );
    expect(p).toHaveLength(5);
  });

  it('refuses a login in access_point without repeating it, and a path, query or fragment alike', () => {
    const problem = (access_point: string): string[] => {
      const r = parseConfig({
        ...base,
        openepaperlink: {
          access_point,
          tags: [{ mac: '0000021EEF5A3B1C', display: 'hallway', panel: 'oepl-2in9-bwr' }],
        },
      });
      return r.ok ? [] : r.problems;
    };
    for (const url of [
      'http://owner:pw-9f3c@192.168.1.60',
      'http://owner@192.168.1.60/',
      'https://:pw-9f3c@ap.local',
      'http://@192.168.1.60',
    ]) {
      const p = problem(url);
      expect(p, url).toEqual([
        'openepaperlink.access_point: must not carry a login (user:password@host): the access point takes none, so remove it',
      ]);
    }
    for (const url of [
      'http://192.168.1.60/imgupload',
      'http://192.168.1.60?x=1',
      'http://192.168.1.60/?x=1',
      'http://192.168.1.60#x',
      'http://',
      'http://ap local',
    ]) {
      expect(problem(url), url).toEqual([
        expect.stringMatching(
          /^openepaperlink\.access_point: must be an absolute http\(s\) base URL such as http:\/\/192\.168\.1\.60, without a path, query or fragment$/,
        ),
      ]);
    }
    for (const url of ['http://192.168.1.60', 'http://192.168.1.60/', 'https://ap.local:8443', 'http://[fe80::1]:8080'])
      expect(problem(url), url).toEqual([]);
  });
});
