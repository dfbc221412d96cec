import { expect } from 'vitest';
import {
  DISPLAY,
  instant,
  sha256,
  TOPIC,
  type Diagnostics,
  type LogLine,
  type Scenario,
  type StateJson,
} from './harness.js';

/**
 * The checks every fault shares: (a) the last good data is kept, (b) the error is visible, (c) the daemon recovers
 * by itself once the fault ends. Each takes a running scenario.
 */

export const FAILED = 'cycle failed; last good frame kept';
export const GOOD = 'new recommendation';

export function diagnostics(s: Scenario, after = 0): Diagnostics | undefined {
  const m = s.latest(TOPIC.diagnostics, after);
  return m === undefined ? undefined : (JSON.parse(m.payload.toString()) as Diagnostics);
}

export function mqttState(
  s: Scenario,
  after = 0,
): (Record<string, unknown> & { fetched_at: string; stale: boolean; outfit: string }) | undefined {
  const m = s.latest(TOPIC.state, after);
  return m === undefined ? undefined : (JSON.parse(m.payload.toString()) as ReturnType<typeof mqttState>);
}

/** The frame the display was given just before message index `before` (the good one, before an error screen). */
export function imageBefore(s: Scenario, before: number): string | undefined {
  for (let i = before - 1; i >= 0; i--) {
    const m = s.messages[i];
    if (m?.topic === TOPIC.image) return sha256(m.payload);
  }
  return undefined;
}

/**
 * Waits until every publisher shows the current frame (the file, HTTP, MQTT agree) with `status`, and returns
 * state.json then.
 */
export async function settledFrame(s: Scenario, status: string, afterMsg: number): Promise<StateJson> {
  return s.until(`the "${status}" frame on every publisher`, async () => {
    const st = await s.stateJson();
    if (st.status !== status || st.frame === null) return null;
    const files = await s.frameFiles();
    const img = s.latest(TOPIC.image, afterMsg);
    const diag = diagnostics(s, afterMsg);
    if (
      files.pngHash !== st.frame.hash ||
      img === undefined ||
      sha256(img.payload) !== st.frame.hash ||
      diag?.status !== status
    )
      return null;
    return st;
  });
}

/** (a) The last good Recommendation is what the files, HTTP and MQTT still hold; returns the JSON file's text. */
export async function expectLastGoodKept(
  s: Scenario,
  failedAt: number,
): Promise<{ jsonText: string; fetchedAt: string }> {
  const files = await s.frameFiles();
  expect(files.json, 'the JSON file of the last good recommendation').not.toBeNull();
  const json = files.json as { fetched_at: string; outfit: string };
  expect(instant(json.fetched_at)).toBeLessThan(failedAt);
  const st = await s.stateJson();
  expect(instant(st.last_success_at)).toBe(instant(json.fetched_at));
  expect(st.outfit).toBe(json.outfit);
  const state = mqttState(s);
  expect(state, 'the retained state topic').toBeDefined();
  expect(instant(state?.fetched_at)).toBe(instant(json.fetched_at));
  expect(state?.outfit).toBe(json.outfit);
  return { jsonText: files.jsonText ?? '', fetchedAt: json.fetched_at };
}

/** (b) The error on the status page, state.json, /healthz (fresh data: 200 with the reason) and the error screen. */
export async function expectErrorVisible(
  s: Scenario,
  o: { status: string; code: string; afterMsg: number; health?: 200 | 503; healthReason?: RegExp },
): Promise<StateJson> {
  const st = await settledFrame(s, o.status, o.afterMsg);
  expect(st.last_error?.code).toBe(o.code);
  expect(st.stale).toBe(true);
  const diag = diagnostics(s, o.afterMsg);
  expect(diag?.status).toBe(o.status);
  const page = (await s.get('/')).text();
  expect(page).toContain(o.code);
  const h = await s.healthz();
  expect(h.status).toBe(o.health ?? 200);
  expect(h.body.displays[0]?.reason).toMatch(o.healthReason ?? /the outfit on show is still current/);
  // The error screen: the frame now carries the mark, so it differs from the good frame shown before.
  const good = imageBefore(s, o.afterMsg);
  if (good !== undefined) expect(st.frame?.hash).not.toBe(good);
  const files = await s.frameFiles();
  expect(files.pngHash).toBe(st.frame?.hash);
  // The state topic carries a Recommendation: there is none before the first good one.
  if (st.last_success_at !== null) expect(mqttState(s)?.stale).toBe(true);
  return st;
}

/**
 * (c) Waits for the next good recommendation after log index `after`; until it comes, the JSON file must stay
 * byte for byte the last good one (checked every 100 ms). Then everything says ok again.
 */
export async function expectRecovery(
  s: Scenario,
  o: { after: number; keptJson: string | null; oldFetchedAt: string | null; timeoutMs?: number },
): Promise<LogLine> {
  const good = await s.until(
    'a good recommendation after the fault',
    async () => {
      const line = s.findLog((l) => l.msg === GOOD, { after: o.after });
      if (line !== undefined) return line;
      const files = await s.frameFiles();
      if (o.keptJson !== null && files.jsonText !== o.keptJson) {
        // The file is written just after the log line; the line may still be on its way through the pipe.
        const late = await s.waitLog((l) => l.msg === GOOD, { after: o.after, timeoutMs: 3000 }).catch(() => undefined);
        if (late !== undefined) return late;
        throw new Error(
          `the JSON file changed during the fault, before any good recommendation:\n${files.jsonText ?? '(gone)'}`,
        );
      }
      return null;
    },
    o.timeoutMs ?? 90_000,
  );
  await s.until('status ok on every publisher', async () => {
    const st = await s.stateJson();
    const files = await s.frameFiles();
    const diag = diagnostics(s);
    const fresh =
      st.status === 'ok' &&
      st.last_success_at !== null &&
      (o.oldFetchedAt === null || instant(st.last_success_at) > instant(o.oldFetchedAt)) &&
      files.json !== null &&
      (o.oldFetchedAt === null || instant(files.json.fetched_at) > instant(o.oldFetchedAt)) &&
      diag?.status === 'ok' &&
      mqttState(s)?.stale === false;
    return fresh;
  });
  const h = await s.healthz();
  expect(h.status).toBe(200);
  expect(h.body.reason).toBe('ok');
  return good;
}

