import { mkdir, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { CYCLE_BACKOFF } from '../../src/budget/cycle-backoff.js';
import type { SeededDraws } from '../helpers/seeded-draws.js';
import { GOOD } from './flows.js';
import { sleep, TOPIC, type Scenario } from './harness.js';

/**
 * kill -9 at random moments during frequent cycles, in rounds of three kinds (during the start, once it runs, at the
 * moment a temp file appears), with the checks after each kill a scenario asks for; then a clean start that finds no
 * torn ledger and leaves no temp file behind. The moments come from seeded draws: TEST_SEED=<seed> replays them.
 */

export interface KillRoundsOptions {
  /** Created, not started. With `stepBackoffs`, made with `clock: true`. */
  s: Scenario;
  draws: SeededDraws;
  /** How many kills (a multiple of 3: each kind as often). */
  rounds: number;
  /** The folders the daemon writes in: a kill at a write watches them, and none may keep a temp file at the end. */
  dirs: readonly string[];
  /**
   * What must hold after each kill and after the clean stop (no torn file, the ledger covers what the service
   * charged); throws otherwise. `daemonTime` maps an instant of this process's clock (the simulated service's) to the
   * daemon's, which `stepBackoffs` moves ahead.
   */
  check: (daemonTime: (t: number) => number) => Promise<void>;
  /**
   * Steps the daemon's clock past the backoff a kill left (a paid request it cut off, a failure) before the next
   * start, instead of waiting it out in real time (1, 2, 4 min …): the rounds stay within a minute or two.
   */
  stepBackoffs?: boolean;
  /**
   * With `stepBackoffs`: steps the daemon's clock at least this much ahead before each start, so that what the last run
   * bought is older than the purchase pool's sharing window and each start buys again.
   */
  stepEachStartMs?: number;
  /** Called every few hundred ms for as long as the rounds run, whether or not the daemon runs (MQTT votes, say). */
  meanwhile?: () => Promise<void>;
}

/** What the daemon is given to show a sign of life once a backoff it holds has ended. */
const SIGN_OF_LIFE_MS = 90_000;

export async function killRounds(o: KillRoundsOptions): Promise<void> {
  const { s, draws, dirs } = o;
  const { random } = draws;
  const delays: number[] = [];
  /** The daemon's clock offset from this process's, from when (ms here) it applied. */
  const steps: Array<{ from: number; offset: number }> = [{ from: 0, offset: 0 }];
  const offset = (): number => steps[steps.length - 1]?.offset ?? 0;
  const daemonTime = (t: number): number => t + ([...steps].reverse().find((x) => x.from <= t)?.offset ?? 0);
  const check = async (when: string): Promise<void> => {
    try {
      await o.check(daemonTime);
    } catch (err) {
      throw new Error(`${when} (TEST_SEED=${draws.seed}; kill delays so far: ${delays.join(', ')} ms): ${String(err)}`);
    }
  };
  // A start first waits out the backoff the ledger holds: each kill that cut a paid request off is a failure, and
  // failures in a row double it (src/budget/cycle-backoff.ts). What the daemon is given to show a sign of life: that
  // wait, then 90 s. Stepping its clock instead: past the backoff, and past the one a request still in flight (cut
  // off) makes at the start (its failure counted from its send).
  const within = async (): Promise<number> => {
    const ledger = await s.ledger().catch(() => null);
    const now = Date.now() + offset();
    const until = ledger?.backoff?.until ?? 0;
    if (o.stepBackoffs !== true) return Math.max(0, until - now) + SIGN_OF_LIFE_MS;
    const sent = Math.max(...(ledger?.in_flight ?? []));
    const step = Math.min(CYCLE_BACKOFF.maxMs, CYCLE_BACKOFF.baseMs * 2 ** (ledger?.backoff?.failures ?? 0));
    const past = Math.max(until + 2_000, sent + step + 2_000, now + (o.stepEachStartMs ?? 0));
    if (past > now) {
      steps.push({ from: Date.now(), offset: offset() + past - now });
      await s.setClockOffset(offset());
    }
    return SIGN_OF_LIFE_MS;
  };
  let running = true;
  const background = (async () => {
    while (running && o.meanwhile !== undefined) {
      await o.meanwhile();
      await sleep(300);
    }
  })();
  try {
    for (const d of dirs) await mkdir(d, { recursive: true });
    const atWrite: string[] = [];
    for (let round = 0; round < o.rounds; round++) {
      if (round % 3 === 2) {
        // The moment a temp file appears: in the middle of a write (or just after it).
        // A start after a kill that cut a paid request off writes nothing new until its backoff ends.
        const timeoutMs = await within();
        await s.start();
        const hit = await s.killAtNextWrite(dirs, { skip: Math.floor(random() * 6), timeoutMs });
        delays.push(-1);
        if (hit !== null) atWrite.push(`${hit.name}${hit.midWrite ? ' (mid-write)' : ''}`);
      } else if (round % 3 === 0) {
        // A random moment during the start: the ledger read, the restored frame's first writes.
        await within();
        await s.start();
        const delay = Math.round(100 + random() * 1400);
        delays.push(delay);
        await sleep(delay);
        await s.kill9();
      } else {
        // A random moment once it runs: after a cycle completed, somewhere in the next one (every 2 s). A kill
        // before it that cut a paid request off leaves a backoff that this start waits out.
        const mark = s.mark();
        const timeoutMs = await within();
        await s.start({ wait: true });
        await s.waitLog((l) => l.msg === GOOD, { after: mark, timeoutMs });
        const delay = Math.round(random() * 2500);
        delays.push(delay);
        await sleep(delay);
        await s.kill9();
      }
      await check(`after kill ${round + 1}`);
    }
    expect(atWrite.length, `kills at a write: ${atWrite.join(', ')}`).toBe(o.rounds / 3);
    // The last will: the broker tells everyone the daemon is gone.
    expect((await s.retained([TOPIC.status])).get(TOPIC.status)?.toString()).toBe('offline');
    // A kill in the middle of a write leaves its temp file (never renamed, so never torn in place). Made old enough
    // (a minute, so as not to be a write in progress), they are removed at the next start.
    const leftovers = (
      await Promise.all(dirs.map(async (d) => (await s.tempFiles(d)).map((n) => path.join(d, n))))
    ).flat();
    const old = new Date(Date.now() + offset() - 120_000);
    await Promise.all(leftovers.map((f) => utimes(f, old, old)));
    // A clean start after all that: the ledger was never found torn, and the daemon works.
    const mark = s.mark();
    const timeoutMs = await within();
    await s.start();
    await s.waitLog((l) => l.msg === GOOD, { after: mark, timeoutMs });
    expect(s.findLog((l) => l.code === 'W_LEDGER_UNREADABLE')).toBeUndefined();
    await expect(stat(path.join(s.stateDir, 'budget-ledger.json.corrupt'))).rejects.toThrow();
    running = false;
    await background;
    expect(await s.stop()).toBe(0);
    await check('after the clean stop');
    const remaining = (await Promise.all(dirs.map((d) => s.tempFiles(d)))).flat();
    expect(
      remaining.filter((n) => n !== 'budget-ledger.json.tmp'),
      `left over: ${leftovers.join(', ')}`,
    ).toEqual([]);
  } finally {
    running = false;
    await background;
  }
}
