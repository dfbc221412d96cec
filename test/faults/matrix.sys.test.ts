import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { describe, expect } from 'vitest';
import {
  BASE,
  decodePng,
  DISPLAY,
  instant,
  KEY,
  KITCHEN,
  localDay,
  Matrix,
  newKey,
  Scenario,
  sha256,
  sleep,
  TOPIC,
  type LedgerFile,
} from './harness.js';
import {
  diagnostics,
  expectErrorVisible,
  expectLastGoodKept,
  expectLedgerCovers,
  expectRecovery,
  failedCycle,
  imageBefore,
  FAILED,
  GOOD,
  mqttState,
  settledFrame,
  waitTicks,
} from './flows.js';
import { seededDraws } from '../helpers/seeded-draws.js';
import { killRounds } from './kill-rounds.js';
import { SHARE_WINDOW_MS } from '../../src/budget/purchase-pool.js';

/**
 * The fault matrix (test/RELIABILITY.md): every fault through the real daemon process, the simulated service as its
 * own process, and a real Mosquitto. The scenarios run at the same time (most of their time is the daemon's
 * backoff); each `it` reports one.
 */

const m = new Matrix();
/** How a faulted paid request costs under billing every-200: an error answer is not billed, a broken 200 is. */
const UNKNOWN_UNBILLED = { billed: 0, charge: 'unknown' } as const;
const CHARGED = { billed: 3, charge: 'charged' } as const;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('the service fails', () => {
  m.it('500: error screen and E_SERVICE, last good kept, recovers after the backoff', async () => {
    const s = await Scenario.create({ name: '500' });
    expect(await failedCycle(s, { kind: 'status', status: 500 }, 'E_SERVICE', /HTTP 500/, UNKNOWN_UNBILLED)).toEqual({
      billed: 3,
      counted: 6,
      frames: 1,
    });
  });

  m.it('503: error screen and E_SERVICE, last good kept, recovers after the backoff', async () => {
    const s = await Scenario.create({ name: '503' });
    expect(
      await failedCycle(
        s,
        { kind: 'status', status: 503 },
        'E_SERVICE',
        /HTTP 503: service unavailable/,
        UNKNOWN_UNBILLED,
      ),
    ).toEqual({ billed: 3, counted: 6, frames: 1 });
  });

  m.it('an HTML error page from a proxy: E_SERVICE naming the page, last good kept, recovers', async () => {
    const s = await Scenario.create({ name: 'html' });
    const figures = await failedCycle(
      s,
      { kind: 'html_error' },
      'E_SERVICE',
      /HTTP 502: non-JSON error body \(text\/html\): 502 Bad Gateway/,
      UNKNOWN_UNBILLED,
    );
    expect(figures).toEqual({ billed: 3, counted: 6, frames: 1 });
  });

  m.it('a response slower than api.response_timeout_s: E_TIMEOUT, sent once, last good kept, recovers', async () => {
    const s = await Scenario.create({ name: 'slow', responseTimeoutS: 2 });
    // The service made the answer after the daemon stopped waiting: billed, never read, and not bought again.
    const figures = await failedCycle(s, { kind: 'slow', delay_ms: 6000 }, 'E_TIMEOUT', /no answer within 2000 ms/, {
      billed: 3,
      charge: 'unknown',
    });
    expect(figures).toEqual({ billed: 6, counted: 6, frames: 1 });
  });

  m.it('connection reset: E_NETWORK, last good kept, recovers', async () => {
    const s = await Scenario.create({ name: 'reset' });
    const figures = await failedCycle(
      s,
      { kind: 'reset' },
      'E_NETWORK',
      /connection to 127\.0\.0\.1:\d+ failed/,
      UNKNOWN_UNBILLED,
    );
    expect(figures).toEqual({ billed: 3, counted: 6, frames: 1 });
  });

  m.it('malformed JSON: E_BAD_RESPONSE, last good kept, recovers', async () => {
    const s = await Scenario.create({ name: 'malformed' });
    const figures = await failedCycle(
      s,
      { kind: 'malformed_json' },
      'E_BAD_RESPONSE',
      /body that is not JSON/,
      CHARGED,
    );
    expect(figures).toEqual({ billed: 6, counted: 6, frames: 1 });
  });

  m.it('a missing required field: E_BAD_RESPONSE naming the field, last good kept, recovers', async () => {
    const s = await Scenario.create({ name: 'missing' });
    const figures = await failedCycle(
      s,
      { kind: 'missing_field', field: 'outfit' },
      'E_BAD_RESPONSE',
      /response field outfit: missing/,
      CHARGED,
    );
    expect(figures).toEqual({ billed: 6, counted: 6, frames: 1 });
  });

  m.it('a missing reading (weather.temp): accepted, W_RESPONSE_SHAPE names it, no error', async () => {
    const s = await Scenario.create({ name: 'missing-reading' });
    await s.startAndWaitGood();
    const mark = s.mark();
    // On every answer from now on: the file keeps showing it (with count 1 it lasts only until the next cycle, 2 s).
    await s.sim.injectFault({ kind: 'missing_field', field: 'weather.temp', count: 1000, path: 'recweather' });
    await s.waitLog((l) => l.code === 'W_RESPONSE_SHAPE' && l.field === 'weather.temp', {
      after: mark,
      what: 'W_RESPONSE_SHAPE for weather.temp',
    });
    // The JSON file gives a reading the service left out as null, as state.json and the MQTT state do (state-json.ts).
    await s.until('a recommendation with weather.temp null in the JSON file', async () => {
      const f = await s.frameFiles();
      return f.json && (f.json.weather as Record<string, unknown>).temp === null ? f : null;
    });
    await s.until('a state message with weather.temp null', () =>
      s.messages.some(
        (msg) =>
          msg.topic === TOPIC.state &&
          (JSON.parse(msg.payload.toString()) as { weather: { temp?: unknown } }).weather.temp === null,
      ),
    );
    expect(s.findLog((l) => l.msg === FAILED || l.level === 'error', { after: mark })).toBeUndefined();
  });

  m.it('unknown extra fields: accepted and kept, no error', async () => {
    const s = await Scenario.create({ name: 'extra' });
    await s.startAndWaitGood();
    const mark = s.mark();
    // On every answer from now on, so the file polled below keeps them (one answer would last only 2 s).
    await s.sim.injectFault({ kind: 'extra_fields', count: 1000, path: 'recweather' });
    await s.until('a recommendation with the extra fields in the JSON file', async () => {
      const f = await s.frameFiles();
      return f.json?.request_id === 'req_sim_0001' ? f : null;
    });
    const json = (await s.frameFiles()).json as { weather: Record<string, unknown>; x_experiment: unknown };
    expect(json.weather.pollen_level).toBe('moderate');
    expect(json.x_experiment).toEqual({ bucket: 'b', variant: 7 });
    expect(s.findLog((l) => l.msg === FAILED || l.level === 'error', { after: mark })).toBeUndefined();
    const st = await s.stateJson();
    expect(st.status).toBe('ok');
    expect(st.last_error).toBeNull();
    expect((await s.healthz()).status).toBe(200);
    // Any state message since the fault (the 2-second schedule may have sent a newer one since).
    await s.until('the extra fields on the state topic', () =>
      s.messages.some(
        (msg) =>
          msg.topic === TOPIC.state &&
          (JSON.parse(msg.payload.toString()) as { request_id?: unknown }).request_id === 'req_sim_0001',
      ),
    );
  });
});

