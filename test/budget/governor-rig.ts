import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type pino from 'pino';
import type { StoredRecommendation } from '../../src/api/schemas.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { Governor, type FetchOutcome, type FetchReason } from '../../src/budget/governor.js';
import { LEDGER_FILE } from '../../src/budget/ledger.js';
import type { Config } from '../../src/config/schema.js';
import { fakeClient, type Answer } from './fake-client.js';
import { berlin, drive, makeConfig, stateDir } from './helpers.js';

/** A Governor on a FakeClock with a scripted client: the rig of the governor's tests. */

export const START = berlin('2027-01-11T10:00:00');

export interface Rig {
  clock: FakeClock;
  governor: Governor;
  dir: string;
  config: Config;
  fake: ReturnType<typeof fakeClient>;
  fetch: (reason?: FetchReason, id?: string, last?: StoredRecommendation | null) => Promise<FetchOutcome>;
  run: (...ps: Array<Promise<FetchOutcome>>) => Promise<FetchOutcome[]>;
  ledger: () => Promise<Record<string, unknown>>;
}

export async function rig(
  raw: Record<string, unknown> = {},
  script: Answer[] = [],
  opts: { dir?: string; clock?: FakeClock; logger?: pino.Logger; syncStamp?: () => number | null } = {},
): Promise<Rig> {
  const clock = opts.clock ?? new FakeClock(START);
  const dir = opts.dir ?? (await stateDir());
  const config = makeConfig(raw);
  const counting = clock.view();
  const fake = fakeClient(clock, script);
  const governor = new Governor({
    config,
    stateDir: dir,
    client: fake.client,
    clock: counting,
    random: () => 0.5,
    ...(opts.logger && { logger: opts.logger }),
    ...(opts.syncStamp && { syncStamp: opts.syncStamp }),
  });
  await governor.load();
  const fetch = (
    reason: FetchReason = 'schedule',
    id?: string,
    last: StoredRecommendation | null = null,
  ): Promise<FetchOutcome> => {
    const d = config.displays.find((x) => x.id === (id ?? config.displays[0]!.id))!;
    return governor.fetch(d, reason, last);
  };
  const run = (...ps: Array<Promise<FetchOutcome>>): Promise<FetchOutcome[]> => drive(clock, counting.pending, ps);
  const ledger = async (): Promise<Record<string, unknown>> =>
    JSON.parse(await readFile(path.join(dir, LEDGER_FILE), 'utf8')) as Record<string, unknown>;
  return { clock, governor, dir, config, fake, fetch, run, ledger };
}

export const one = async (r: Rig, reason?: FetchReason, last?: StoredRecommendation | null): Promise<FetchOutcome> =>
  (await r.run(r.fetch(reason, undefined, last)))[0]!;
