import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../helpers/fake-clock.js';
import { HttpPublisher } from '../../src/http/http-publisher.js';
import { productionLog } from '../helpers/production-log.js';
import { testViews } from '../helpers/views.js';
import { display } from '../fixtures/display.js';

const MAC = 'AA:BB:CC:DD:EE:01';
const TOKEN = 'tok-hallway-0123456789';

/** `n` GET requests over `parallel` keep-alive connections; resolves with the count of each status. */
async function flood(
  url: string,
  headers: Record<string, string>,
  n: number,
  parallel = 8,
): Promise<Map<number, number>> {
  const agent = new Agent({ keepAlive: true, maxSockets: parallel });
  const statuses = new Map<number, number>();
  let sent = 0;
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(url, { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
          resolve();
        });
      });
      req.on('error', reject);
      req.end();
    });
  const worker = async (): Promise<void> => {
    while (sent < n) {
      sent++;
      await one();
    }
  };
  try {
    await Promise.all(Array.from({ length: parallel }, worker));
  } finally {
    agent.destroy();
  }
  return statuses;
}

describe('TRMNL refusals in the log', () => {
  const started: HttpPublisher[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.stop()));
  });

  it(
    'a flood of 5,000 wrong-token requests writes one line at once and one summary a minute, not one a request',
    { timeout: 60_000 },
    async () => {
      const clock = new FakeClock(Date.parse('2026-01-31T07:00:00.000Z'));
      const log = productionLog([TOKEN]);
      const pViews = testViews({ displays: [display('hallway', { panel: 'trmnl' })], clock });
      const p = new HttpPublisher({
        listen: '127.0.0.1:0',
        displays: [display('hallway', { panel: 'trmnl' })],
        views: pViews.views,
        timezone: 'Europe/Berlin',
        clock,
        trmnlDevices: [{ mac: MAC, display: 'hallway' }],
        trmnlTokens: new Map([[MAC, TOKEN]]),
        logger: log.logger,
      });
      started.push(p);
      await p.start();
      const t0 = performance.now();
      const statuses = await flood(`${p.url!}/api/display`, { ID: MAC, 'Access-Token': 'wrong-token-0000' }, 5_000);
      const ms = performance.now() - t0;
      // Five wrong tokens are answered 403; then the address is slowed: 429 for the rest of the minute.
      expect(Object.fromEntries(statuses)).toEqual({ 403: 5, 429: 4_995 });
      const refused = () =>
        log.lines().filter((l) => l.code === 'W_TRMNL_TOKEN_WRONG' || l.code === 'W_TRMNL_TOKEN_THROTTLED');
      expect(refused()).toHaveLength(1);
      expect(refused()[0]).toMatchObject({
        code: 'W_TRMNL_TOKEN_WRONG',
        source: '127.0.0.1',
        count: 1,
        mac: MAC,
        endpoint: '/api/display',
      });
      // The minute ends: one line sums up the rest.
      clock.advance(60_000);
      expect(refused()).toHaveLength(2);
      expect(refused()[1]).toMatchObject({
        code: 'W_TRMNL_TOKEN_THROTTLED',
        source: '127.0.0.1',
        count: 4_999,
        codes: { W_TRMNL_TOKEN_WRONG: 4, W_TRMNL_TOKEN_THROTTLED: 4_995 },
      });
      log.logger.flush();
      const bytes = log.bytes();
      // The figure for test/RELIABILITY.md: log bytes under the flood (a line a request would be about 870 KB).
      console.log(`flood: 5000 wrong-token requests in ${Math.round(ms)} ms wrote ${bytes} log bytes`);
      expect(bytes).toBeLessThan(2_000);
      expect(JSON.stringify(log.lines())).not.toContain(TOKEN);
    },
  );
});
