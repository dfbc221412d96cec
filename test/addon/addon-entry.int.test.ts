import { readFile, stat } from 'node:fs/promises';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { buildDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { EXIT } from '../../src/shared/exit-codes.js';
import { DEMO_API_KEY } from '../../src/service-sim/server.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { freePort } from '../helpers/free-port.js';
import { entry, form } from './entry.js';

/** The add-on's entry, then the daemon built from what it wrote, with its HTTP server (the entry alone: addon-entry.test.ts). */

let daemon: Daemon | null = null;
afterEach(async () => {
  await daemon?.stop();
  daemon = null;
});

describe('add-on entry', () => {
  it('options with the simulated service become a daemon that draws a frame and keeps its state', async () => {
    const port = await freePort();
    // The user's file moves the HTTP server onto loopback (the add-on's 0.0.0.0:8321 would be taken or exposed here).
    const r = await entry(
      { ...form, api_key: DEMO_API_KEY, api_base_url: 'simulated', timezone: 'Europe/Berlin' },
      `http:\n  listen: 127.0.0.1:${port}\n`,
    );
    expect(r.err).toEqual([]);
    expect(r.code).toBe(EXIT.OK);
    const loaded = await loadConfig(r.file('config.yaml'), { env: {} });
    const { logger, text } = capturingLogger();
    daemon = await buildDaemon({ loaded, logger });
    const results = await daemon.runOnce();
    expect([...results.values()].map((x) => x.published)).toEqual([true]);
    const png = PNG.sync.read(await readFile(r.file('frames/hallway.png')));
    expect([png.width, png.height]).toEqual([800, 480]);
    expect((await stat(r.file('frames/hallway.json'))).isFile()).toBe(true);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    await daemon.stop();
    daemon = null;
    // The state in state_dir: the last good answer and the credit ledger.
    expect((await stat(r.file('state/last/hallway.json'))).isFile()).toBe(true);
    expect((await stat(r.file('state/budget-ledger.json'))).isFile()).toBe(true);
    expect(text()).not.toContain(DEMO_API_KEY);
  });
});
