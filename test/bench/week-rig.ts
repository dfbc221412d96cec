import { createServer, connect, type Server, type Socket } from 'node:net';
import { setImmediate as nextTurn, setTimeout as realDelay } from 'node:timers/promises';
import type { Daemon } from '../../src/daemon/daemon.js';
import type { Clock } from '../../src/time/clock.js';
import { FakeClock } from '../helpers/fake-clock.js';

/**
 * The moving parts of a week under faults (week-under-faults.ts): a clock the bench drives minute by minute while the
 * daemon's real HTTP requests complete in between, and a gate in front of the simulated service that can refuse
 * connections (nothing listening on its port) without losing the service's credits and log.
 */

/**
 * A FakeClock, as the daemon sees it, that knows which of its timers are a cycle's pause: the retry loop's `sleep`
 * (2 to 30 s between tries of a request that was not sent). A cycle waiting on one waits for the clock, so the bench
 * moves the clock to it; every other timer (the schedule's, start's first-frame wait) waits for its own time.
 */
export class DrivenClock implements Clock {
  readonly fake: FakeClock;
  /** Timer handle → monotonic time it is due, for the timers set from sleep(). */
  readonly #pauses = new Map<unknown, number>();

  constructor(start: number) {
    this.fake = new FakeClock(start);
  }

  now(): number {
    return this.fake.now();
  }

  monotonic(): number {
    return this.fake.monotonic();
  }

  setTimeout(fn: () => void, ms: number): unknown {
    // Only the call site tells a pause from a schedule's timer; sleep() (src/time/clock.ts) is the one that pauses.
    const pause = /\bat sleep \(/.test(new Error().stack ?? '');
    const handle: unknown = this.fake.setTimeout(() => {
      this.#pauses.delete(handle);
      fn();
    }, ms);
    if (pause) this.#pauses.set(handle, this.fake.monotonic() + Math.max(0, ms));
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.#pauses.delete(handle);
    this.fake.clearTimeout(handle);
  }

  /** When the earliest pause is due (monotonic), or null. */
  nextPause(): number | null {
    return this.#pauses.size === 0 ? null : Math.min(...this.#pauses.values());
  }
}

/** Runs a daemon on a DrivenClock: knows its cycles in flight, and moves time only when nothing is under way. */
export class WeekDriver {
  readonly clock: DrivenClock;
  readonly #inFlight = new Set<Promise<unknown>>();

  constructor(clock: DrivenClock) {
    this.clock = clock;
  }

  /**
   * Watches a newly built daemon's cycles: every tick, retry and catch-up runs `run`; a start and a redraw of a stale
   * answer run `publishCurrent` (drawing and writing the frame for real), and a cycle of the display waits for it.
   */
  watch(daemon: Daemon): void {
    for (const cycle of daemon.cycles.values()) {
      // By name: older code has no publishCurrent, and the bench measures both.
      const methods = cycle as unknown as Record<string, unknown>;
      for (const name of ['run', 'publishCurrent']) {
        const method = methods[name];
        if (typeof method !== 'function') continue;
        methods[name] = (...args: unknown[]): Promise<unknown> =>
          this.#track(Promise.resolve(method.apply(cycle, args)));
      }
    }
  }

  #track<T>(p: Promise<T>): Promise<T> {
    this.#inFlight.add(p);
    const done = (): void => void this.#inFlight.delete(p);
    p.then(done, done);
    return p;
  }

  /**
   * Waits until no cycle is in flight (and `extra`, e.g. a start or stop, has settled): the positive sign is the
   * cycle's own promise. A cycle pausing on the clock gets its time; one waiting for the service gets real time.
   */
  async settle(extra: Promise<unknown> | null = null): Promise<void> {
    let done = extra === null;
    let failure: unknown = null;
    extra?.then(
      () => (done = true),
      (err: unknown) => {
        failure = err;
        done = true;
      },
    );
    for (let turns = 0; ; turns++) {
      await nextTurn();
      if (failure !== null)
        throw failure instanceof Error ? failure : new Error('a start or stop failed', { cause: failure });
      if (done && this.#inFlight.size === 0) return;
      if (turns > 100_000) throw new Error('a cycle did not end within 100 000 turns');
      const pause = this.clock.nextPause();
      if (pause !== null) {
        this.clock.fake.advance(Math.max(0, pause - this.clock.fake.monotonic()));
        continue;
      }
      await Promise.race([Promise.allSettled([...this.#inFlight, ...(extra === null ? [] : [extra])]), realDelay(5)]);
    }
  }

  /** Moves the clock to wall time `t`, timer by timer, letting each cycle they start end before the next. */
  async advanceTo(t: number): Promise<void> {
    const fake = this.clock.fake;
    for (let n = 0; ; n++) {
      if (n > 10_000) throw new Error(`more than 10 000 timers before ${new Date(t).toISOString()}: a timer loop`);
      const ms = fake.msToNextTimer();
      if (ms === null || fake.now() + ms > t) break;
      fake.advance(Math.max(0, ms));
      await this.settle();
    }
    if (t > fake.now()) fake.advance(t - fake.now());
  }
}

/**
 * A TCP gate in front of the simulated service, on a fixed loopback port: open, it forwards every connection; closed,
 * nothing listens on the port, so a connection is refused (ECONNREFUSED), as when the service's host is down.
 */
export class ServiceGate {
  readonly #target: number;
  readonly #sockets = new Set<Socket>();
  #server: Server | null = null;
  port = 0;

  constructor(targetPort: number) {
    this.#target = targetPort;
  }

  async open(): Promise<void> {
    if (this.#server !== null) return;
    const server = createServer((client) => {
      const upstream = connect(this.#target, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.#sockets.add(s);
        s.on('close', () => this.#sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('the gate has no port');
    this.port = address.port;
    this.#server = server;
  }

  /** Stops listening and drops every connection through the gate: from now on connections are refused. */
  async refuse(): Promise<void> {
    const server = this.#server;
    if (server === null) return;
    this.#server = null;
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
