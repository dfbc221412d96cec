import { defineConfig } from 'vitest/config';
import { INTEGRATION, SYSTEM } from './test/tiers.js';

// Three tiers (test/tiers.ts, docs/development.md): `vitest run --project fast` is `npm test`; `vitest run` all.
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
        test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: [...INTEGRATION, ...SYSTEM], setupFiles: ['./test/tier-guard.ts'] },
      },
      { extends: true, test: { name: 'integration', include: INTEGRATION, exclude: SYSTEM } },
      { extends: true, test: { name: 'system', include: SYSTEM } },
    ],
  },
});