/** The ledger on disk holds at least every credit the service charged (write-ahead: it never undercounts). */
export async function expectLedgerCovers(s: Scenario): Promise<void> {
  // The service first, the ledger after: a charge is on disk before its request is sent, so a call that goes out
  // between the two reads is in the ledger if it is in the service's count.
  const charged = await s.charged();
  const ledger = await s.ledger();
  expect(ledger.day_spent, `ledger ${JSON.stringify(ledger)} against ${charged} charged`).toBeGreaterThanOrEqual(
    charged,
  );
}

/** Waits for `n` more scheduled cycles of the display to start (the schedule keeps running). */
export async function waitTicks(s: Scenario, n: number, after = s.mark()): Promise<void> {
  await s.until(
    `${n} more cycles`,
    () => s.countLogs((l) => l.msg === 'cycle started' && l.display === DISPLAY, { after }) >= n,
    30_000,
  );
}

/** What one fault cost, from the fault to the first good frame after it (the column of test/RELIABILITY.md). */
export interface FaultFigures {
  /** Credits the service billed (under the scenario's billing, every-200 by default). */
  billed: number;
  /** Credits the daemon's ledger counted. */
  counted: number;
  /** New good frames (answers shown). */
  frames: number;
}

/**
 * The flow of a fault on a paid request: a good frame first, then the fault on one request. The request was sent,
 * so the cycle ends after it (a cycle never buys twice): one faulted request, its error code, the checks (a) and
 * (b); the fault's end, and (c): the next cycle, after the failure backoff, brings the display back. `expect` is
 * how the faulted request is counted (`charged`: a 2xx arrived; `unknown`: no usable answer) and what it was billed.
 * Returns the figures from the fault to the first good frame after it.
 */
export async function failedCycle(
  s: Scenario,
  fault: Record<string, unknown>,
  code: string,
  detail: RegExp | undefined,
  expectCost: { billed: number; charge: 'charged' | 'unknown' },
): Promise<FaultFigures> {
  await s.startAndWaitGood();
  await s.until('the first retained state', () => mqttState(s));
  const mark = s.mark();
  const msgMark = s.messages.length;
  await s.sim.injectFault({ ...fault, count: 1, path: 'recweather' });
  const failed = await s.waitLog((l) => l.msg === FAILED, { after: mark, timeoutMs: 60_000 });
  expect(failed.err?.code, JSON.stringify(failed)).toBe(code);
  if (detail) expect(failed.err?.message).toMatch(detail);
  // Sent once: not sent again in the same cycle (the retry loop's line, with its attempt and delay, never came).
  expect(
    s.logs.filter(
      (l) =>
        l.i >= mark && l.i <= failed.i && l.part === 'budget' && l.attempt !== undefined && l.delayMs !== undefined,
    ),
  ).toEqual([]);
  const failedAt = instant(failed.time);

  const kept = await expectLastGoodKept(s, failedAt);
  // "Unreachable" only when no connection was made; once the service was reached, the service failed.
  await expectErrorVisible(s, {
    status: code === 'E_CONNECT' ? 'unreachable' : 'service_error',
    code,
    afterMsg: msgMark,
  });
  // The service saw the one faulted request (a slow one is recorded when its answer would have gone).
  const calls = await s.until(
    'the faulted request in the service log',
    async () => {
      const c = await s.calls();
      return c.some((r) => r.fault !== undefined) ? c : null;
    },
    30_000,
  );
  const faulted = calls.filter((c) => c.fault !== undefined);
  expect(faulted).toHaveLength(1);
  // During the failure backoff nothing is sent: the ledger is still. Good requests are counted and billed 3 each.
  const ledger = await s.ledger();
  const good = calls.filter((c) => c.fault === undefined && c.status === 200).length;
  const counted = ledger.day_spent - 3 * good;
  expect(counted, `ledger ${JSON.stringify(ledger)}, ${good} good requests`).toBe(3);
  expect(expectCost.charge === 'unknown' ? ledger.day_unknown : ledger.day_charged - 3 * good).toBe(3);
  const billed = faulted.reduce((n, c) => n + c.creditsCharged, 0);
  expect(billed).toBe(expectCost.billed);

  await s.sim.clearFaults();
  await expectRecovery(s, { after: failed.i, keptJson: kept.jsonText, oldFetchedAt: kept.fetchedAt });
  await expectLedgerCovers(s);
  // The first request after the fault brought the frame back, billed and counted 3.
  const after = (await s.calls()).slice(calls.length);
  expect(after[0]).toMatchObject({ status: 200, creditsCharged: 3 });
  expect(after[0]?.fault).toBeUndefined();
  return { billed: billed + 3, counted: counted + 3, frames: 1 };
}
