import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FetchReason } from '../../src/budget/governor-types.js';
import { simHttpControl } from '../helpers/service-sim-process.js';
import { daemonTests, type DaemonRig } from '../daemon/helpers.js';
import { codeless, logLines } from './log-lines.js';

/**
 * Every warning and error the daemon logs carries a stable code (`err.code` E_… or `code` W_…), so that
 * `jq 'select(.level >= 40) | .err.code // .code'` names every problem. The daemon is driven through every fault the
 * simulated service can commit and a state folder it cannot write.
 */

const t = daemonTests({ broker: false });

/** One cycle, with the fake clock moved to each timer the governor sets (retry and Retry-After waits) until it ends. */
async function cycle(r: DaemonRig, reason: FetchReason = 'once'): Promise<void> {
  let done = false;
  const run = r.daemon.runOnce('hallway', reason).finally(() => (done = true));
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    if (r.clock.pendingTimers() > 0) r.clock.runNext();
  }
  await run;
}

describe('every warn and error log line carries a code', () => {
  it('through every fault of the service, a state file that cannot be saved and a revoked key', async () => {
    const r = await t.rig({
      api: 'timeout_s: 0.3\n  response_timeout_s: 0.3',
      prepare: (dir) =>
        mkdir(path.join(dir, 'state', 'last', 'hallway.json'), { recursive: true }).then(() => undefined),
    });
    const sim = simHttpControl(r.daemon.baseUrl);
    const faults: Record<string, unknown>[] = [
      { kind: 'status', status: 500, count: 3 },
      { kind: 'status', status: 503, error: 'upstream model overloaded', count: 3 },
      { kind: 'reset', count: 3 },
      { kind: 'rate_limit', retry_after: '2' },
      { kind: 'malformed_json' },
      { kind: 'wrong_type', field: 'weather.temp' },
      { kind: 'missing_field', field: 'outfit' },
      { kind: 'html_error', count: 3 },
      { kind: 'slow', delay_ms: 5000, count: 3 },
      { kind: 'status', status: 400, error: 'lat is required' },
    ];
    for (const f of faults) {
      await sim.clearFaults();
      await sim.injectFault(f);
      await cycle(r);
      // Past the governor's backoff after a failed cycle (30 min at most), so that the next fault is met.
      r.clock.advance(31 * 60_000);
    }
    await sim.clearFaults();
    await sim.injectFault({ kind: 'status', status: 401, error: 'API key has been revoked', count: 5 });
    await cycle(r);
    await cycle(r, 'schedule');

    const lines = logLines(r.logText());
    const codes = new Set(lines.map((l) => l.err?.code ?? l.code));
    // The faults were met (not a run in which nothing went wrong): each of these was logged.
    for (const code of [
      'E_SERVICE',
      'E_RATE_LIMITED',
      'E_BAD_RESPONSE',
      'E_TIMEOUT',
      'E_STATE_WRITE',
      'E_KEY_REJECTED',
      'W_RESPONSE_SHAPE',
    ]) {
      expect(codes, code).toContain(code);
    }
    expect(codeless(lines)).toEqual([]);
  });

  it('with a budget ledger that cannot be written', async () => {
    const r = await t.rig({
      prepare: (dir) =>
        mkdir(path.join(dir, 'state', 'budget-ledger.json.tmp'), { recursive: true }).then(() => undefined),
    });
    await cycle(r, 'schedule');
    const lines = logLines(r.logText());
    expect(lines.map((l) => l.err?.code)).toContain('E_STATE_WRITE');
    expect(codeless(lines)).toEqual([]);
  });
});
