/**
 * Property tests explore new random cases on every developer run; in CI (CI=true) they replay one fixed seed, so a
 * submission's result does not depend on the draw. FC_SEED=N replays any seed a failure printed. fast-check is loaded
 * only to set that seed: a file that draws nothing does not pay for it.
 */
const seed = process.env.FC_SEED ?? (process.env.CI ? '20261121' : undefined);
if (seed !== undefined) {
  const { default: fc } = await import('fast-check');
  fc.configureGlobal({ seed: Number(seed) });
}
