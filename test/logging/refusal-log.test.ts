import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RefusalLog } from '../../src/log/refusal-log.js';
import { codesIn } from '../../src/shared/codes.js';
import { W_PAIRING_FILE } from '../../src/trmnl/pairing.js';
import { ROOT } from '../helpers/cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { productionLog } from '../helpers/production-log.js';

/**
 * Refused requests in the log (the TRMNL endpoints' wrong tokens, foreign Hosts): a source's first refusal at once,
 * the rest of its minute summed up in one line, memory bounded. A flood through the real server is in
 * test/http/trmnl-refusals.int.test.ts.
 */

const MAC = 'AA:BB:CC:DD:EE:01';

describe('the refusal log', () => {
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
