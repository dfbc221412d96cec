import type { Logger } from 'pino';
import { backoffDelay, type BackoffPolicy } from '../time/backoff-delay.js';
import type { Publisher } from '../publish/publisher.js';
import type { ShownView } from '../state/display-views.js';
import type { ProblemBook } from '../state/problems.js';
import { displayState } from '../state/state-json.js';
import type { Clock } from '../time/clock.js';
import { postJson, type PostResult } from './post.js';
import { WEBHOOK_SOURCE } from './source.js';

/**
 * The webhook: each new frame of a display (by its hash), with the display's state, POSTed as JSON to one URL
 * (Home Assistant's webhook trigger, Node-RED's http in). publish() only hands the frame over: a slow or failing
 * receiver never holds up the cycle or the other publishers. One POST at a time per display; a newer frame replaces
 * one still waiting. A POST that fails is tried again after a backoff, WEBHOOK_TRIES times a frame; meanwhile it is the
 * display's problem (source 'webhook', E_WEBHOOK_POST) until a POST is taken. The URL's path and query and the
 * headers may hold secrets: only the URL's origin is ever said.
 */

/** Tries of one frame: the first and the retries. */
export const WEBHOOK_TRIES = 5;
/** Between the tries of one frame: 5 s, 10 s, 20 s, 40 s (before jitter). */
export const WEBHOOK_BACKOFF: BackoffPolicy = { baseMs: 5_000, maxMs: 5 * 60_000 };

export interface WebhookPublisherOptions {
  /** Where each new frame goes (webhook.url). */
  url: string;
  /** Sent with every POST (webhook.headers); never logged. */
  headers: Readonly<Record<string, string>>;
  /** The deadline of one POST, its answer included. */
  timeoutMs: number;
  /** The zone of the state's times. */
  timezone: string;
  /** Where the display's problem goes (the views read it). */
  problems: ProblemBook;
  /** The timeouts and the backoff. */
  clock: Clock;
  logger: Logger;
  /** The backoff's jitter; default Math.random. */
  random?: () => number;
}

interface Slot {
  /** The view still to be sent, or null. */
  pending: ShownView | null;
  /** The hash of the last frame taken (not sent again). */
  taken: string | null;
  /** The hash of the frame being POSTed, or null. */
  sending: string | null;
  /** Failed tries of the frame being sent. */
  failures: number;
  inflight: boolean;
  timer: unknown;
}

export class WebhookPublisher implements Publisher {
  readonly name = 'webhook';
  readonly #o: WebhookPublisherOptions;
  readonly #url: URL;
  readonly #slots = new Map<string, Slot>();
  readonly #stop = new AbortController();
  /** POSTs under way, so that stop() and the tests can wait for them. */
  readonly #sends = new Set<Promise<void>>();

  constructor(opts: WebhookPublisherOptions) {
    this.#o = opts;
    this.#url = new URL(opts.url);
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  publish(view: ShownView): Promise<void> {
    const id = view.display.id;
    const slot = this.#slots.get(id) ?? {
      pending: null,
      taken: null,
      sending: null,
      failures: 0,
      inflight: false,
      timer: null,
    };
    this.#slots.set(id, slot);
    const hash = view.frame.hash;
    if (hash === slot.taken || hash === slot.sending || hash === slot.pending?.frame.hash) return Promise.resolve();
    slot.pending = view;
    this.#next(slot);
    return Promise.resolve();
  }

  /** Every POST under way has ended (tests). */
  async settled(): Promise<void> {
    while (this.#sends.size > 0) await Promise.all([...this.#sends]);
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    for (const slot of this.#slots.values()) {
      if (slot.timer !== null) this.#o.clock.clearTimeout(slot.timer);
      slot.timer = null;
      slot.pending = null;
    }
    await this.settled();
  }

  /** Sends the slot's pending view unless a POST or a backoff is under way. */
  #next(slot: Slot): void {
    if (slot.inflight || slot.timer !== null || slot.pending === null || this.#stop.signal.aborted) return;
    const view = slot.pending;
    slot.pending = null;
    slot.inflight = true;
    slot.sending = view.frame.hash;
    const send = this.#send(slot, view).finally(() => {
      slot.inflight = false;
      slot.sending = null;
      this.#sends.delete(send);
      this.#next(slot);
    });
    this.#sends.add(send);
  }

  async #send(slot: Slot, view: ShownView): Promise<void> {
    const result = await postJson({
      url: this.#url,
      headers: this.#o.headers,
      body: Buffer.from(JSON.stringify(this.#body(view))),
      timeoutMs: this.#o.timeoutMs,
      clock: this.#o.clock,
      signal: this.#stop.signal,
    });
    if (this.#stop.signal.aborted) return;
    const id = view.display.id;
    if (result.kind === 'taken') {
      if (slot.failures > 0 || this.#o.problems.list(id).some((p) => p.source === WEBHOOK_SOURCE)) {
        this.#o.logger.info({ display: id, origin: this.#url.origin }, 'webhook: a frame was taken again');
      }
      slot.taken = view.frame.hash;
      slot.failures = 0;
      this.#o.problems.set(id, WEBHOOK_SOURCE, 'post', null);
      return;
    }
    slot.failures++;
    const message = `POST to ${this.#url.origin} failed: ${words(result)}`;
    const retry = (result.kind === 'failed' || result.retry) && slot.failures < WEBHOOK_TRIES;
    this.#o.logger.error(
      { display: id, code: 'E_WEBHOOK_POST', origin: this.#url.origin, tries: slot.failures, retry },
      `webhook: ${message}`,
    );
    const since = new Date(this.#o.clock.now()).toISOString();
    this.#o.problems.set(id, WEBHOOK_SOURCE, 'post', { code: 'E_WEBHOOK_POST', message, since });
    if (!retry) {
      // Given up on this frame: the next one starts afresh, the problem stands until one is taken.
      slot.failures = 0;
      return;
    }
    // The same frame again after the backoff, unless a newer one came meanwhile.
    slot.pending ??= view;
    const delay = backoffDelay(slot.failures, WEBHOOK_BACKOFF, this.#o.random ?? Math.random);
    slot.timer = this.#o.clock.setTimeout(() => {
      slot.timer = null;
      this.#next(slot);
    }, delay);
  }

  /** The POST's body: the display, its state as in state.json and the MQTT state, and the frame as a PNG. */
  #body(view: ShownView): object {
    const f = view.frame;
    return {
      display: view.display.id,
      status: view.status.kind,
      state: displayState(view, this.#o.timezone),
      frame: {
        hash: f.hash,
        width: f.width,
        height: f.height,
        content_type: 'image/png',
        png_base64: f.png.toString('base64'),
      },
    };
  }
}

function words(r: Exclude<PostResult, { kind: 'taken' }>): string {
  return r.kind === 'failed' ? r.detail : `HTTP ${r.status}`;
}
