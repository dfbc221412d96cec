/**
 * The test tiers (docs/contributing/development.md), chosen by what a test does and named in its file's suffix,
 * wherever the file sits: `npm test` runs the fast tier, `npm run test:all` and `.ci/run` run all three. The fast
 * tier's guard (tier-guard.ts) fails a test that starts a process or opens a server, so a file that needs one cannot
 * stay in the fast tier by mistake.
 */

/** Every test file: `*.test.ts` alone is fast (pure code on the fake clock, no process, no server). */
export const ALL = 'test/**/*.test.ts';

/**
 * `*.int.test.ts`: starts processes (the CLI, the render child, Mosquitto, Chromium) or opens servers on 127.0.0.1.
 * Run on every Node major by .ci/run.
 */
export const INTEGRATION = 'test/**/*.int.test.ts';

/**
 * `*.sys.test.ts`: takes minutes, or installs, kills or attacks the whole daemon (the fault matrix, the 90-day soak,
 * install.sh and the unit under systemd's protocol, the demo built from nothing, OCR of the small text, the hostile
 * broker). Run once a CI run, on the machine's Node (.ci/run), not again on each later major.
 */
export const SYSTEM = 'test/**/*.sys.test.ts';

/**
 * Fast files that replace a module of src/ (`vi.mock`): they get a module registry of their own (vitest's `isolate`).
 * The rest of the fast tier shares one a worker, which saves each file the load of canvas, the fonts and the panels
 * (a third of `npm test`'s time); a mock there would apply to whichever file loaded the module first, or to none.
 * test/house/own-modules.test.ts fails a `vi.mock` in a fast file not listed here.
 */
export const OWN_MODULES = ['test/render/long-words.test.ts'];
