/**
 * The test tiers (docs/contributing/development.md). A test file is in the fast tier unless it is listed here:
 * `npm test` runs the fast tier, `npm run test:all` and `.ci/run` run all three. The fast tier's guard (tier-guard.ts)
 * fails a test that starts a process or opens a server, so a file that needs one cannot stay in the fast tier by
 * mistake.
 */

/** Tests that start processes (the CLI, the render child, Mosquitto, Chromium) or servers on 127.0.0.1. */
export const INTEGRATION = [
  'test/cli/**/*.test.ts',
  'test/daemon/**/*.test.ts',
  'test/firmware/**/*.test.ts',
  'test/http/**/*.test.ts',
  'test/logging/**/*.test.ts',
  'test/mqtt/**/*.test.ts',
  'test/oepl/**/*.test.ts',
  'test/security/**/*.test.ts',
  'test/service-sim/**/*.test.ts',
  'test/systemd/**/*.test.ts',
  'test/webhook/**/*.test.ts',
  'test/addon/addon-entry.test.ts',
  'test/api/client.test.ts',
  'test/api/tolerant-reader.test.ts',
  'test/budget/month-sim.test.ts',
  // The measured day (simulate --day): a daemon and its HTTP server in the process (also under test/firmware/**).
  'test/firmware/day-report.test.ts',
  'test/firmware/esphome-day.test.ts',
  'test/config/check-config.test.ts',
  'test/config/secrets.test.ts',
  'test/epd/daemon-panel.test.ts',
  'test/property/long-words.property.test.ts',
  'test/render/render-process.test.ts',
];

/**
 * Tests that take minutes, or install, kill or attack the whole daemon: the fault matrix, the 90-day soak, install.sh
 * and the unit under systemd's protocol, the demo built from nothing, OCR of the small text, the hostile broker. They run once a CI run, on the
 * machine's Node (.ci/run), not again on each later major.
 */
export const SYSTEM = [
  'test/cli/demo-start.test.ts',
  'test/faults/**/*.test.ts',
  'test/soak/**/*.test.ts',
  'test/systemd/install.test.ts',
  'test/systemd/lifecycle.test.ts',
  'test/systemd/panel-dropin.test.ts',
  'test/render/small-text-reader.test.ts',
  'test/daemon/hostile-broker.test.ts',
];
