import { afterEach, describe, expect, it } from 'vitest';
import { httpRequest } from '../helpers/http-client.js';
import { until } from '../helpers/until.js';
import { startFakeAp, type FakeAp } from '../oepl/fake-ap.js';
import { daemonTests, linesWithCode } from './helpers.js';
import { watch } from '../helpers/mqtt-watch.js';

/**
 * The daemon with an openepaperlink section (src/daemon/publishers.ts loads the OEPL publisher only then), against a
 * fake access point that resets the first upload, answers 409 to the next and knows only one of the two tags: the
 * daemon keeps running its cycles, the known tag gets its picture after the retries (on the daemon's clock), and the
 * unknown one shows on /healthz, state.json and the status page. An access point that keeps resetting or answering
 * 409 makes its tag a problem in the same places and in Home Assistant's diagnostics, until a push is taken.
 */

const t = daemonTests({ broker: true });
let ap: FakeAp | null = null;
afterEach(async () => {
  await ap?.close();
  ap = null;
});

describe('the daemon feeding OpenEPaperLink tags', () => {
  it('keeps running through resets, 409 and an unknown MAC, and shows the unknown tag everywhere an owner looks', async () => {
    ap = await startFakeAp();
    const known = '0000021EEF5A3B1C';
    const unknown = '00000000DEADBEEF';
    const r = await t.rig({
      sections: [
        'openepaperlink:',
        `  access_point: ${ap.url}`,
        '  tags:',
        `    - { mac: "${known}", display: hallway, panel: oepl-2in9-bwr }`,
        `    - { mac: "${unknown}", display: hallway, panel: oepl-4in2-bwr }`,
      ],
    });
    // The known tag's first upload meets a reset, its retry a 409; the unknown tag always "mac not found".
    ap.unknown.add(unknown);
    ap.script.push('reset', 409);
    const first = await r.daemon.runOnce('hallway', 'schedule');
    expect(first.get('hallway')?.outcome).toBe('fresh');
    await until('both first uploads', () => ap!.uploads.length >= 2);
    // Retries wait on the daemon's clock: move it until the known tag's picture is taken.
    await until(
      'the known tag fed after its retries',
      () => {
        r.clock.advance(5_000);
        return ap!.uploads.some((u) => u.fields.mac === known && u.answered === 200);
      },
      { everyMs: 50 },
    );
    await until(
      'the unknown tag refused',
      () => {
        r.clock.advance(5_000);
        return ap!.uploads.some((u) => u.fields.mac === unknown && u.answered === 'mac_unknown');
      },
      { everyMs: 50 },
    );
    const health = await until('/healthz with the tag problem', async () => {
      const h = await httpRequest(`${r.http}/healthz`);
      return h.status === 503 ? h.json<{ displays: Array<{ tag_problem?: string }> }>() : null;
    });
    expect(health.displays[0]!.tag_problem).toMatch(new RegExp(`^E_OEPL_MAC_UNKNOWN: tag ${unknown}: `));
    const state = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<{
      tag_problem: { code: string; mac: string } | null;
    }>();
    expect(state.tag_problem).toMatchObject({ code: 'E_OEPL_MAC_UNKNOWN', mac: unknown });
    const page = (await httpRequest(`${r.http}/`)).text();
    expect(page).toContain('OpenEPaperLink');
    expect(page).toContain('E_OEPL_MAC_UNKNOWN');
    expect(linesWithCode(r.logText(), 'W_OEPL_RETRY').length).toBeGreaterThan(0);
    // The daemon is still running: the next cycle goes through, and the known tag is not sent the same picture again.
    const known200 = ap.uploads.filter((u) => u.fields.mac === known && u.answered === 200).length;
    const second = await r.daemon.runOnce('hallway', 'schedule');
    expect(['fresh', 'unchanged', 'cached']).toContain(second.get('hallway')?.outcome);
    const jpegs = ap.uploads.filter((u) => u.fields.mac === known);
    expect(jpegs.map((u) => u.answered)).toEqual(['reset', 409, 200]);
    expect(jpegs.every((u) => u.contentType === 'image/jpeg' && u.fields.dither === '0')).toBe(true);
    expect(known200).toBe(1);
  }, 60_000);

  it('a tag the access point never takes (a reset, then 409 on and on) is a problem everywhere an owner looks after three tries; the next push taken clears it', async () => {
    ap = await startFakeAp();
    const mac = '0000021EEF5A3B1C';
    const w = await watch(t.broker().url, ['outfit-display/hallway/diagnostics']);
    const diag = (): { tag_problem: string | null } | null => {
      const m = w.latest('outfit-display/hallway/diagnostics');
      return m === undefined ? null : (JSON.parse(m.payload.toString()) as { tag_problem: string | null });
    };
    try {
      const r = await t.rig({
        mqttUrl: t.broker().url,
        sections: [
          'openepaperlink:',
          `  access_point: ${ap.url}`,
          '  tags:',
          `    - { mac: "${mac}", display: hallway, panel: oepl-2in9-bwr }`,
        ],
      });
      ap.script.push('reset', ...Array<409>(30).fill(409));
      expect((await r.daemon.runOnce('hallway', 'schedule')).get('hallway')?.outcome).toBe('fresh');
      await until('the first try', () => ap!.uploads.length === 1);
      // Two tries are not yet a problem.
      await until('the second try', () => (r.clock.advance(1_000), ap!.uploads.length === 2), { everyMs: 20 });
      expect(
        (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<{ tag_problem: unknown }>().tag_problem,
      ).toBeNull();
      await until('the third try', () => (r.clock.advance(1_000), ap!.uploads.length === 3), { everyMs: 20 });

      const state = await until('state.json with the tag problem', async () => {
        const st = (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<{
          tag_problem: { code: string; mac: string; message: string } | null;
        }>();
        return st.tag_problem === null ? null : st;
      });
      expect(state.tag_problem).toMatchObject({ code: 'E_OEPL_UNREACHABLE', mac });
      expect(state.tag_problem!.message).toMatch(
        /^no picture taken in 3 tries since .*\(the last: 409 Come back later\)$/,
      );
      const health = await httpRequest(`${r.http}/healthz`);
      expect(health.status).toBe(503);
      expect(health.json<{ displays: Array<{ tag_problem?: string }> }>().displays[0]!.tag_problem).toMatch(
        new RegExp(`^E_OEPL_UNREACHABLE: tag ${mac}: no picture taken in 3 tries`),
      );
      const page = (await httpRequest(`${r.http}/`)).text();
      expect(page).toContain('OpenEPaperLink');
      expect(page).toContain('E_OEPL_UNREACHABLE');
      await w.waitFor(
        () => diag()?.tag_problem?.startsWith(`E_OEPL_UNREACHABLE: tag ${mac}: `) === true,
        'diagnostics with the tag problem',
      );
      expect(linesWithCode(r.logText(), 'E_OEPL_UNREACHABLE').filter((l) => l.level === 50)).toHaveLength(1);

      // The access point takes pictures again: the next try clears the problem everywhere.
      ap.script.length = 0;
      await until('a push taken', () => (r.clock.advance(1_000), ap!.uploads.some((u) => u.answered === 200)), {
        everyMs: 20,
      });
      await until(
        'state.json without the tag problem',
        async () =>
          (await httpRequest(`${r.http}/displays/hallway/state.json`)).json<{ tag_problem: unknown }>().tag_problem ===
          null,
      );
      const healthy = await httpRequest(`${r.http}/healthz`);
      expect(healthy.json<{ displays: Array<{ tag_problem?: string }> }>().displays[0]!.tag_problem).toBeUndefined();
      expect(healthy.status).toBe(200);
      expect((await httpRequest(`${r.http}/`)).text()).not.toContain('E_OEPL_UNREACHABLE');
      await w.waitFor(() => diag()?.tag_problem === null, 'diagnostics without the tag problem');
      expect(ap.uploads.map((u) => u.answered)).toEqual(['reset', 409, 409, 200]);
    } finally {
      await w.close();
    }
  }, 60_000);
});
