import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/api/errors.js';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import type { FetchOutcome } from '../../src/budget/governor-types.js';
import { PurchasePool } from '../../src/budget/purchase-pool.js';
import type { Config, DisplayConfig } from '../../src/config/schema.js';
import { householdCycleOf, type HouseholdCycle } from '../../src/daemon/household-cycle.js';
import { personState } from '../../src/state/state-json.js';
import { makeConfig, stateDir } from '../budget/helpers.js';
import { rec } from '../fixtures/rec.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { FakeClock } from '../helpers/fake-clock.js';

/** A household display's purchases and its people's answers, with a scripted governor on a fake clock. */

const START = Date.UTC(2027, 0, 11, 9);
const COLD = { ...rec().weather, temp: 4, feels_like: 4 };

function household(): Config {
  return makeConfig({
    people: [
      { id: 'anna', name: 'Anna', gender: 'female' },
      { id: 'ben', name: 'Ben', gender: 'male' },
      { id: 'cleo', name: 'Cleo', gender: 'female' },
    ],
    displays: [
      { id: 'hallway', lat: 52.52, lon: 13.405, schedule: '*/30 6-22 * * *', people: ['anna', 'ben', 'cleo'] },
    ],
  });
}

interface Rig {
  h: HouseholdCycle;
  sent: DisplayConfig[];
  away: Set<string>;
  clock: FakeClock;
  dir: string;
  logText: () => string;
}

async function rig(
  o: { dir?: string; answer?: (d: DisplayConfig) => FetchOutcome; offsets?: Record<string, number> } = {},
): Promise<Rig> {
  const config = household();
  const display = config.displays[0]!;
  const clock = new FakeClock(START);
  const dir = o.dir ?? (await stateDir());
  const sent: DisplayConfig[] = [];
  const away = new Set<string>();
  const { logger, text } = capturingLogger();
  const h = householdCycleOf(display, {
    people: config.people,
    stateDir: dir,
    fetch: (d) => {
      sent.push(d);
      return Promise.resolve(
        o.answer?.(d) ?? {
          kind: 'fresh',
          rec: rec({ outfit: `Warm coat for ${d.gender}, scarf.`, weather: COLD, fetchedAt: null }),
        },
      );
    },
    pool: new PurchasePool({ clock }),
    presence: { isHome: (id) => !away.has(id) },
    offsetOf: (id) => o.offsets?.[id] ?? 0,
    clock,
    logger,
  });
  if (h === undefined) throw new Error('a display with people has a household');
  await h.restore();
  return { h, sent, away, clock, dir, logText: text };
}

