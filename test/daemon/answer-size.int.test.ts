import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLedger } from '../../src/budget/ledger-file.js';
import { LastGoodStore } from '../../src/store/last-good.js';
import { loadPanel } from '../../src/panels/panels.js';
import { renderFrame, renderIndices } from '../../src/render/frame.js';
import type { FrameInput } from '../../src/render/layout/content.js';
import { until } from '../helpers/until.js';
import { daemonTests, hallwayState, injectFault, linesWithCode, type DaemonRig } from './helpers.js';

/**
 * An answer is bought once a slot, whatever its size, across restarts (a legal answer near the body limit
 * was saved as a last good file several times its size, which every start ignored, and bought again). A whole
 * daemon on a fake clock against the simulated service over real HTTP, started three times on one folder within one
 * daily slot.
 */

const t = daemonTests({ broker: false });
const MIN = 60_000;
const HOUR = 60 * MIN;
/** What a start reads of a last good file (store/last-good.ts). */
const LAST_GOOD_READ_LIMIT = 1024 * 1024 + 4096;

/** Every file the daemon wrote, each read back as a start (or a reader) would: their sizes. */
async function filesReadBack(dir: string): Promise<Record<string, number>> {
  const state = path.join(dir, 'state');
  const last = await new LastGoodStore(state).load('hallway');
  expect(last.problem).toBeNull();
  expect(last.rec?.outfit).toBeTruthy();
  const ledger = await readLedger(path.join(state, 'budget-ledger.json'));
  expect(ledger.kind).toBe('ok');
  const frameJson = path.join(dir, 'frames', 'hallway.json');
  JSON.parse(await readFile(frameJson, 'utf8'));
  return {
    last: (await stat(path.join(state, 'last', 'hallway.json'))).size,
    frameJson: (await stat(frameJson)).size,
  };
}

/** The rig's state.json as text: what the MQTT state carries too (state-json.ts). */
async function stateBytes(r: DaemonRig): Promise<number> {
  return Buffer.byteLength(JSON.stringify(await hallwayState(r)));
}

const CASES: [string, Record<string, unknown> | null][] = [
  ['a tiny answer', null],
  ['a small field beyond the spec (kept)', { field: 'notes', bytes: 8_000, fill: 'text' }],
  [
    'the probe: 1 MB of 1e20 in a field beyond the spec (written back as 21 digits each)',
    { field: 'notes', bytes: 1_000_000, fill: 'exponents' },
  ],
  ['arrays nested 500,000 deep in the weather object', { field: 'weather.station', bytes: 1_000_000, fill: 'nested' }],
  [
    'an outfit of 1 MB of bytes that are not UTF-8 (each written back as three)',
    { field: 'outfit', bytes: 1_000_000, fill: 'not_utf8' },
  ],
  ['an alert of 1 MB of text', { field: 'weather.alerts', bytes: 1_000_000, fill: 'text' }],
];

