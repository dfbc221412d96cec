import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';

/** The household's keys (../shared/DESIGN.md, "The household"): people, a display's people, quiet hours, departures. */

const base = {
  api: { base_url: 'https://outfit.example/v1' },
  budget: { credits_per_day: 200 },
  timezone: 'Europe/Berlin',
};
const place = { lat: 52.52, lon: 13.405, schedule: '*/30 6-22 * * *' };

function problems(extra: Record<string, unknown>): string[] {
  const r = parseConfig({ ...base, displays: [{ id: 'hallway', ...place }], ...extra });
  return r.ok ? [] : r.problems;
}

describe('household config', () => {
  it('takes people, a display that names them, quiet hours at both levels and departures', () => {
    const r = parseConfig({
      ...base,
      people: [
        {
          id: 'anna',
          name: 'Anna',
          gender: 'female',
          presence_topic: 'homeassistant/person/anna/state',
          leaves: ['1-5 07:40', '6,0 10:00'],
        },
        { id: 'ben', name: 'Ben' },
      ],
      quiet_hours: '22:30-06:30',
      displays: [
        { id: 'hallway', ...place, people: ['anna', 'ben'], quiet_hours: '23:00-07:00' },
        { id: 'office', ...place },
      ],
      trmnl: { devices: [{ mac: 'AA:BB:CC:DD:EE:FF', display: 'hallway', token: 'abcdefgh', person: 'ben' }] },
    });
    expect(r.ok, r.ok ? '' : r.problems.join('\n')).toBe(true);
    if (!r.ok) return;
    expect(r.config.people).toEqual([
      {
        id: 'anna',
        name: 'Anna',
        gender: 'female',
        presence_topic: 'homeassistant/person/anna/state',
        leaves: ['1-5 07:40', '6,0 10:00'],
      },
      { id: 'ben', name: 'Ben', gender: '', leaves: [] },
    ]);
    expect(r.config.quiet_hours).toBe('22:30-06:30');
    expect(r.config.displays[0]!.people).toEqual(['anna', 'ben']);
    expect(r.config.displays[0]!.quiet_hours).toBe('23:00-07:00');
    expect(r.config.displays[1]!.people).toBeUndefined();
    expect(r.config.trmnl?.devices[0]!.person).toBe('ben');
  });

  it('a config without people is as before: an empty list and no quiet hours', () => {
    const r = parseConfig({ ...base, displays: [{ id: 'hallway', ...place }] });
    expect(r.ok && r.config.people).toEqual([]);
    expect(r.ok && r.config.quiet_hours).toBeUndefined();
  });

  it('names each bad reference by its key path', () => {
    const p = problems({
      people: [
        { id: 'anna', name: 'Anna' },
        { id: 'anna', name: 'Anna again' },
      ],
      displays: [
        { id: 'hallway', ...place, people: ['anna', 'zoe', 'anna'], gender: 'female' },
        { id: 'office', ...place },
      ],
      trmnl: {
        devices: [
          { mac: 'AA:BB:CC:DD:EE:FF', display: 'hallway', token: 'abcdefgh', person: 'carl' },
          { mac: 'AA:BB:CC:DD:EE:00', display: 'office', token: 'abcdefgh', person: 'anna' },
        ],
      },
    });
    expect(p).toEqual(
      expect.arrayContaining([
        'people[1].id: duplicate person id "anna" (also people[0].id)',
        'displays[0].people[1]: no person with id "zoe" in people',
        'displays[0].people[2]: "anna" is named twice',
        'displays[0].gender: set `people` or `gender`, not both: each person has their own gender',
        'trmnl.devices[0].person: "carl" is not one of display "hallway"\'s people (anna, zoe, anna)',
        'trmnl.devices[1].person: display "office" has no `people`',
      ]),
    );
    expect(p).toHaveLength(6);
  });

  it('refuses malformed quiet hours, departures, ids and more people than a frame shows', () => {
    const p = problems({
      quiet_hours: '22:30-22:30',
      people: [
        { id: 'Anna', name: 'Anna', leaves: ['Mon 07:40', '1-5 7:40', '8 07:40'] },
        { id: 'b', name: '', presence_topic: 'homeassistant/person/+/state' },
        { id: 'c', name: 'C' },
        { id: 'd', name: 'D' },
        { id: 'e', name: 'E' },
      ],
      displays: [{ id: 'hallway', ...place, people: ['b', 'c', 'd', 'e', 'Anna'], quiet_hours: '25:00-06:00' }],
    });
    expect(p).toEqual(
      expect.arrayContaining([
        'quiet_hours: start and end must differ (an empty or whole-day window)',
        'people[0].id: must match [a-z0-9_-]+',
        expect.stringMatching(/^people\[0\]\.leaves\[0\]: must look like "1-5 07:40"/),
        expect.stringMatching(/^people\[0\]\.leaves\[1\]: must look like "1-5 07:40"/),
        expect.stringMatching(/^people\[0\]\.leaves\[2\]: must look like "1-5 07:40"/),
        'people[1].name: must not be empty',
        'people[1].presence_topic: must not contain MQTT wildcards',
        'displays[0].people: a frame shows at most 4 people',
        'displays[0].quiet_hours: must look like "22:30-06:30" (start-end, 24-hour)',
      ]),
    );
  });

  it('an OpenEPaperLink tag may name its person, checked like a device', () => {
    const p = problems({
      people: [{ id: 'anna', name: 'Anna' }],
      displays: [{ id: 'hallway', ...place, people: ['anna'] }],
      openepaperlink: {
        access_point: 'http://192.168.1.60',
        tags: [
          { mac: '0000021EEF5A3B1C', display: 'hallway', panel: 'oepl-2in9-bwr', person: 'anna' },
          { mac: '0000021EEF5A3B1D', display: 'hallway', panel: 'oepl-2in9-bwr', person: 'ben' },
        ],
      },
    });
    expect(p).toEqual(['openepaperlink.tags[1].person: "ben" is not one of display "hallway"\'s people (anna)']);
  });
});
