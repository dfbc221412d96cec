import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../helpers/fake-clock.js';
import { createNotifier, watchdogIntervalMs, type SpawnFn } from '../../src/daemon/systemd-notify.js';
import { Watchdog } from '../../src/daemon/watchdog.js';

const logger = pino({ level: 'silent' });

function recordingSpawn(): { calls: string[][]; spawn: SpawnFn } {
  const calls: string[][] = [];
  return {
    calls,
    spawn: (cmd, args) => {
      calls.push([cmd, ...args]);
      return { on: () => undefined };
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
