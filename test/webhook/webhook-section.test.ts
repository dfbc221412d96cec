import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveSchedules } from '../../src/budget/planner.js';
import { loadConfig } from '../../src/config/load.js';
import { buildPublishers } from '../../src/daemon/publishers.js';
import { configYaml } from '../helpers/config-yaml.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { testViews } from '../helpers/views.js';
import { capturingLogger } from '../helpers/capturing-logger.js';

/** The webhook's config section and its place in the publishers' registry (its POSTs: webhook-publisher.int.test.ts). */

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((c) => c()));
});

describe('the webhook section', () => {
  async function load(section: readonly string[]) {
    const dir = await mkdtemp(path.join(tmpdir(), 'webhook-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'config.yaml');
    await writeFile(file, configYaml({ timezone: 'UTC', displays: [{ id: 'hall' }], sections: section }));
    return loadConfig(file, { env: {} });
  }

  it('refuses a login in the URL without repeating it, and the headers the POST sets itself', async () => {
    const err = (await load(['webhook:', '  url: "https://owner:pa55word@ha.local/api/webhook/x"']).catch(
      (e: unknown) => e,
    )) as Error;
    expect(err.message).toMatch(/webhook\.url: must not carry a login \(user:password@host\)/);
    expect(err.message).not.toContain('pa55word');
    const headers = (await load([
      'webhook:',
      '  url: "http://ha.local:8123/api/webhook/x"',
      '  headers:',
      '    Content-Type: text/plain',
    ]).catch((e: unknown) => e)) as Error;
    expect(headers.message).toMatch(/webhook\.headers\.Content-Type: is set by the webhook itself/);
    const ftp = (await load(['webhook:', '  url: "ftp://ha.local/x"']).catch((e: unknown) => e)) as Error;
    expect(ftp.message).toMatch(/webhook\.url: must be an absolute http\(s\) URL/);
  });

  it('is built by the registry when the config has it, and not otherwise', async () => {
    const build = async (section: readonly string[]) => {
      const loaded = await load(section);
      const clock = new FakeClock();
      const deps = {
        logger: capturingLogger().logger,
        clock,
        views: testViews({ displays: loaded.config.displays, clock }).views,
        runs: { refresh: () => Promise.resolve(null) },
        schedules: resolveSchedules(loaded.config),
        refreshUnavailable: null,
      };
      return (await buildPublishers(loaded, deps)).map((p) => p.name);
    };
    expect(await build(['webhook:', '  url: "http://127.0.0.1:9/hook"', '  timeout_s: 5'])).toEqual([
      'files',
      'webhook',
    ]);
    expect(await build([])).toEqual(['files']);
  });
});
