import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { ALL, INTEGRATION, OWN_MODULES, SYSTEM } from './test/tiers.js';

// Three tiers by file suffix (test/tiers.ts, docs/contributing/development.md): the fast tier is two projects, `fast` and
// `fast-own-modules` (`npm test`); `vitest run` runs all.
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './test/summary-reporter.ts'],
    setupFiles: ['./test/fast-check-setup.ts', './test/assertions-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: [ALL],
          exclude: [INTEGRATION, SYSTEM, ...OWN_MODULES],
          setupFiles: ['./test/tier-guard.ts'],
          // Pure computation: a worker on every core (vitest's default leaves one free, which on a 2-core machine
          // halves the speed). The other tiers keep that free core for the processes and brokers they start.
          maxWorkers: availableParallelism(),
          // One module registry a worker, not one a file: canvas, the fonts and the panels load once (test/tiers.ts).
          isolate: false,
          // Tiers with different worker counts run one after the other (vitest requires it): fast, then the others.
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'fast-own-modules',
          include: OWN_MODULES,
          setupFiles: ['./test/tier-guard.ts'],
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'integration', include: [INTEGRATION], sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'system', include: [SYSTEM], sequence: { groupOrder: 1 } } },
    ],
  },
});
