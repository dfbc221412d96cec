import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, simulatedConfig, tempConfig } from '../helpers/cli.js';
import { startNodeCli, watchProcess } from '../helpers/daemon-process.js';
import { until } from '../helpers/until.js';

/**
 * `run` has its zone's offsets made by Intl in a short-lived child (daemon/zone-table-child.ts), so that the daemon
 * itself never builds an Intl formatter, which would keep about 8 MB resident for as long as it runs. Its days and
 * timestamps stay Intl's to the second (test/time/zone-table.test.ts).
 */

const INTL_PRELOAD = path.join(ROOT, 'test/helpers/intl-count.js');

/** Intl's offset of Berlin at `t`, as ISO 8601 writes it ("+01:00"). */
function berlinOffset(t: number): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', timeZoneName: 'longOffset' }).formatToParts(t).find((p) => p.type === 'timeZoneName')?.value;
  return name === 'GMT' ? '+00:00' : (name ?? '').slice(3);
}

describe('run: the daemon builds no Intl formatter', () => {
  it('its zone table comes from a child; its pages and files carry Intl\'s offsets; only the render process formats with Intl', async () => {
    const { dir, file } = await tempConfig(`${simulatedConfig()}http:\n  listen: 127.0.0.1:0\n`);
    const intlLog = path.join(dir, 'intl.log');
    const child = startNodeCli(['run', '--config', file], {
      nodeArgs: ['--import', pathToFileURL(INTL_PRELOAD).href],
      // A temporary folder of its own: no Intl cache (render/intl-disk-cache.ts) of an earlier render process here.
      env: { OUTFIT_TEST_INTL_LOG: intlLog, TMPDIR: dir },
    });
    const { output, exited } = watchProcess(child);
    try {
      await until('the daemon to start', () => output().includes('"msg":"daemon started"'), { context: output });
      const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)","msg":"HTTP frame server listening"/.exec(output())?.[1];
      expect(url).toBeDefined();
      // The pages that show times in the zone: /healthz (a container's health check asks it every 30 s) and the status page.
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const page = await (await fetch(`${url}/`)).text();
      expect(page).toMatch(/Next update<\/th><td>(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2,3}, \d\d:\d\d/);
      const answer = JSON.parse(await readFile(path.join(dir, 'frames/hallway.json'), 'utf8')) as { fetched_at: string };
      expect(answer.fetched_at.endsWith(berlinOffset(Date.parse(answer.fetched_at)))).toBe(true);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
    const built = readFileSync(intlLog, 'utf8').trim().split('\n');
    // The preload sees formatters: the render process's, which writes the frame's dates in the display's language.
    expect(built.filter((l) => l.startsWith('render-worker ')).length).toBeGreaterThan(0);
    expect(built.filter((l) => !l.startsWith('render-worker '))).toEqual([]);
    expect(output()).not.toContain('W_ZONE_TABLE');
  });
});