describe('the service cannot be reached', () => {
  m.it('connection refused: E_CONNECT, never sent, tried again at once, nothing counted; recovers', async () => {
    const s = await Scenario.create({ name: 'refused' });
    // An address where nothing listens: the daemon starts against it, then the owner puts the right one and reloads.
    const closed = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(port));
      });
    });
    const right = s.config();
    await writeFile(s.configFile, right.replace(s.sim.url, `http://127.0.0.1:${closed}/v1`));
    await s.start();
    const failed = await s.waitLog((l) => l.msg === FAILED, { timeoutMs: 60_000 });
    expect(failed.err?.code).toBe('E_CONNECT');
    expect(failed.err?.message).toMatch(/ECONNREFUSED.*not sent/);
    // Never sent: tried again within the cycle, and nothing counted.
    expect(
      s.logs
        .filter((l) => l.i < failed.i && l.part === 'budget' && l.attempt !== undefined && l.delayMs !== undefined)
        .map((l) => l.err?.code),
    ).toEqual(['E_CONNECT', 'E_CONNECT']);
    expect(await s.ledger()).toMatchObject({ day_spent: 0, day_unknown: 0 });
    await expectErrorVisible(s, {
      status: 'unreachable',
      code: 'E_CONNECT',
      afterMsg: 0,
      health: 503,
      healthReason: /no good data yet/,
    });
    expect(await s.calls()).toEqual([]);
    await writeFile(s.configFile, right);
    const reload = s.mark();
    s.child?.kill('SIGHUP');
    await s.waitLog((l) => l.msg === 'config reloaded', { after: reload });
    await expectRecovery(s, { after: reload, keptJson: null, oldFetchedAt: null });
    const first = (await s.calls())[0];
    expect(first).toMatchObject({ status: 200, creditsCharged: 3 });
    await expectLedgerCovers(s);
  });
});

