import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { PUBLISHER_PROBLEM_SOURCES } from '../../src/daemon/publisher-registry.js';
import { HttpPublisher } from '../../src/http/http-publisher.js';
import { ProblemBook } from '../../src/state/problems.js';
import { diagnosticsPayload } from '../../src/state/state-payload.js';
import { WEBHOOK_BACKOFF, WEBHOOK_TRIES, WebhookPublisher } from '../../src/webhook/webhook-publisher.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { httpRequest } from '../helpers/http-client.js';
import { until } from '../helpers/until.js';
import { testViews } from '../helpers/views.js';
import { startReceiver, type Answer } from './receiver.js';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { display } from '../fixtures/display.js';
import { rec } from '../fixtures/rec.js';
import { update } from '../fixtures/frames.js';

/**
 * The webhook through real HTTP to a receiver on 127.0.0.1: each new frame POSTed once as JSON (its PNG decoded by
 * pngjs), failures retried on the fake clock and shown as the display's problem on /healthz, state.json, the status
 * page and the diagnostics, which know nothing of webhooks; the URL's secret path and the headers never shown.
 */

/** A Home Assistant webhook's id is its secret. */
const SECRET_PATH = '/api/webhook/outfit-s3cr3t-hook-id';
const TOKEN = 'Bearer t0ken-never-shown';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup() {
  const receiver = await startReceiver();
  cleanup.push(() => receiver.close());
  const d = display('hall', { panel: 'waveshare-7in5-v2' });
  const clock = new FakeClock(Date.parse('2026-01-31T07:00:00.000Z'));
  const problems = new ProblemBook();
  const side = testViews({
    displays: [d],
    clock,
    nextUpdateAt: () => new Date(clock.now() + 30 * 60_000),
    problems,
    sources: PUBLISHER_PROBLEM_SOURCES,
  });
  const cap = capturingLogger();
  const pub = new WebhookPublisher({
    url: `${receiver.url}${SECRET_PATH}?source=outfit`,
    headers: { Authorization: TOKEN },
    timeoutMs: 10_000,
    timezone: 'Europe/Berlin',
    problems,
    clock,
    logger: cap.logger,
    random: () => 1,
  });
  await pub.start();
  cleanup.push(() => pub.stop());
  return { receiver, d, clock, problems, side, pub, logs: cap.text };
}

