import { randomInt } from 'node:crypto';
import { seededRandom } from '../../src/service-sim/weather.js';

/** A seed and the numbers in [0, 1) it draws (mulberry32). */
export interface SeededDraws {
  seed: number;
  random: () => number;
}

/**
 * The draws a test uses to choose its random delays and faults. A fresh seed each run keeps exploring new timings;
 * the test puts the seed in its name and failure messages, and TEST_SEED=N replays that exact run (the same seed
 * gives the same sequence of draws, so the same kill moments).
 */
export function seededDraws(env: NodeJS.ProcessEnv = process.env): SeededDraws {
  const given = env.TEST_SEED;
  const seed = given !== undefined && given !== '' ? Number(given) : randomInt(0, 2 ** 31);
  if (!Number.isSafeInteger(seed)) throw new Error(`TEST_SEED must be an integer, got ${given}`);
  return { seed, random: seededRandom(seed) };
}
