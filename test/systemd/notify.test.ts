import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { capturingLogger } from '../helpers/capturing-logger.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { createNotifier, watchdogIntervalMs, type SpawnFn } from '../../src/daemon/systemd-notify.js';
import { Watchdog } from '../../src/daemon/watchdog.js';
import { seededRandom } from '../../src/service-sim/weather.js';

const logger = pino({ level: 'silent' });

/** A systemd-notify that exits at once (0), as soon as its exit is listened for. */
function recordingSpawn(): { calls: string[][]; spawn: SpawnFn } {
  const calls: string[][] = [];
  return {
    calls,
    spawn: (cmd, args) => {
      calls.push([cmd, ...args]);
      return { on: (event, fn) => (event === 'exit' ? fn(0) : undefined) };
    },
  };
}

describe('createNotifier', () => {
  it('does nothing at all when NOTIFY_SOCKET is unset', () => {
    expect(createNotifier({ env: {}, logger })).toBeNull();
  });

  it('sends each state through systemd-notify, naming the daemon as the sender', () => {
    const rec = recordingSpawn();
    const n = createNotifier({ env: { NOTIFY_SOCKET: '/run/x' }, logger, pid: 4242, spawn: rec.spawn });
    n?.ready('2 displays');
    n?.watchdog();
    n?.reloading();
    n?.stopping();
    expect(rec.calls).toEqual([
      ['systemd-notify', '--pid=4242', 'READY=1', 'STATUS=2 displays'],
      ['systemd-notify', '--pid=4242', 'WATCHDOG=1'],
      ['systemd-notify', '--pid=4242', 'RELOADING=1'],
      ['systemd-notify', '--pid=4242', 'STOPPING=1'],
    ]);
  });
});

describe('the notifier is one ordered channel', () => {
  const SECRET = 'sk_live_0123456789abcdef';
  const daemonEnv = {
    NOTIFY_SOCKET: '/run/x',
    PATH: '/usr/bin:/bin',
    OUTFIT_API_KEY: SECRET,
    CREDENTIALS_DIRECTORY: '/run/credentials/outfit-display.service',
    SOMETHING_ELSE: `holds ${SECRET} too`,
  };

  /**
   * Children that take a random while (seeded) to send their datagram and as long again to exit, as systemd-notify
   * under load may: `delivered` is the order in which systemd would read them.
   */
  function slowChildren(random: () => number): {
    delivered: string[];
    envs: NodeJS.ProcessEnv[];
    live: () => number;
    spawn: SpawnFn;
  } {
    const delivered: string[] = [];
    const envs: NodeJS.ProcessEnv[] = [];
    let live = 0;
    const spawn: SpawnFn = (_cmd, args, env) => {
      envs.push(env);
      live += 1;
      const exits: Array<(x: unknown) => void> = [];
      const sendMs = Math.floor(random() * 8);
      setTimeout(() => {
        delivered.push(args.slice(1).join(' '));
        setTimeout(
          () => {
            live -= 1;
            for (const fn of exits) fn(0);
          },
          Math.floor(random() * 4),
        );
      }, sendMs);
      return { on: (event, fn) => (event === 'exit' ? exits.push(fn) : undefined) };
    };
    return { delivered, envs, live: () => live, spawn };
  }

  it('delivers RELOADING=1 and READY=1 in the order asked over many reloads, nothing after STOPPING=1, and no secret to the child', async () => {
    const random = seededRandom(41);
    const kids = slowChildren(random);
    const n = createNotifier({ env: daemonEnv, logger, pid: 7, spawn: kids.spawn });
    if (!n) throw new Error('no notifier');
    const RELOADS = 50;
    n.ready('1 display');
    for (let i = 0; i < RELOADS; i++) {
      n.reloading();
      if (random() < 0.5) n.watchdog();
      // A reload takes a moment (loading the config, a first cycle): the READY=1 comes a random while later.
      await new Promise((r) => setTimeout(r, Math.floor(random() * 5)));
      n.ready('1 display');
    }
    n.stopping();
    // After the stop: the end of a reload the stop overtook, a ping, a status.
    n.ready('1 display');
    n.watchdog();
    n.status('stopping');
    // The positive sign: STOPPING=1 delivered and no child left.
    await vi.waitFor(() => expect(kids.delivered.includes('STOPPING=1') && kids.live() === 0).toBe(true), {
      timeout: 10_000,
    });
    const states = kids.delivered.filter((m) => !m.startsWith('WATCHDOG'));
    expect(states).toEqual([
      'READY=1 STATUS=1 display',
      ...Array.from({ length: RELOADS }, () => ['RELOADING=1', 'READY=1 STATUS=1 display']).flat(),
      'STOPPING=1',
    ]);
    expect(kids.delivered.at(-1)).toBe('STOPPING=1');
    for (const env of kids.envs) {
      expect(env).toEqual({ NOTIFY_SOCKET: '/run/x', PATH: '/usr/bin:/bin' });
      expect(JSON.stringify(env)).not.toContain(SECRET);
    }
  });

  it('coalesces pings that wait, and goes on past a child that never exits (W_SYSTEMD_NOTIFY once)', async () => {
    const clock = new FakeClock();
    const { logger: capturing, text } = capturingLogger();
    const calls: string[] = [];
    let killed = 0;
    const spawn: SpawnFn = (_cmd, args) => {
      calls.push(args.slice(1).join(' '));
      return { on: () => undefined, kill: () => (killed += 1) };
    };
    const n = createNotifier({
      env: { NOTIFY_SOCKET: '/run/x' },
      logger: capturing,
      pid: 1,
      spawn,
      clock,
      timeoutMs: 1000,
    });
    if (!n) throw new Error('no notifier');
    n.ready();
    n.watchdog();
    n.watchdog();
    n.watchdog();
    n.reloading();
    expect(calls).toEqual(['READY=1']);
    clock.advance(1000);
    expect(calls).toEqual(['READY=1', 'WATCHDOG=1']);
    clock.advance(2000);
    expect(calls).toEqual(['READY=1', 'WATCHDOG=1', 'RELOADING=1']);
    expect(killed).toBe(3);
    clock.advance(1000);
    await n.drained();
    expect(text().match(/W_SYSTEMD_NOTIFY/g)).toHaveLength(1);
  });
});