describe('HouseholdCycle', () => {
  it('buys for each person at home with their own gender, once per distinct request; the lead is the first', async () => {
    const r = await rig();
    const out = await r.h.fetch('schedule');
    // Anna and Cleo ask the same (female, same place): one purchase; Ben his own.
    expect(r.sent.map((d) => d.gender)).toEqual(['female', 'male']);
    expect(r.sent.every((d) => d.id === 'hallway' && d.lat === 52.52 && d.endpoint === 'recweather')).toBe(true);
    expect(out).toMatchObject({ kind: 'fresh', rec: { outfit: 'Warm coat for female, scarf.' } });
    if (out.kind === 'fresh') expect(out.fetchedAt?.getTime()).toBe(START);
    const people = r.h.people(r.clock.now());
    expect(people.map((p) => [p.id, p.rec?.outfit, p.away])).toEqual([
      ['anna', 'Warm coat for female, scarf.', false],
      ['ben', 'Warm coat for male, scarf.', false],
      ['cleo', 'Warm coat for female, scarf.', false],
    ]);
    expect(r.h.leadRec()?.outfit).toBe('Warm coat for female, scarf.');
  });

  it('after a restart, an answer a person kept is shared again: one whose share a kill lost buys nothing', async () => {
    const first = await rig();
    await first.h.fetch('schedule');
    expect(first.sent.map((d) => d.gender)).toEqual(['female', 'male']);
    // kill -9 after Anna's purchase and before Cleo's share of it was saved.
    await rm(path.join(first.dir, 'people', 'hallway', 'cleo.json'));
    const again = await rig({ dir: first.dir });
    again.clock.advance(60_000);
    await again.h.fetch('schedule');
    expect(again.sent).toEqual([]);
    const [anna, , cleo] = again.h.people(again.clock.now());
    expect(cleo?.rec).toEqual(anna?.rec);
  });

  it('someone away is not bought for and keeps their last answer, marked away; nobody home buys nothing', async () => {
    const r = await rig();
    await r.h.fetch('schedule');
    r.away.add('anna');
    r.clock.advance(30 * 60_000);
    const out = await r.h.fetch('schedule');
    expect(r.sent.map((d) => d.gender)).toEqual(['female', 'male', 'male', 'female']);
    // Ben is now the first at home: the display's own answer is his.
    expect(out).toMatchObject({ kind: 'fresh', rec: { outfit: 'Warm coat for male, scarf.' } });
    const anna = r.h.people(r.clock.now())[0]!;
    expect(anna).toMatchObject({ away: true, rec: { fetched_at: new Date(START).toISOString() } });
    r.away.add('ben').add('cleo');
    const none = await r.h.fetch('schedule');
    expect(none.kind).toBe('away');
    expect(r.sent).toHaveLength(4);
  });

  it('each answer is kept in state_dir: a restart shows everyone; a bad file is ignored, never a crash', async () => {
    const r = await rig();
    await r.h.fetch('schedule');
    const file = path.join(r.dir, 'people', 'hallway', 'ben.json');
    const saved = JSON.parse(await readFile(file, 'utf8')) as StoredRecommendation;
    expect(saved.outfit).toBe('Warm coat for male, scarf.');
    await writeFile(path.join(r.dir, 'people', 'hallway', 'cleo.json'), '{"outfit": trunc');
    const again = await rig({ dir: r.dir });
    const people = again.h.people(again.clock.now());
    expect(people.map((p) => p.rec?.outfit ?? null)).toEqual([
      'Warm coat for female, scarf.',
      'Warm coat for male, scarf.',
      null,
    ]);
    expect(again.logText()).toContain('E_STATE_READ');
    expect(again.logText()).toContain('cleo.json');
    expect(again.sent).toHaveLength(0);
  });

  it('a failed purchase never replaces a last good answer', async () => {
    const dir = await stateDir();
    await mkdir(path.join(dir, 'people', 'hallway'), { recursive: true });
    const old = rec({ outfit: 'Old coat.', fetchedAt: new Date(START - 3_600_000).toISOString() });
    await writeFile(path.join(dir, 'people', 'hallway', 'anna.json'), JSON.stringify(old));
    const r = await rig({ dir, answer: () => ({ kind: 'failed', error: new ServiceError('boom', { status: 500 }) }) });
    const out = await r.h.fetch('schedule');
    expect(out.kind).toBe('failed');
    expect(r.h.people(r.clock.now())[0]?.rec?.outfit).toBe('Old coat.');
    expect(JSON.parse(await readFile(path.join(dir, 'people', 'hallway', 'anna.json'), 'utf8'))).toEqual(old);
  });

  it('a person who runs cold gets the garments their own feels-like demands, listed in their state', async () => {
    const r = await rig({
      offsets: { ben: -5 },
      answer: () => ({
        kind: 'fresh',
        rec: rec({ outfit: 'A light jacket and jeans.', weather: COLD, fetchedAt: null }),
      }),
    });
    await r.h.fetch('schedule');
    const [anna, ben] = r.h.people(r.clock.now());
    expect(anna?.additions).toEqual([]);
    expect(ben?.offsetC).toBe(-5);
    expect(ben?.additions.length).toBeGreaterThan(0);
    const json = personState(ben!, 'Europe/Berlin');
    expect(json).toMatchObject({ id: 'ben', name: 'Ben', offset_c: -5, away: false, stale: false });
    expect(json.additions).toEqual(ben?.additions);
    expect(json.garments).toContain('jacket');
    expect(json.fetched_at).toBe('2027-01-11T10:00:00.000+01:00');
  });

  it('an answer is stale by the schedule per person', async () => {
    const r = await rig();
    await r.h.fetch('schedule');
    r.away.add('anna');
    r.clock.advance(40 * 60_000);
    await r.h.fetch('schedule');
    const people = r.h.people(r.clock.now(), (at) => new Date(at + 35 * 60_000));
    expect(people.map((p) => p.stale)).toEqual([true, false, false]);
  });

  it('an answer that cannot be saved is still shown, and is the display’s state problem until one is saved', async () => {
    const dir = await stateDir();
    // The people's folder taken by a file: every save fails.
    await mkdir(path.join(dir, 'people'), { recursive: true });
    await writeFile(path.join(dir, 'people', 'hallway'), 'not a folder');
    const r = await rig({ dir });
    const out = await r.h.fetch('schedule');
    expect(out.kind).toBe('fresh');
    expect(r.h.people(r.clock.now()).every((p) => p.rec !== null)).toBe(true);
    expect(r.h.storeProblem).toMatchObject({
      code: 'E_STATE_WRITE',
      file: expect.stringContaining('hallway') as unknown,
    });
    expect(r.logText()).toContain('E_STATE_WRITE');
  });
});