describe('the service limits the rate (429)', () => {
  /** A 429 with `retryAfter` as its header: no request before the wait it names, then the cycle goes on by itself. */
  async function rateLimited(
    s: Scenario,
    retryAfter: () => string | null,
    waitMs: (t429: number) => number,
  ): Promise<void> {
    await s.startAndWaitGood();
    const mark = s.mark();
    const before = (await s.calls()).length;
    await s.sim.injectFault({ kind: 'rate_limit', retry_after: retryAfter(), count: 1, path: 'recweather' });
    const limited = await s.waitLog((l) => l.err?.code === 'E_RATE_LIMITED', {
      after: mark,
      what: 'a log line with E_RATE_LIMITED',
    });
    const calls = await s.calls();
    const i = calls.findIndex((c, k) => k >= before && c.status === 429);
    expect(i).toBeGreaterThanOrEqual(0);
    const t429 = calls[i]!.time;
    const wait = waitMs(t429);
    expect(Math.abs(Number(limited.retryAfterMs) - wait)).toBeLessThan(1500);
    // Remembered across restarts: the ledger holds the end of the wait.
    const blocked = await s.until('the wait in the ledger', async () => (await s.ledger()).rate_blocked_until);
    expect(Math.abs(blocked - (t429 + wait))).toBeLessThan(1500);
    // While waiting the display keeps its frame and the daemon stays healthy.
    expect((await s.healthz()).status).toBe(200);
    const next = await s.until('the request after the wait', async () => (await s.calls())[i + 1], wait + 20_000);
    expect(next.time, `429 at ${t429}, next request at ${next.time}, wait ${wait} ms`).toBeGreaterThanOrEqual(
      t429 + wait - 100,
    );
    expect(next.status).toBe(200);
    await expectRecovery(s, { after: limited.i, keptJson: null, oldFetchedAt: null });
    expect(s.findLog((l) => l.msg === FAILED, { after: mark })).toBeUndefined();
    await expectLedgerCovers(s);
    // The refused call's credits were given back: the ledger and the service agree (between two calls).
    await s.until('the ledger equal to what the service charged', async () => {
      const charged = await s.charged();
      return (await s.ledger()).day_spent === charged;
    });
  }

  m.it('429 with Retry-After in seconds: no request before it, then recovers', async () => {
    const s = await Scenario.create({ name: '429-seconds' });
    await rateLimited(
      s,
      () => '3',
      () => 3000,
    );
  });

  m.it('429 with Retry-After as an HTTP date: no request before that date, then recovers', async () => {
    const s = await Scenario.create({ name: '429-date' });
    let at = 0;
    await rateLimited(
      s,
      () => {
        at = Math.ceil((Date.now() + 6000) / 1000) * 1000;
        return new Date(at).toUTCString();
      },
      (t429) => at - t429,
    );
  });

  m.it('429 without Retry-After: waits 60 s (the spec default), then recovers', async () => {
    const s = await Scenario.create({ name: '429-none' });
    await rateLimited(
      s,
      () => null,
      () => 60_000,
    );
  });
});

describe('the account fails', () => {
  m.it('401 mid-run (key revoked): key-rejected screen, no more requests, a new key and a reload recover', async () => {
    const s = await Scenario.create({ name: '401' });
    await s.startAndWaitGood();
    await s.until('the first retained state', () => mqttState(s));
    const mark = s.mark();
    const msgMark = s.messages.length;
    await s.sim.revoke(KEY);
    const failed = await s.waitLog((l) => l.msg === FAILED, { after: mark });
    expect(failed.err?.code).toBe('E_KEY_REJECTED');
    expect(failed.err?.message).toMatch(/HTTP 401: API key has been revoked/);
    expect(s.findLog((l) => l.code === 'W_KEY_REJECTED', { after: mark })).toBeDefined();
    const kept = await expectLastGoodKept(s, instant(failed.time));
    const st = await expectErrorVisible(s, { status: 'key_rejected', code: 'E_KEY_REJECTED', afterMsg: msgMark });
    expect(st.status_detail).toMatch(/revoked/);
    expect(diagnostics(s)?.status_detail).toMatch(/revoked/);
    // A rejected key is not tried again: the schedule runs on, the service sees nothing more.
    const calls = (await s.calls()).length;
    await waitTicks(s, 3);
    expect((await s.calls()).length).toBe(calls);
    // The fault ends when the owner installs a new key and reloads (systemctl reload: SIGHUP).
    const key = newKey();
    await s.sim.setCredits(key, 1_000_000);
    await writeFile(s.keyFile, `${key}\n`, { mode: 0o600 });
    const reload = s.mark();
    s.child?.kill('SIGHUP');
    await s.waitLog((l) => l.msg === 'config reloaded', { after: reload });
    await expectRecovery(s, { after: reload, keptJson: kept.jsonText, oldFetchedAt: kept.fetchedAt });
    await expectLedgerCovers(s);
  });

  m.it(
    '402 (the account out of credits): its own screen, asked again hourly, a top-up and a reload recover the same day',
    async () => {
      const s = await Scenario.create({ name: '402' });
      await s.startAndWaitGood();
      await s.until('the first retained state', () => mqttState(s));
      const mark = s.mark();
      const msgMark = s.messages.length;
      await s.sim.setCredits(KEY, 0);
      const warned = await s.waitLog((l) => l.code === 'W_CREDITS_EXHAUSTED' && l.part === 'budget', { after: mark });
      expect(warned.msg).toMatch(/HTTP 402: insufficient credits/);
      const out = await s.waitLog((l) => l.code === 'W_CREDITS_EXHAUSTED' && l.part === 'cycle', { after: mark });
      const ledger = await s.until('the empty account in the ledger', async () => (await s.ledger()).credits_out);
      expect(ledger.last_refusal_at).toBeGreaterThan(0);
      const kept = await expectLastGoodKept(s, instant(out.time));
      // Not "budget used up": the account's own screen and status, with where to top it up.
      const st = await settledFrame(s, 'credits_out', msgMark);
      expect(st.frame?.hash, 'the credits mark on the frame').not.toBe(imageBefore(s, msgMark));
      expect((await s.frameFiles()).jsonText).toBe(kept.jsonText);
      expect(diagnostics(s)?.status_until).not.toBeNull();
      const page = (await s.get('/')).text();
      expect(page).toContain('out of credits');
      expect(page).toContain('dashboard');
      expect((await s.healthz()).status).toBe(200);
      // Asked again at most hourly: the ticks go on without a call.
      const calls = (await s.calls()).length;
      await waitTicks(s, 3);
      expect((await s.calls()).length).toBe(calls);
      // The owner buys credits and reloads (systemctl reload: SIGHUP): the display is back the same day.
      await s.sim.setCredits(KEY, 1_000_000);
      const reload = s.mark();
      s.child?.kill('SIGHUP');
      await s.waitLog((l) => l.msg === 'config reloaded', { after: reload });
      await expectRecovery(s, { after: reload, keptJson: kept.jsonText, oldFetchedAt: kept.fetchedAt });
      expect((await s.ledger()).credits_out).toBeNull();
      await expectLedgerCovers(s);
    },
  );
});