describe('watchdogIntervalMs', () => {
  it('is half of WATCHDOG_USEC, for this process only', () => {
    expect(watchdogIntervalMs({ WATCHDOG_USEC: '90000000' }, 1)).toBe(45_000);
    expect(watchdogIntervalMs({ WATCHDOG_USEC: '90000000', WATCHDOG_PID: '1' }, 1)).toBe(45_000);
    expect(watchdogIntervalMs({ WATCHDOG_USEC: '90000000', WATCHDOG_PID: '2' }, 1)).toBeNull();
    expect(watchdogIntervalMs({}, 1)).toBeNull();
    expect(watchdogIntervalMs({ WATCHDOG_USEC: 'x' }, 1)).toBeNull();
  });
});

describe('Watchdog', () => {
  it('pets at the interval while healthy, and not at all while the scheduler is stuck', () => {
    const clock = new FakeClock();
    const rec = recordingSpawn();
    const notifier = createNotifier({ env: { NOTIFY_SOCKET: '/run/x' }, logger, pid: 1, spawn: rec.spawn });
    if (!notifier) throw new Error('no notifier');
    let healthy = true;
    const w = new Watchdog({ clock, notifier, intervalMs: 45_000, healthy: () => healthy });
    w.start();
    clock.advance(44_999);
    expect(rec.calls).toHaveLength(0);
    clock.advance(1);
    expect(rec.calls).toHaveLength(1);
    clock.advance(45_000 * 3);
    expect(rec.calls).toHaveLength(4);
    healthy = false;
    clock.advance(45_000 * 10);
    expect(rec.calls).toHaveLength(4);
    healthy = true;
    clock.advance(45_000);
    expect(rec.calls).toHaveLength(5);
    w.stop();
    clock.advance(45_000 * 10);
    expect(rec.calls).toHaveLength(5);
    expect(rec.calls.every((c) => c[2] === 'WATCHDOG=1')).toBe(true);
  });
});