describe('the webhook publisher', () => {
  it('POSTs each new frame once as JSON: the display, its state, and a PNG that pngjs decodes to the frame; the headers', async () => {
    const s = await setup();
    const first = s.side.show(update(s.d, 1, { rec: rec() }));
    await s.pub.publish(first);
    await s.pub.settled();
    expect(s.receiver.posts).toHaveLength(1);
    const got = s.receiver.posts[0]!;
    expect(got.path).toBe(`${SECRET_PATH}?source=outfit`);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers.authorization).toBe(TOKEN);
    expect(got.body).toMatchObject({ display: 'hall', status: 'ok', state: { outfit: rec().outfit, stale: false } });
    const png = Buffer.from(got.body.frame.png_base64, 'base64');
    const decoded = PNG.sync.read(png);
    const drawn = PNG.sync.read(first.frame.png);
    expect([decoded.width, decoded.height]).toEqual([800, 480]);
    expect([got.body.frame.width, got.body.frame.height]).toEqual([800, 480]);
    expect(Buffer.compare(decoded.data, drawn.data)).toBe(0);
    expect(got.body.frame).toMatchObject({ hash: first.frame.hash, content_type: 'image/png' });
    // The same frame again (its state recorded anew): nothing sent. A new frame: one more POST.
    await s.pub.publish(s.side.show(update(s.d, 1, { rec: rec() })));
    await s.pub.settled();
    expect(s.receiver.posts).toHaveLength(1);
    await s.pub.publish(s.side.show(update(s.d, 2, { rec: rec({ outfit: 'Raincoat, boots and an umbrella.' }) })));
    await s.pub.settled();
    expect(s.receiver.posts.map((p) => p.body.state.outfit)).toEqual([
      rec().outfit,
      'Raincoat, boots and an umbrella.',
    ]);
    expect(s.side.views.view('hall')!.problems).toEqual([]);
  });

  it('a failing receiver is the display’s problem on /healthz, state.json, the page and the diagnostics; retried with backoff; cleared when taken', async () => {
    const s = await setup();
    const http = new HttpPublisher({
      listen: '127.0.0.1:0',
      displays: [s.d],
      views: s.side.views,
      timezone: 'Europe/Berlin',
      clock: s.clock,
      logger: capturingLogger().logger,
    });
    await http.start();
    cleanup.push(() => http.stop());
    s.receiver.script.push(500, 503);
    await s.pub.publish(s.side.show(update(s.d, 1, { rec: rec() })));
    await s.pub.settled();
    expect(s.receiver.posts).toHaveLength(1);
    const origin = s.receiver.url;
    const problem = s.side.views.view('hall')!.problems;
    expect(problem).toMatchObject([
      {
        source: 'webhook',
        code: 'E_WEBHOOK_POST',
        message: `POST to ${origin} failed: HTTP 500`,
        since: '2026-01-31T07:00:00.000Z',
      },
    ]);

    const health = await httpRequest(`${http.url!}/healthz`);
    expect(health.status).toBe(503);
    const h = health.json<{ displays: Array<{ reason: string; problems: Array<{ source: string; code: string }> }> }>();
    expect(h.displays[0]!.reason).toContain(
      `the webhook does not get the frames: E_WEBHOOK_POST: POST to ${origin} failed: HTTP 500`,
    );
    expect(h.displays[0]!.problems).toEqual([
      { source: 'webhook', code: 'E_WEBHOOK_POST', problem: `E_WEBHOOK_POST: POST to ${origin} failed: HTTP 500` },
    ]);
    const state = (await httpRequest(`${http.url!}/displays/hall/state.json`)).json<{
      problems: unknown[];
      tag_problem: unknown;
      output_problem: unknown;
    }>();
    expect(state.problems).toEqual([
      {
        source: 'webhook',
        code: 'E_WEBHOOK_POST',
        message: `POST to ${origin} failed: HTTP 500`,
        since: '2026-01-31T08:00:00.000+01:00',
      },
    ]);
    // The fixed fields of the other sources stay as they are.
    expect([state.tag_problem, state.output_problem]).toEqual([null, null]);
    const page = (await httpRequest(`${http.url!}/`)).text();
    expect(page).toMatch(
      /<th>Webhook<\/th><td><span class="bad">E_WEBHOOK_POST: POST to http:\/\/127\.0\.0\.1:\d+ failed: HTTP 500<\/span>/,
    );
    const diag = JSON.parse(
      diagnosticsPayload({ kind: 'ok' }, null, 'UTC', { problems: s.side.views.view('hall')!.problems }),
    ) as { problems: string[] };
    expect(diag.problems).toEqual([`E_WEBHOOK_POST: POST to ${origin} failed: HTTP 500`]);

    // The retry after the backoff's first step (no jitter here), then its second: taken, the problem gone.
    s.clock.advance(WEBHOOK_BACKOFF.baseMs - 1);
    await s.pub.settled();
    expect(s.receiver.posts).toHaveLength(1);
    s.clock.advance(1);
    await until('the first retry', () => s.receiver.posts.length === 2);
    await s.pub.settled();
    // Still failing: the problem keeps the time of the first failure.
    expect(s.side.views.view('hall')!.problems).toMatchObject([
      { message: `POST to ${origin} failed: HTTP 503`, since: '2026-01-31T07:00:00.000Z' },
    ]);
    s.clock.advance(2 * WEBHOOK_BACKOFF.baseMs);
    await until('the second retry', () => s.receiver.posts.length === 3);
    await s.pub.settled();
    expect(s.side.views.view('hall')!.problems).toEqual([]);
    expect((await httpRequest(`${http.url!}/healthz`)).status).toBe(200);
    expect(s.clock.pendingTimers()).toBe(0);
    // The secret path and the token were never said.
    const shown = [s.logs(), health.text(), JSON.stringify(state), page].join('\n');
    expect(shown).toContain('E_WEBHOOK_POST');
    expect(shown).not.toContain('s3cr3t');
    expect(shown).not.toContain('t0ken');
  });

  it(`a 4xx is not retried, a frame is given up after ${WEBHOOK_TRIES} tries, a POST without an answer times out on the clock`, async () => {
    const s = await setup();
    s.receiver.script.push(404);
    await s.pub.publish(s.side.show(update(s.d, 1, { rec: rec() })));
    await s.pub.settled();
    expect(s.clock.pendingTimers()).toBe(0);
    expect(s.side.views.view('hall')!.problems).toMatchObject([
      { code: 'E_WEBHOOK_POST', message: expect.stringMatching(/HTTP 404$/) as string },
    ]);

    s.receiver.script.push(...Array<Answer>(WEBHOOK_TRIES).fill(502));
    await s.pub.publish(s.side.show(update(s.d, 2, { rec: rec() })));
    for (let i = 1; i < WEBHOOK_TRIES; i++) {
      await until(`try ${i}`, () => s.receiver.posts.length === 1 + i);
      await s.pub.settled();
      // Exactly the backoff's step (no jitter here): a longer step would also run out the retry's own timeout.
      s.clock.advance(WEBHOOK_BACKOFF.baseMs * 2 ** (i - 1));
    }
    await until('the last try', () => s.receiver.posts.length === 1 + WEBHOOK_TRIES);
    await s.pub.settled();
    expect(s.clock.pendingTimers()).toBe(0);
    s.clock.advance(60 * 60_000);
    await s.pub.settled();
    expect(s.receiver.posts).toHaveLength(1 + WEBHOOK_TRIES);

    s.receiver.script.push('hang');
    await s.pub.publish(s.side.show(update(s.d, 3, { rec: rec() })));
    await until('the POST that gets no answer', () => s.receiver.posts.length === 2 + WEBHOOK_TRIES);
    s.clock.advance(10_000);
    await s.pub.settled();
    expect(s.side.views.view('hall')!.problems).toMatchObject([
      { message: `POST to ${s.receiver.url} failed: no answer in 10 s` },
    ]);
  });

  it('an answer of 50 MB: at most 64 KiB read, the connection closed, the frame taken', async () => {
    const s = await setup();
    s.receiver.script.push('huge');
    await s.pub.publish(s.side.show(update(s.d, 1, { rec: rec() })));
    await s.pub.settled();
    await until('the receiver sees the connection closed', () => s.receiver.huge().closed);
    expect(s.receiver.huge().sent).toBeLessThan(16 * 1024 * 1024);
    expect(s.side.views.view('hall')!.problems).toEqual([]);
  });
});