describe('the broker fails', () => {
  m.it('down at start, then restarted mid-run: files go on, everything is re-sent on reconnect', async () => {
    const s = await Scenario.create({ name: 'broker' });
    await s.broker.stop();
    await s.startAndWaitGood();
    expect(s.findLog((l) => l.code === 'W_MQTT_UNREACHABLE')).toBeDefined();
    // Without the broker, the files and HTTP are served all the same.
    await s.until('the JSON file', async () => (await s.frameFiles()).json);
    expect((await s.healthz()).status).toBe(200);

    const up = s.mark();
    await s.broker.restart();
    await s.waitLog((l) => l.msg === 'MQTT connected', { after: up, timeoutMs: 30_000 });
    const first = await s.retained([TOPIC.status, TOPIC.state, TOPIC.image, TOPIC.diagnostics, TOPIC.discovery]);
    expect(first.get(TOPIC.status)?.toString()).toBe('online');
    decodePng(first.get(TOPIC.image)!);
    expect(JSON.parse(first.get(TOPIC.state)!.toString())).toMatchObject({ stale: false });

    // Mid-run: the broker restarts and loses every retained message (no persistence).
    const before = instant((await s.frameFiles()).json?.fetched_at);
    const again = s.mark();
    await s.broker.restart();
    const lost = await s.waitLog((l) => l.code === 'W_MQTT_DISCONNECTED', { after: again });
    expect(lost.level).toBe('warn');
    await s.waitLog((l) => l.msg === 'MQTT connected', { after: again, timeoutMs: 30_000 });
    const second = await s.retained([TOPIC.status, TOPIC.state, TOPIC.image, TOPIC.diagnostics, TOPIC.discovery]);
    expect(second.get(TOPIC.status)?.toString()).toBe('online');
    decodePng(second.get(TOPIC.image)!);
    const state = JSON.parse(second.get(TOPIC.state)!.toString()) as { fetched_at: string; stale: boolean };
    expect(state.stale).toBe(false);
    // Re-sent, not lost: at least the outfit the files showed before the restart; the cycles never stopped.
    expect(instant(state.fetched_at)).toBeGreaterThanOrEqual(before);
    await s.waitLog((l) => l.msg === GOOD, { after: again });
    expect(s.findLog((l) => l.msg === FAILED)).toBeUndefined();
  });
});

describe('the output disk fails', () => {
  m.it(
    'output_dir full (ENOSPC, a full tmpfs): old files kept whole, error shown, written again once space is freed',
    async () => {
      const s = await Scenario.create({ name: 'enospc', outputFs: 'tmpfs', tmpfsSize: '1m' });
      await diskFault(s, 'ENOSPC', async () => {
        const filler = await s.fillOutputDisk();
        return () => unlink(filler);
      });
    },
  );

  m.it(
    'output_dir read-only (EROFS, a tmpfs remounted ro): old files kept, error shown, written again once writable',
    async () => {
      const s = await Scenario.create({ name: 'erofs', outputFs: 'tmpfs' });
      await diskFault(s, 'EROFS', async () => {
        await s.remountOutput('ro');
        return () => s.remountOutput('rw');
      });
    },
  );
});

/** A disk fault on output_dir: the file publisher fails, the others go on; once the fault ends, the files are new. */
async function diskFault(s: Scenario, code: string, begin: () => Promise<() => Promise<void>>): Promise<void> {
  await s.startAndWaitGood();
  await s.until('the frame files', async () => ((await s.frameFiles()).json !== null ? true : null));
  const mark = s.mark();
  const end = await begin();
  const failed = await s.waitLog((l) => l.msg === 'publish failed' && l.publisher === 'files', {
    after: mark,
    timeoutMs: 30_000,
  });
  // The stable code of a frame file that cannot be written; the OS's reason in its message.
  expect(failed.err?.code).toBe('E_OUTPUT_WRITE');
  expect(failed.err?.message).toContain(`(${code})`);
  // (a) The files are the last ones written, whole. No temp file is left behind by a write after the first failure;
  // the one whose rename a disk turning read-only refused cannot be removed until it is writable again (c).
  const kept = await s.frameFiles();
  expect(kept.json).not.toBeNull();
  expect(await s.tempFiles(s.outRoot(), { newerThan: instant(failed.time) })).toEqual([]);
  // (b) Visible on the status page, in state.json and /healthz (503); the other publishers still get every new frame.
  const st = await s.until('the disk error in state.json', async () => {
    const j = await s.stateJson();
    return j.last_error?.code === 'E_OUTPUT_WRITE' ? j : null;
  });
  expect(st.last_error?.message).toMatch(new RegExp(`^files: cannot write .*\\(${code}\\)$`));
  expect(st.output_problem).toMatchObject({
    code: 'E_OUTPUT_WRITE',
    message: expect.stringContaining(`(${code})`) as unknown,
  });
  expect((await s.get('/')).text()).toContain(code);
  expect((await s.get('/healthz')).status).toBe(503);
  const keptAt = instant(kept.json?.fetched_at);
  await s.until(
    'a newer state on MQTT than the file holds',
    () => instant(mqttState(s)?.fetched_at ?? '1970-01-01T00:00:00Z') > keptAt,
  );
  expect((await s.frameFiles()).jsonText).toBe(kept.jsonText);
  // (c) The fault ends: the next cycle writes both files.
  const fixed = s.mark();
  await end();
  await s.until(
    'new frame files',
    async () => {
      const f = await s.frameFiles();
      return (
        f.json !== null &&
        instant(f.json.fetched_at) > keptAt &&
        s.findLog((l) => l.msg === GOOD, { after: fixed }) !== undefined
      );
    },
    30_000,
  );
  const f = await s.frameFiles();
  decodePng(f.png!);
  expect(await s.tempFiles(s.outRoot())).toEqual([]);
  await s.until('the output problem cleared', async () =>
    (await s.stateJson()).output_problem === null ? true : null,
  );
}

