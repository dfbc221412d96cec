import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { codesIn } from '../../src/shared/codes.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { createLogger } from '../../src/log/logging.js';
import { HttpPublisher } from '../../src/http/http-publisher.js';
import { RefusalLog } from '../../src/log/refusal-log.js';
import { W_PAIRING_FILE } from '../../src/trmnl/pairing.js';
import { ROOT } from '../helpers/cli.js';
import { display } from './fixtures.js';
import { testViews } from '../helpers/views.js';

const MAC = 'AA:BB:CC:DD:EE:01';
const TOKEN = 'tok-hallway-0123456789';

/** The production logger (pino JSON, as the journal gets it) into memory, counting bytes and keeping the lines. */
function productionLog(): {
  logger: ReturnType<typeof createLogger>;
  bytes: () => number;
  lines: () => Record<string, unknown>[];
} {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  });
  const logger = createLogger({ level: 'info', secrets: [TOKEN], destination: sink });
  return {
    logger,
    bytes: () => Buffer.byteLength(text),
    lines: () =>
      text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

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
      const log = productionLog();
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
      // The figure for test/RELIABILITY.md: log bytes under the flood (before the fix: 870,141 bytes, a line a request).
      console.log(`flood: 5000 wrong-token requests in ${Math.round(ms)} ms wrote ${bytes} log bytes`);
      expect(bytes).toBeLessThan(2_000);
      expect(JSON.stringify(log.lines())).not.toContain(TOKEN);
    },
  );

  it('several sources: each its own first line and minute; a quiet source is summed up once, then forgotten', () => {
    const clock = new FakeClock(0);
    const log = productionLog();
    const r = new RefusalLog({ logger: log.logger, clock, intervalMs: 60_000 });
    r.refuse('10.0.0.1', 'W_TRMNL_TOKEN_WRONG', { mac: MAC });
    r.refuse('10.0.0.2', 'W_TRMNL_UNKNOWN_DEVICE', { mac: null });
    clock.advance(10_000);
    for (let i = 0; i < 3; i++) r.refuse('10.0.0.1', 'W_TRMNL_TOKEN_MISSING', { mac: MAC });
    r.refuse('10.0.0.1', 'W_TRMNL_TOKEN_WRONG', { mac: MAC });
    expect(log.lines().map((l) => [l.source, l.count])).toEqual([
      ['10.0.0.1', 1],
      ['10.0.0.2', 1],
    ]);
    clock.advance(50_000);
    // 10.0.0.1 had 4 more: one line with the count and the codes; 10.0.0.2 had none: no line, and it is forgotten.
    expect(log.lines().slice(2)).toEqual([
      expect.objectContaining({
        source: '10.0.0.1',
        count: 4,
        code: 'W_TRMNL_TOKEN_MISSING',
        codes: { W_TRMNL_TOKEN_MISSING: 3, W_TRMNL_TOKEN_WRONG: 1 },
      }),
    ]);
    expect(r.sources).toBe(1);
    clock.advance(60_000);
    expect(r.sources).toBe(0);
    expect(log.lines()).toHaveLength(3);
    // A source that comes back after its minute starts again with a line at once.
    r.refuse('10.0.0.2', 'W_HTTP_HOST_REFUSED', { host: 'evil.example' });
    expect(log.lines().at(-1)).toMatchObject({ source: '10.0.0.2', count: 1, code: 'W_HTTP_HOST_REFUSED' });
  });

  it('memory stays bounded: past maxSources, new sources share the source "other"', () => {
    const clock = new FakeClock(0);
    const log = productionLog();
    const r = new RefusalLog({ logger: log.logger, clock, maxSources: 3 });
    for (let i = 0; i < 1_000; i++) r.refuse(`fd00::${i.toString(16)}`, 'W_TRMNL_UNKNOWN_DEVICE', {});
    expect(r.sources).toBe(4);
    expect(log.lines()).toHaveLength(4);
    r.flush();
    expect(log.lines().at(-1)).toMatchObject({ source: 'other', count: 996 });
    expect(r.sources).toBe(0);
  });

  it.each([...codesIn('http-refusal'), W_PAIRING_FILE])('%s is documented in docs/reference/http.md', (code) => {
    expect(readFileSync(path.join(ROOT, 'docs/reference/http.md'), 'utf8')).toMatch(new RegExp(`\\| \`${code}\` \\|`));
  });
});
