import fc from 'fast-check';

/**
 * Property tests explore new random cases on every developer run; in CI (CI=true) they replay one fixed seed, so a
 * submission's result does not depend on the draw. FC_SEED=N replays any seed a failure printed.
 */
const seed = process.env.FC_SEED ?? (process.env.CI ? '20261121' : undefined);
if (seed !== undefined) fc.configureGlobal({ seed: Number(seed) });