describe('the state files are damaged', () => {
  m.it(
    'a truncated ledger at start: counted as spent (kept as .corrupt), last good shown, spending resumes the next day',
    async () => {
      const s = await Scenario.create({ name: 'ledger', clock: true });
      await s.startAndWaitGood();
      expect(await s.stop()).toBe(0);
      const kept = await s.frameFiles();
      const file = path.join(s.stateDir, 'budget-ledger.json');
      const whole = await readFile(file, 'utf8');
      const torn = whole.slice(0, Math.floor(whole.length / 2));
      await writeFile(file, torn);

      const mark = s.mark();
      const msgMark = s.messages.length;
      await s.start();
      const warned = await s.waitLog((l) => l.code === 'W_LEDGER_UNREADABLE', { after: mark });
      expect(warned.msg).toMatch(/not JSON \(truncated or corrupt/);
      expect(await readFile(`${file}.corrupt`, 'utf8')).toBe(torn);
      const ledger = await s.ledger();
      expect(ledger.day_spent).toBe(200_000);
      // The last good outfit is on the display at once, then the budget mark; nothing is bought.
      const restored = await s.until('the restored state', () => mqttState(s, msgMark));
      expect(instant(restored.fetched_at)).toBe(instant(kept.json?.fetched_at));
      await s.waitLog((l) => l.code === 'W_BUDGET_EXHAUSTED', { after: mark });
      await settledFrame(s, 'budget_exhausted', msgMark);
      expect((await s.frameFiles()).jsonText).toBe(kept.jsonText);
      const calls = (await s.calls()).length;
      await waitTicks(s, 3);
      expect((await s.calls()).length).toBe(calls);
      // The next day the budget is fresh again.
      const today = localDay(Date.now(), s.timezone);
      const midnight = instant(`${today}T00:00:00Z`) + DAY - tzOffsetMs(s.timezone);
      const next = s.mark();
      await s.setClockOffset(midnight + 60_000 - Date.now());
      await expectRecovery(s, { after: next, keptJson: kept.jsonText, oldFetchedAt: String(kept.json?.fetched_at) });
    },
  );

  m.it(
    'a garbage last-good file at start, service down: error screen without an outfit, healthz 503, recovers',
    async () => {
      const s = await Scenario.create({ name: 'lastgood' });
      const file = path.join(s.stateDir, 'last', `${DISPLAY}.json`);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, randomBytes(700));
      await s.sim.injectFault({ kind: 'status', status: 503, count: 1, path: 'recweather' });
      await s.start();
      const ignored = await s.waitLog((l) => l.err?.code === 'E_STATE_READ');
      expect(String(ignored.err?.message)).toMatch(/not JSON \(truncated or corrupt\)/);
      const failed = await s.waitLog((l) => l.msg === FAILED, { timeoutMs: 40_000 });
      expect(failed.err?.code).toBe('E_SERVICE');
      const st = await expectErrorVisible(s, {
        status: 'service_error',
        code: 'E_SERVICE',
        afterMsg: 0,
        health: 503,
        healthReason: /the service failed \(error\) since .*; no good data yet/,
      });
      expect(st.last_success_at).toBeNull();
      decodePng((await s.frameFiles()).png!);
      expect((await s.frameFiles()).json).toBeNull();
      await expectRecovery(s, { after: failed.i, keptJson: null, oldFetchedAt: null });
      const saved = JSON.parse(await readFile(file, 'utf8')) as { fetched_at: string };
      expect(instant(saved.fetched_at)).toBeGreaterThan(instant(failed.time));
    },
  );
});