describe('an answer of any size is bought once a slot, across restarts', () => {
  it.each(CASES)('%s', async (_, fault) => {
    const r = await t.rig({ schedule: '{MM} {HH} * * *' });
    if (fault !== null) await injectFault(r, { kind: 'large_field', path: 'recweather', ...fault });
    await r.daemon.start();
    expect(await r.paidRequests()).toBe(1);
    const first = await until('the answer on show', async () => {
      const st = await hallwayState(r);
      return st.status === 'ok' && typeof st.outfit === 'string' ? st : null;
    });
    const published = await stateBytes(r);
    await r.stop();

    // Two restarts within the slot: the answer is read back and shown, nothing is bought.
    for (const later of [MIN, 2 * MIN]) {
      const again = await t.rig({ dir: r.dir, schedule: r.schedule, at: r.clock.now() + later });
      await again.daemon.start();
      const shown = await until('the answer read back on show', async () => {
        const st = await hallwayState(again);
        return st.outfit === first.outfit ? st : null;
      });
      expect(shown.status).toBe('ok');
      expect(await again.paidRequests()).toBe(0);
      expect(linesWithCode(again.logText(), 'W_STATE_IGNORED')).toEqual([]);
      await again.stop();
    }

    // Everything written is far below what a start reads; what was over the limits was said, what was not is kept.
    const sizes = await filesReadBack(r.dir);
    expect(sizes.last).toBeLessThan(LAST_GOOD_READ_LIMIT / 4);
    expect(sizes.frameJson).toBeLessThan(LAST_GOOD_READ_LIMIT / 4);
    expect(published).toBeLessThan(LAST_GOOD_READ_LIMIT / 4);
    if (fault !== null && fault.bytes !== 8_000)
      expect(linesWithCode(r.logText(), 'W_RESPONSE_TRIMMED').length).toBeGreaterThan(0);
    if (fault?.bytes === 8_000) expect(typeof first.notes).toBe('string');
  });
});

describe('a last answer that cannot be read back', () => {
  const spoil: [string, (file: string) => Promise<void>][] = [
    [
      'over the read limit (as written before the limits)',
      (file) => writeFile(file, `{"outfit":"x","notes":[${'100000000000000000000,'.repeat(220_000)}1]}`),
    ],
    ['removed', (file) => rm(file)],
    ['not JSON', (file) => writeFile(file, '{"outfit": "cut sh')],
  ];

  it.each(spoil)(
    '%s: its slot is not bought again; the display says so, and the next slot buys',
    async (_, spoilIt) => {
      const r = await t.rig({ schedule: '{MM} {HH} * * *' });
      await r.daemon.start();
      expect(await r.paidRequests()).toBe(1);
      await r.stop();
      await spoilIt(path.join(r.dir, 'state', 'last', 'hallway.json'));

      const again = await t.rig({ dir: r.dir, schedule: r.schedule, at: r.clock.now() + MIN });
      await again.daemon.start();
      await until('the start’s first frame', () => Promise.resolve(again.published.length > 0));
      expect(await again.paidRequests()).toBe(0);
      const st = await until('the start to say the answer could not be read back', async () => {
        const s = await hallwayState(again);
        return (s.last_error as { code?: string } | null)?.code === 'W_STATE_IGNORED' ? s : null;
      });
      expect(st.outfit).toBeUndefined();
      expect(String((st.last_error as { message: string }).message)).toContain('not bought again');
      // The wall says so, with the time it was bought, not "Waiting for the first outfit".
      const ledger = await readLedger(path.join(r.dir, 'state', 'budget-ledger.json'));
      const bought = ledger.kind === 'ok' ? ledger.state.lastBought.hallway : undefined;
      expect(bought).toBeGreaterThan(r.clock.now() - MIN);
      const input: FrameInput = {
        rec: null,
        displayName: 'hallway',
        timezone: 'Europe/Berlin',
        status: { kind: 'ok' },
        now: new Date(again.clock.now()),
        notReadBack: new Date(bought ?? 0),
      };
      const texts = renderIndices(input, loadPanel('waveshare-4in2'), { rotation: 0 }).report.texts.join(' ');
      expect(texts).toContain('The last outfit could not be read back');
      expect(texts).not.toContain('Waiting for the first outfit');
      expect(again.published.at(-1)?.frame.hash).toBe(
        (await renderFrame(input, loadPanel('waveshare-4in2'), { rotation: 0 })).hash,
      );

      // The next day's slot buys, once.
      again.clock.advance(24 * HOUR - 2 * MIN);
      again.clock.advance(MIN);
      await until('the next slot bought', async () => (await again.paidRequests()) === 1);
      await until('its answer on show', async () => typeof (await hallwayState(again)).outfit === 'string');
      again.clock.advance(MIN);
      expect(await again.paidRequests()).toBe(1);
    },
  );
});
