import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WARMTH } from '../../src/domain/warmth.js';
import { WARMTH_FILE, WarmthBook } from '../../src/household/warmth-book.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { FakeClock } from '../helpers/fake-clock.js';

/** The warmth book on a fake clock and a real folder: votes once a frame, sets, fading, and the file across restarts. */

const DAY = 86_400_000;
let dir: string;
/** Every book of the test: their writes end before the folder goes. */
const books: WarmthBook[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'warmth-'));
});
afterEach(async () => {
  await Promise.all(books.splice(0).map((b) => b.flushed()));
  await rm(dir, { recursive: true, force: true });
});

function book(clock: FakeClock, stateDir = dir) {
  const log = capturingLogger();
  const b = new WarmthBook({ personIds: ['anna', 'ben'], stateDir, clock, logger: log.logger });
  books.push(b);
  /** The codes the book logged, in order. */
  const codes = (): string[] =>
    log
      .text()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { code?: string; err?: { code?: string } })
      .flatMap((l) => l.code ?? l.err?.code ?? []);
  return { b, codes };
}

const fileJson = async (): Promise<unknown> => JSON.parse(await readFile(path.join(dir, WARMTH_FILE), 'utf8'));

describe('WarmthBook', () => {
  it('counts one vote between two new frames; more presses are ignored with W_WARMTH_VOTE_IGNORED', async () => {
    const clock = new FakeClock();
    const { b, codes } = book(clock);
    await b.load();
    expect(b.vote('anna', 'too_cold')).toEqual({ kind: 'changed', offsetC: -WARMTH.stepC });
    expect(b.vote('anna', 'too_cold')).toMatchObject({ kind: 'ignored', code: 'W_WARMTH_VOTE_IGNORED' });
    expect(b.vote('anna', 'too_warm')).toMatchObject({ kind: 'ignored', code: 'W_WARMTH_VOTE_IGNORED' });
    expect(b.offsetOf('anna', clock.now())).toBe(-WARMTH.stepC);
    // Ben's votes are his own.
    expect(b.vote('ben', 'too_warm')).toEqual({ kind: 'changed', offsetC: WARMTH.stepC });
    b.frameShown('anna');
    expect(b.vote('anna', 'too_cold')).toEqual({ kind: 'changed', offsetC: -2 * WARMTH.stepC });
    expect(codes()).toEqual(['W_WARMTH_VOTE_IGNORED', 'W_WARMTH_VOTE_IGNORED']);
  });

  it('clamps votes at ±WARMTH.maxC', async () => {
    const clock = new FakeClock();
    const { b } = book(clock);
    await b.load();
    for (let i = 0; i < 10; i++) {
      b.vote('anna', 'too_cold');
      b.frameShown('anna');
    }
    expect(b.offsetOf('anna', clock.now())).toBe(-WARMTH.maxC);
  });

  it('a direct set replaces the offset, clamped; a bad number is refused with W_WARMTH_OFFSET_REFUSED', async () => {
    const clock = new FakeClock();
    const { b, codes } = book(clock);
    await b.load();
    expect(b.set('anna', '-2.5')).toEqual({ kind: 'changed', offsetC: -2.5 });
    expect(b.set('anna', ' 12 ')).toEqual({ kind: 'changed', offsetC: WARMTH.maxC });
    for (const bad of ['', 'cold', 'NaN', 'Infinity', '1e400', '-', '0x10', '3 °C'])
      expect(b.set('anna', bad)).toMatchObject({ kind: 'ignored', code: 'W_WARMTH_OFFSET_REFUSED' });
    expect(b.offsetOf('anna', clock.now())).toBe(WARMTH.maxC);
    // A set is no vote: the next vote still counts.
    expect(b.vote('anna', 'too_cold')).toEqual({ kind: 'changed', offsetC: WARMTH.maxC - WARMTH.stepC });
    expect(codes().filter((c) => c === 'W_WARMTH_OFFSET_REFUSED')).toHaveLength(8);
  });

  it('refuses anyone not in people with W_PERSON_UNKNOWN, and reads 0 for them', async () => {
    const clock = new FakeClock();
    const { b, codes } = book(clock);
    await b.load();
    expect(b.vote('carl', 'too_cold')).toMatchObject({ kind: 'ignored', code: 'W_PERSON_UNKNOWN' });
    expect(b.set('carl', '-3')).toMatchObject({ kind: 'ignored', code: 'W_PERSON_UNKNOWN' });
    expect(b.offsetOf('carl', clock.now())).toBe(0);
    expect(codes()).toEqual(['W_PERSON_UNKNOWN', 'W_PERSON_UNKNOWN']);
  });

  it('fades toward 0 with the time since the offset was last set; a vote then moves the faded offset', async () => {
    const clock = new FakeClock();
    const { b } = book(clock);
    await b.load();
    b.set('anna', '-4');
    clock.setSystemTime(clock.now() + WARMTH.halfLifeDays * DAY);
    expect(b.offsetOf('anna', clock.now())).toBe(-2);
    expect(b.vote('anna', 'too_cold')).toEqual({ kind: 'changed', offsetC: -3 });
    // Faded from the vote, not from the set.
    expect(b.offsetOf('anna', clock.now() + WARMTH.halfLifeDays * DAY)).toBe(-1.5);
  });

  it('tells its listeners of each change that counted', async () => {
    const clock = new FakeClock();
    const { b } = book(clock);
    await b.load();
    const heard: string[] = [];
    const off = b.onChange((id) => heard.push(id));
    b.vote('anna', 'too_cold');
    b.vote('anna', 'too_cold');
    b.set('ben', 'x');
    b.set('ben', '1');
    off();
    b.set('ben', '2');
    expect(heard).toEqual(['anna', 'ben']);
  });

  it('survives a restart: offsets, when they were set, and a vote already counted for this frame', async () => {
    const clock = new FakeClock();
    const first = book(clock);
    await first.b.load();
    first.b.vote('anna', 'too_cold');
    first.b.set('ben', '2');
    await first.b.flushed();
    expect(await fileJson()).toMatchObject({
      version: 1,
      people: { anna: { offset_c: -1, voted_since_frame: true }, ben: { offset_c: 2, voted_since_frame: false } },
    });
    clock.setSystemTime(clock.now() + WARMTH.halfLifeDays * DAY);
    const second = book(clock);
    await second.b.load();
    expect(second.b.offsetOf('anna', clock.now())).toBe(-0.5);
    expect(second.b.offsetOf('ben', clock.now())).toBe(1);
    expect(second.b.vote('anna', 'too_cold')).toMatchObject({ code: 'W_WARMTH_VOTE_IGNORED' });
    second.b.frameShown('anna');
    expect(second.b.vote('anna', 'too_cold')).toEqual({ kind: 'changed', offsetC: -1.5 });
    expect(second.codes()).toEqual(['W_WARMTH_VOTE_IGNORED']);
  });

  it.each([
    ['a torn file', '{"version":1,"people":{"anna":{"offset_c":-3,'],
    ['another JSON', '{"version":7}'],
    [
      'an offset that is not a number',
      '{"version":1,"people":{"anna":{"offset_c":"cold","set_at":0,"voted_since_frame":false}}}',
    ],
  ])(
    'starts from 0 after %s: W_WARMTH_UNREADABLE, the file set aside, a good one written, no crash',
    async (_what, text) => {
      await writeFile(path.join(dir, WARMTH_FILE), text);
      const clock = new FakeClock();
      const { b, codes } = book(clock);
      await b.load();
      expect(codes()).toEqual(['W_WARMTH_UNREADABLE']);
      expect(b.offsetOf('anna', clock.now())).toBe(0);
      expect(await readFile(path.join(dir, `${WARMTH_FILE}.corrupt`), 'utf8')).toBe(text);
      await b.flushed();
      expect(await fileJson()).toEqual({ version: 1, people: {} });
      expect(b.vote('anna', 'too_cold')).toEqual({ kind: 'changed', offsetC: -1 });
    },
  );

  it('removes at its start the temp files of writes a kill cut off, and reads the file as last renamed', async () => {
    const clock = new FakeClock();
    const first = book(clock);
    await first.b.load();
    first.b.set('anna', '-2');
    await first.b.flushed();
    // A write cut off by kill -9: its temp file, never renamed. Another process's file beside it stays.
    await writeFile(path.join(dir, `.${WARMTH_FILE}.0123456789ab.tmp`), '{"version":1,"peo');
    await writeFile(path.join(dir, '.hallway.json.0123456789ab.tmp'), '{');
    const again = book(clock);
    await again.b.load();
    expect(again.b.offsetOf('anna', clock.now())).toBe(-2);
    expect((await readdir(dir)).sort()).toEqual(['.hallway.json.0123456789ab.tmp', WARMTH_FILE]);
    expect(again.codes()).toEqual([]);
  });

  it('forgets people no longer configured, and clamps an offset kept beyond the limit', async () => {
    await writeFile(
      path.join(dir, WARMTH_FILE),
      JSON.stringify({
        version: 1,
        people: {
          anna: { offset_c: -9, set_at: Date.UTC(2026, 0, 1), voted_since_frame: false },
          carl: { offset_c: 3, set_at: Date.UTC(2026, 0, 1), voted_since_frame: false },
        },
      }),
    );
    const clock = new FakeClock();
    const { b, codes } = book(clock);
    await b.load();
    expect(b.offsetOf('anna', clock.now())).toBe(-WARMTH.maxC);
    expect(b.offsetOf('carl', clock.now())).toBe(0);
    expect(codes()).toEqual([]);
  });

  it('keeps the offsets in memory when the folder cannot be read or written: W_WARMTH_UNREADABLE, E_STATE_WRITE', async () => {
    const notDir = path.join(dir, 'not-a-folder');
    await writeFile(notDir, '');
    // A file where the folder should be: every read and write fails (ENOTDIR), as on a broken disk.
    const clock = new FakeClock();
    const { b, codes } = book(clock, notDir);
    await b.load();
    expect(b.vote('anna', 'too_cold')).toEqual({ kind: 'changed', offsetC: -1 });
    await b.flushed();
    // The load's fresh start and the vote: each write fails, is logged, and the daemon goes on.
    expect(codes()).toEqual(['W_WARMTH_UNREADABLE', 'E_STATE_WRITE', 'E_STATE_WRITE']);
    expect(b.offsetOf('anna', clock.now())).toBe(-1);
    expect((await stat(notDir)).size).toBe(0);
  });
});