describe('the process is stopped', () => {
  // The kill moments come from a seed named in the test's title: TEST_SEED=<it> replays a failing run's moments.
  const draws = seededDraws();
  m.it(
    `kill -9 at random moments during frequent cycles: no torn file, the ledger never undercounts (seed ${draws.seed})`,
    async () => {
      const s = await Scenario.create({ name: 'kill9' });
      await killRounds({
        s,
        draws,
        rounds: 18,
        // Where the writes go: the frames, the last good recommendation, the ledger.
        dirs: [s.outputDir, path.join(s.stateDir, 'last'), s.stateDir],
        check: async () => {
          await s.frameFiles();
          const last = await readFile(path.join(s.stateDir, 'last', `${DISPLAY}.json`), 'utf8').catch(() => null);
          if (last !== null) expect(JSON.parse(last)).toHaveProperty('fetched_at');
          await expectLedgerNotUnder(s);
        },
      });
    },
    // Most runs take 3 minutes; kills that cut purchases off in a row make the backoffs they wait out 2 and 4 minutes.
    1_200_000,
  );

  const householdDraws = seededDraws();
  m.it(
    `kill -9 at random moments during a household's purchases: no torn file, the ledger never undercounts, no slot bought twice (seed ${householdDraws.seed})`,
    async () => {
      const s = await Scenario.create({
        name: 'kill9-household',
        household: true,
        clock: true,
        creditsPerDay: 1_000_000,
      });
      const people = path.join(s.stateDir, 'people');
      const folders = [path.join(people, DISPLAY), path.join(people, KITCHEN)];
      await killRounds({
        s,
        draws: householdDraws,
        rounds: 18,
        // Where the writes go: the frames, the displays' and the people's last good answers, the ledger and warmth.
        dirs: [s.outputDir, path.join(s.stateDir, 'last'), s.stateDir, ...folders],
        stepBackoffs: true,
        // Past the window in which a restart shares what the last run bought (the people's files): each start buys.
        stepEachStartMs: SHARE_WINDOW_MS + 1_000,
        // Votes keep the warmth book writing: each counts once a frame, and each new frame of a voter writes again.
        meanwhile: async () => {
          for (const p of ['anna', 'ben', 'cleo']) await s.publish(`${BASE}/people/${p}/feedback`, 'too_cold');
        },
        check: async (daemonTime) => {
          for (const d of [DISPLAY, KITCHEN]) await s.frameFiles(d);
          const answers = [
            ...(await jsonFilesIn(path.join(s.stateDir, 'last'))),
            ...(await Promise.all(folders.map(jsonFilesIn))).flat(),
          ];
          for (const [file, json] of answers) expect(json, file).toHaveProperty('fetched_at');
          const warmth = await readFile(path.join(s.stateDir, 'warmth.json'), 'utf8').catch(() => null);
          if (warmth !== null) expect(JSON.parse(warmth)).toMatchObject({ version: 1 });
          await expectLedgerNotUnder(s);
          // A slot (every 2 s, on the daemon's clock) is bought once for each distinct request (Anna's and Cleo's
          // one, Ben's): a restart does not buy again what the ledger says was paid.
          const bought = new Map<string, number>();
          for (const c of await s.calls()) {
            if (c.creditsCharged === 0) continue;
            const key = `${c.gender ?? ''} at ${new Date(Math.floor(daemonTime(c.time) / 2000) * 2000).toISOString()}`;
            bought.set(key, (bought.get(key) ?? 0) + 1);
          }
          expect([...bought].filter(([, n]) => n > 1)).toEqual([]);
        },
      });
      // Both requests were bought (so the count above had something to count).
      const genders = new Set((await s.calls()).filter((c) => c.creditsCharged > 0).map((c) => c.gender));
      expect(genders).toEqual(new Set(['female', 'male']));
    },
    180_000,
  );

  // A failed or cut-off purchase is waited out, whatever stops the daemon: the backoff and the requests in flight are
  // in the ledger. The rounds end before the shortest backoff (30 s after the failure) could, so every purchase
  // after the first would be one bought again within it.
  const restartDraws = seededDraws();
  m.it(
    'SIGTERM restarts after a 500: each start waits out the backoff it reads back, nothing is bought again within it',
    async () => {
      const s = await Scenario.create({ name: 'restart-500' });
      await s.startAndWaitGood();
      const before = (await s.calls()).length;
      await s.sim.injectFault({ kind: 'status', status: 500, count: 1000, path: 'recweather' });
      // The first purchase the fault answered: counted from before the fault, as a cycle may buy while it is set.
      const failed = await s.until('the failed purchase', async () => {
        const at = (await s.calls()).findIndex((r, i) => i >= before && r.status === 500);
        return at >= 0 ? { at } : null;
      });
      const failedAt = Date.now();
      // Restarts while the backoff the ledger holds still runs, with room for a slow start before it ends.
      const { backoff } = await s.until('the backoff in the ledger', async () => {
        const l = await s.ledger();
        return (l.backoff?.failures ?? 0) >= 1 ? l : null;
      });
      const until = backoff?.until ?? 0;
      expect(until - failedAt).toBeGreaterThan(25_000);
      let rounds = 0;
      while (Date.now() < until - 10_000) {
        expect(await s.stop('SIGTERM')).toBe(0);
        const mark = s.mark();
        await s.start();
        // The positive sign: a tick of the new process deferred by the backoff it read back.
        await s.waitLog((l) => l.msg === 'deferred' && String(l.why).startsWith('backing off after failed requests'), {
          after: mark,
          timeoutMs: 10_000,
        });
        rounds++;
      }
      expect(rounds).toBeGreaterThanOrEqual(2);
      expect((await s.calls()).length).toBe(failed.at + 1);
      // The wait ends on time: the service mended, the next try buys (at most a minute after the failure).
      await s.sim.clearFaults();
      const mark = s.mark();
      await s.waitLog((l) => l.msg === GOOD, { after: mark, timeoutMs: 90_000 });
      expect(Date.now()).toBeGreaterThanOrEqual(until - 1_000);
    },
  );

  m.it(
    `kill -9 at random moments with a paid request in flight or just failed: never bought again within the backoff (seed ${restartDraws.seed})`,
    async () => {
      const { random } = restartDraws;
      const s = await Scenario.create({ name: 'kill9-inflight' });
      await s.startAndWaitGood();
      // One answer slower than the whole test, so the first kill finds it in flight; then resets, so that any purchase
      // after it would show as a reset used.
      await s.sim.injectFault([
        { kind: 'slow', delay_ms: 120_000, count: 1, path: 'recweather' },
        { kind: 'reset', count: 1000, path: 'recweather' },
      ]);
      await s.until('the slow request in flight', async () => (await s.simStats()).pendingFaults.length === 1);
      const sentAt = Date.now();
      const delays: number[] = [Math.round(random() * 2500)];
      await sleep(delays[0] ?? 0);
      await s.kill9();
      let cut = false;
      while (Date.now() - sentAt < 18_000) {
        const mark = s.mark();
        await s.start();
        await s.waitLog((l) => l.msg === 'deferred' && String(l.why).startsWith('backing off after failed requests'), {
          after: mark,
          timeoutMs: 10_000,
        });
        cut ||= s.findLog((l) => l.code === 'W_PAID_REQUEST_CUT', { after: mark }) !== undefined;
        const delay = Math.round(random() * 2000);
        delays.push(delay);
        await sleep(delay);
        await s.kill9();
      }
      const why = `TEST_SEED=${restartDraws.seed}; kill delays: ${delays.join(', ')} ms`;
      // The slow request was the only paid one: every reset fault is still there, unused.
      const pending = (await s.simStats()).pendingFaults;
      expect(
        pending.map((f) => [f.kind, f.remaining]),
        why,
      ).toEqual([['reset', 1000]]);
      // The start after the first kill named the request it cut off.
      expect(cut, why).toBe(true);
      const ledger = await s.ledger();
      expect(ledger.in_flight ?? [], why).toEqual([]);
      expect(ledger.backoff?.failures, why).toBeGreaterThanOrEqual(1);
    },
  );

  m.it('SIGTERM mid-cycle: exits 0 promptly, frame and files untouched, the aborted call stays counted', async () => {
    const s = await Scenario.create({ name: 'sigterm' });
    await s.startAndWaitGood();
    await s.until('the first retained state', () => mqttState(s));
    const mark = s.mark();
    const msgMark = s.messages.length;
    await s.sim.injectFault({ kind: 'slow', delay_ms: 30_000, count: 1, path: 'recweather' });
    await s.until('the slow request in flight', async () => (await s.simStats()).pendingFaults.length === 0);
    // Whatever was published between reading the files and the slow call started is the frame to keep.
    const shown = await s.frameFiles();
    const t0 = Date.now();
    expect(await s.stop('SIGTERM')).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(s.findLog((l) => l.msg === 'stopped', { after: mark })).toBeDefined();
    // The stop is not an error: no error screen anywhere.
    const after = await s.frameFiles();
    expect(after.jsonText).toBe(shown.jsonText);
    expect(after.pngHash).toBe(shown.pngHash);
    expect(s.findLog((l) => l.level === 'error', { after: mark })).toBeUndefined();
    const retained = await s.retained([TOPIC.status, TOPIC.diagnostics, TOPIC.state]);
    expect(retained.get(TOPIC.status)?.toString()).toBe('offline');
    expect(JSON.parse(retained.get(TOPIC.diagnostics)!.toString())).toMatchObject({ status: 'ok' });
    expect(JSON.parse(retained.get(TOPIC.state)!.toString())).toMatchObject({ stale: false });
    const image = (await s.retained([TOPIC.image])).get(TOPIC.image);
    expect(image && sha256(image)).toBe(shown.pngHash);
    expect(s.messages.slice(msgMark).some((x) => x.topic === TOPIC.image && sha256(x.payload) !== shown.pngHash)).toBe(
      false,
    );
    // The call in flight may have been charged by the service: it stays counted.
    const ledger = await s.ledger();
    expect(ledger.day_spent - (await s.charged())).toBeGreaterThanOrEqual(3);
    // Started again, the display shows the kept outfit at once and carries on.
    const restart = s.mark();
    const restartMsg = s.messages.length;
    await s.start();
    const restored = await s.until('the restored state', () =>
      s.messages.slice(restartMsg).find((x) => x.topic === TOPIC.state),
    );
    expect(instant((JSON.parse(restored.payload.toString()) as { fetched_at: string }).fetched_at)).toBe(
      instant(shown.json?.fetched_at),
    );
    await expectRecovery(s, { after: restart, keptJson: shown.jsonText, oldFetchedAt: String(shown.json?.fetched_at) });
  });
});

describe('the clock jumps', () => {
  m.it(
    'back, right, a day forward, back again: the schedule never stalls and every credit is in the ledger',
    async () => {
      const s = await Scenario.create({ name: 'clock', clock: true });
      await s.startAndWaitGood();
      const tracker = s.trackLedger();
      const today = localDay(Date.now(), s.timezone);
      const phase = async (offset: number, what: string): Promise<number> => {
        const mark = s.mark();
        await s.setClockOffset(offset);
        await s.until(
          `two good recommendations after the clock went ${what}`,
          () => s.countLogs((l) => l.msg === GOOD, { after: mark }) >= 2,
          30_000,
        );
        return mark;
      };
      // Back 3 hours: not trusted, spending goes on (within the budget of any 25 hours), the ledger's day stays.
      const back = await phase(-3 * HOUR, 'back 3 h');
      expect(s.findLog((l) => l.code === 'W_CLOCK_UNTRUSTED', { after: back })).toBeDefined();
      expect(s.findLog((l) => l.code === 'W_CLOCK_STEPPED' && Number(l.driftS) < 0, { after: back })).toBeDefined();
      // The diagnostics are published with each frame, after the log line: wait for the one that carries the warning.
      await s.until('the warning in diagnostics', () =>
        diagnostics(s)?.budget_warnings.some((w) => w.startsWith('W_CLOCK_UNTRUSTED')),
      );
      let ledger = await s.ledger();
      expect(ledger.day).toBe(today);
      expect(ledger.untrusted_carry).toBeGreaterThan(0);
      // Right again: trusted, the warning goes.
      await phase(0, 'right again');
      await s.until('the warning gone from diagnostics', () =>
        diagnostics(s)?.budget_warnings.every((w) => !w.startsWith('W_CLOCK_UNTRUSTED')),
      );
      // A day forward: taken as corrected, a new day in the ledger.
      const fwd = await phase(DAY, 'a day forward');
      expect(s.findLog((l) => l.code === 'W_CLOCK_STEPPED' && Number(l.driftS) > 0, { after: fwd })).toBeDefined();
      ledger = await s.ledger();
      expect(ledger.day).toBe(localDay(Date.now() + DAY, s.timezone));
      // Back to the real time: the day already begun is not left for an earlier one (periods never go back).
      const back2 = await phase(0, 'back a day');
      expect(s.findLog((l) => l.code === 'W_CLOCK_UNTRUSTED', { after: back2 })).toBeDefined();
      ledger = await s.ledger();
      expect(ledger.day).toBe(localDay(Date.now() + DAY, s.timezone));
      // Every credit the service charged is in the ledger of some day (the service first: see expectLedgerCovers).
      const charged = await s.charged();
      const days = await tracker.stop();
      const final = await s.ledger();
      days.set(final.day, Math.max(days.get(final.day) ?? 0, final.day_spent));
      expect([...days.keys()]).toEqual([today, localDay(Date.now() + DAY, s.timezone)]);
      const recorded = [...days.values()].reduce((a, b) => a + b, 0);
      expect(recorded, JSON.stringify([...days])).toBeGreaterThanOrEqual(charged);
      expect(s.findLog((l) => l.msg === FAILED)).toBeUndefined();
    },
  );

  m.it(
    'stepped back once the budget of the day is spent: nothing more is bought that day, the schedule runs on',
    async () => {
      // Every tick until the day's 9 credits are spent (not paced over the day), so the day is spent at once.
      const s = await Scenario.create({ name: 'clock-spent', clock: true, creditsPerDay: 9, paceOverBudget: false });
      await s.start();
      await s.waitLog((l) => l.code === 'W_BUDGET_EXHAUSTED', { timeoutMs: 40_000 });
      expect(await s.charged()).toBe(9);
      const today = localDay(Date.now(), s.timezone);
      const deferredByClock = (after: number): number =>
        s.countLogs((l) => l.msg === 'deferred' && String(l.why).startsWith('clock not trusted'), { after });
      // Two days back: the clock is not trusted and the day already paid for stays paid; ticks go on, deferred.
      const back = s.mark();
      await s.setClockOffset(-2 * DAY);
      await s.waitLog((l) => l.code === 'W_CLOCK_UNTRUSTED', { after: back });
      await s.until('three deferred ticks', () => deferredByClock(back) >= 3, 30_000);
      expect(await s.charged()).toBe(9);
      expect((await s.ledger()).day).toBe(today);
      // A day forward: a new day, a new budget, spent once.
      const fwd = s.mark();
      await s.setClockOffset(DAY);
      const bought = await s.waitLog((l) => l.msg === GOOD, { after: fwd, timeoutMs: 30_000 });
      await s.waitLog((l) => l.code === 'W_BUDGET_EXHAUSTED', { after: bought.i, timeoutMs: 30_000 });
      await s.until('the new day spent', async () => (await s.charged()) === 18);
      // Back to the real time: that day is not opened again.
      const back2 = s.mark();
      await s.setClockOffset(0);
      await s.until('three deferred ticks', () => deferredByClock(back2) >= 3, 30_000);
      expect(await s.charged()).toBe(18);
      const ledger: LedgerFile = await s.ledger();
      expect(ledger.day).toBe(localDay(Date.now() + DAY, s.timezone));
      expect(ledger.day_spent).toBe(9);
    },
  );
});

/** The UTC offset of an Etc/GMT zone, ms (Etc/GMT-5 is UTC+5). */
function tzOffsetMs(zone: string): number {
  const m = /^Etc\/GMT(?:([+-])(\d+))?$/.exec(zone);
  return m?.[1] === undefined ? 0 : (m[1] === '-' ? 1 : -1) * Number(m[2]) * HOUR;
}

/** The ledger parses (no torn file) and counts at least what the service charged; no ledger, nothing charged. */
async function expectLedgerNotUnder(s: Scenario): Promise<void> {
  const charged = await s.charged();
  const ledger = await s
    .ledger()
    .catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : Promise.reject(err)));
  if (ledger !== null) expect(ledger.day_spent, `ledger against ${charged} charged`).toBeGreaterThanOrEqual(charged);
  else expect(charged).toBe(0);
}

/** Every `*.json` in a folder, parsed (a torn one throws). */
async function jsonFilesIn(dir: string): Promise<Array<[string, unknown]>> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  return Promise.all(
    names.map(async (n): Promise<[string, unknown]> => [n, JSON.parse(await readFile(path.join(dir, n), 'utf8'))]),
  );
}
